/**
 * A selection of WZ 2008 classes (the German edition of NACE Rev. 2) with
 * German and English titles (kept once, in shared/api/industries.ts, for the
 * Search panel's picker too), the words a company of that class uses in its
 * name, and the purpose text its register entry states. `weight` makes common
 * trades (crafts, retail, consulting, IT) common in the synthetic data.
 */
import { wzClass } from "../../shared/api/index.ts";

export interface IndustryDef {
  code: string;
  de: string;
  en: string;
  /** Words for synthetic names ("Softwareentwicklung", "Bau", …). */
  words: readonly string[];
  /** Purpose of the company in register wording (German, as registers are). */
  purpose: string;
  weight: number;
  /** Typical size distribution shift: 0 small trades … 2 industry. */
  scale: number;
}

/** A class of the table: its DE/EN titles come from the one WZ table the UI's picker shows too (shared/api/industries.ts). */
const I = (code: string, words: string[], purpose: string, weight: number, scale = 1): IndustryDef => {
  const t = wzClass(code);
  if (!t) throw new Error(`industry ${code} has no title in shared/api/industries.ts`);
  return { code, de: t.de, en: t.en, words, purpose, weight, scale };
};

export const INDUSTRIES: readonly IndustryDef[] = [
  I(
    "J62.01",
    ["Software", "Digital", "Code", "Systems"],
    "Entwicklung und Vertrieb von Software sowie IT-Beratung",
    40,
  ),
  I(
    "J62.02",
    ["IT-Consulting", "IT Solutions", "Informatik"],
    "Beratung auf dem Gebiet der Informationstechnologie und Cloud-Dienste",
    25,
  ),
  I(
    "J63.11",
    ["Data", "Cloud", "Hosting", "Rechenzentrum"],
    "Betrieb von Rechenzentren, Hosting und Datenverarbeitung",
    8,
  ),
  I(
    "M70.22",
    ["Consulting", "Beratung", "Management", "Partners"],
    "Unternehmensberatung und Managementberatung",
    45,
    0,
  ),
  I("M69.20", ["Steuerberatung", "Treuhand", "Revision"], "Steuerberatung, Wirtschaftsprüfung und Buchführung", 20, 0),
  I(
    "M71.12",
    ["Ingenieurbüro", "Engineering", "Planung"],
    "Technische Fachplanung, Ingenieurleistungen und Projektsteuerung",
    18,
  ),
  I(
    "M73.11",
    ["Werbeagentur", "Media", "Marketing", "Kommunikation"],
    "Werbung, Marketing und Kommunikationsberatung",
    15,
    0,
  ),
  I("F41.20", ["Bau", "Hochbau", "Bauunternehmung", "Wohnbau"], "Errichtung von Wohn- und Nichtwohngebäuden", 30),
  I(
    "F43.21",
    ["Elektro", "Elektrotechnik", "Elektroinstallation"],
    "Elektroinstallation, Gebäude- und Sicherheitstechnik",
    25,
    0,
  ),
  I(
    "F43.22",
    ["Haustechnik", "Sanitär", "Heizung", "Klima"],
    "Installation von Sanitär-, Heizungs- und Klimaanlagen",
    22,
    0,
  ),
  I(
    "C25.62",
    ["Metallbau", "Präzisionsteile", "Zerspanung", "Feinmechanik"],
    "Herstellung von Präzisionsteilen und Metallbearbeitung",
    12,
    1,
  ),
  I(
    "C28.41",
    ["Maschinenbau", "Werkzeugmaschinen", "Anlagenbau"],
    "Entwicklung und Herstellung von Werkzeugmaschinen und Anlagen",
    8,
    2,
  ),
  I("C28.29", ["Maschinenbau", "Technik", "Automation"], "Herstellung von Maschinen und Automatisierungstechnik", 8, 2),
  I(
    "C27.90",
    ["Elektronik", "Energietechnik", "Antriebstechnik"],
    "Herstellung elektrischer Ausrüstungen und Geräte",
    6,
    2,
  ),
  I(
    "C29.32",
    ["Automotive", "Fahrzeugteile", "Zulieferer"],
    "Herstellung von Teilen und Zubehör für Kraftfahrzeuge",
    5,
    2,
  ),
  I("C10.71", ["Bäckerei", "Backstube", "Brot"], "Herstellung und Vertrieb von Backwaren", 10, 0),
  I(
    "C20.14",
    ["Chemie", "Chemicals", "Spezialchemie"],
    "Herstellung chemischer Grundstoffe und Spezialchemikalien",
    3,
    2,
  ),
  I("C21.20", ["Pharma", "Life Sciences", "Arzneimittel"], "Entwicklung und Herstellung von Arzneimitteln", 3, 2),
  I("G46.90", ["Handel", "Großhandel", "Trading", "Vertrieb"], "Groß- und Außenhandel mit Waren aller Art", 25),
  I("G47.91", ["Online", "Shop", "E-Commerce", "Versand"], "Online-Handel und Versandhandel mit Konsumgütern", 15),
  I(
    "G47.11",
    ["Markt", "Lebensmittel", "Frischemarkt"],
    "Einzelhandel mit Lebensmitteln und Waren des täglichen Bedarfs",
    10,
    0,
  ),
  I("G45.11", ["Autohaus", "Automobile", "Fahrzeughandel"], "Handel mit Kraftfahrzeugen, Werkstatt und Service", 12, 1),
  I("H49.41", ["Logistik", "Spedition", "Transport"], "Güterbeförderung, Spedition und Lagerlogistik", 18, 1),
  I("H52.29", ["Logistics", "Cargo", "Fracht"], "Logistikdienstleistungen und Frachtvermittlung", 6, 1),
  I(
    "I56.10",
    ["Gastronomie", "Restaurant", "Café", "Genuss"],
    "Betrieb von Restaurants und Gastronomiebetrieben",
    18,
    0,
  ),
  I("I55.10", ["Hotel", "Hotelbetrieb", "Gasthof"], "Betrieb von Hotels und Beherbergungsbetrieben", 8, 0),
  I("K64.20", ["Holding", "Beteiligungen", "Invest"], "Erwerb, Halten und Verwalten von Beteiligungen", 30, 0),
  I("K66.19", ["Finanz", "Capital", "Finanzdienstleistungen"], "Vermittlung von Finanzdienstleistungen", 8, 0),
  I(
    "L68.10",
    ["Immobilien", "Grundbesitz", "Projektentwicklung"],
    "Erwerb, Entwicklung und Veräußerung von Immobilien",
    22,
    0,
  ),
  I(
    "L68.20",
    ["Immobilienverwaltung", "Vermietung", "Wohnen"],
    "Vermietung und Verwaltung von eigenem Grundbesitz",
    20,
    0,
  ),
  I(
    "N81.21",
    ["Gebäudereinigung", "Facility Services", "Reinigung"],
    "Gebäudereinigung und Facility Management",
    10,
    1,
  ),
  I(
    "N78.20",
    ["Personal", "Personaldienstleistungen", "Staffing"],
    "Arbeitnehmerüberlassung und Personalvermittlung",
    7,
    1,
  ),
  I("Q86.23", ["Zahnmedizin", "Dental", "Zahnärzte"], "Ausübung der Zahnheilkunde", 6, 0),
  I(
    "Q87.10",
    ["Pflege", "Seniorenresidenz", "Pflegedienst"],
    "Betrieb von Pflegeeinrichtungen und ambulante Pflege",
    8,
    1,
  ),
  I("D35.11", ["Energie", "Solar", "Windpark", "Stadtwerke"], "Erzeugung von Strom aus erneuerbaren Energien", 12, 0),
  I("A01.11", ["Agrar", "Landwirtschaft", "Hof"], "Landwirtschaftliche Erzeugung und Vermarktung", 6, 0),
  I("P85.59", ["Akademie", "Bildung", "Training", "Schule"], "Aus- und Weiterbildung, Seminare und Schulungen", 8, 0),
  I("R93.13", ["Fitness", "Sport", "Gym"], "Betrieb von Fitness- und Gesundheitsstudios", 4, 0),
  I(
    "M72.19",
    ["Research", "Labs", "Innovation", "Forschung"],
    "Forschung und Entwicklung in Natur- und Ingenieurwissenschaften",
    6,
    1,
  ),
  // Classes of the reference companies (shared/reference/companies.json). Weight 0: the
  // synthetic data never draws them, so adding one does not reshuffle the generated world.
  I("C29.10", ["Automobile", "Fahrzeugbau"], "Entwicklung, Herstellung und Vertrieb von Kraftfahrzeugen", 0, 2),
  I("H49.20", ["Bahn", "Schienenverkehr"], "Personen- und Güterbeförderung auf der Schiene", 0, 2),
  I(
    "G46.42",
    ["Sportartikel", "Mode", "Schuhe"],
    "Entwicklung und Vertrieb von Sportschuhen, Bekleidung und Zubehör",
    0,
    2,
  ),
  I("K65.11", ["Versicherung", "Vorsorge"], "Betrieb von Versicherungsgeschäften aller Art", 0, 2),
  I("H51.10", ["Airline", "Luftfahrt"], "Beförderung von Personen und Fracht im Luftverkehr", 0, 2),
  I("C10.89", ["Food", "Nahrungsmittel"], "Herstellung und Vertrieb von Nahrungsmitteln", 0, 2),
  I(
    "C20.41",
    ["Waschmittel", "Klebstoffe", "Kosmetik"],
    "Herstellung von Wasch- und Reinigungsmitteln, Klebstoffen und Kosmetik",
    0,
    2,
  ),
  I("C22.11", ["Reifen", "Gummi"], "Herstellung von Reifen und Fahrzeugkomponenten", 0, 2),
  I("K64.19", ["Bank", "Banking"], "Betrieb von Bankgeschäften aller Art", 0, 2),
  I("C28.99", ["Druckmaschinen", "Maschinenbau"], "Herstellung von Druckmaschinen und Sondermaschinen", 0, 2),
  I(
    "C28.12",
    ["Pneumatik", "Automatisierung"],
    "Herstellung pneumatischer und elektrischer Automatisierungstechnik",
    0,
    2,
  ),
  I("C27.51", ["Hausgeräte", "Haushaltsgeräte"], "Herstellung und Vertrieb von Haushaltsgeräten", 0, 2),
  I("G47.75", ["Drogerie", "Drogeriemarkt"], "Einzelhandel mit Drogeriewaren, Kosmetik und Körperpflegemitteln", 0, 1),
];
export const INDUSTRY_WEIGHTS: readonly number[] = INDUSTRIES.map((i) => i.weight);

/**
 * Reference companies whose industry text names no WZ class (a division such as
 * "C20 – …", or only a description): the class they belong to, by company id.
 */
export const REFERENCE_CLASSES: Readonly<Record<string, string>> = {
  DEKQJ5DZDN52: "C20.41", // Henkel: "C20 – Chemische Erzeugnisse (Wasch-/Reinigungsmittel, Klebstoffe, Kosmetik)"
  DE7CG4NJU223: "C28.99", // Heidelberger Druckmaschinen: "C28 – Maschinenbau (Druckmaschinen)"
  DEMWUYW5R962: "C28.41", // TRUMPF: laser and machine tools for sheet metal
  DEPZ2VFJZF25: "C27.51", // Miele: domestic appliances
  DEBHK5CK9N83: "C27.51", // Vorwerk: domestic appliances (direct sales)
  DE2FDKAK2567: "C28.12", // Festo: pneumatics, automation
  DELTU2WDWS05: "G47.75", // dm-drogerie markt
};

/** The WZ class code a reference industry text starts with ("J62.01 – …"), or "". */
export function classCodeOf(text: string): string {
  const m = /^([A-U]\d{2}\.\d{2})\s*[–-]/.exec(text);
  return m?.[1] ?? "";
}

/**
 * Index into INDUSTRIES of a reference company's class, so its industry is
 * labelled in German and English like every other company's. Throws when the
 * table lacks it: a reference company must never fall back to its German text.
 */
export function referenceIndustry(id: string, text: string): number {
  const code = REFERENCE_CLASSES[id] ?? classCodeOf(text);
  const k = INDUSTRIES.findIndex((i) => i.code === code);
  if (k < 0) throw new Error(`reference company ${id}: industry "${text}" has no class in the industry table`);
  return k;
}
