/**
 * A selection of WZ 2008 classes (the German edition of NACE Rev. 2) with
 * German and English titles, the words a company of that class uses in its
 * name, and the purpose text its register entry states. `weight` makes common
 * trades (crafts, retail, consulting, IT) common in the synthetic data.
 */
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

const I = (code: string, de: string, en: string, words: string[], purpose: string, weight: number, scale = 1): IndustryDef =>
  ({ code, de, en, words, purpose, weight, scale });

export const INDUSTRIES: readonly IndustryDef[] = [
  I("J62.01", "Programmierungstätigkeiten", "Computer programming activities", ["Software", "Digital", "Code", "Systems"], "Entwicklung und Vertrieb von Software sowie IT-Beratung", 40),
  I("J62.02", "Erbringung von Beratungsleistungen auf dem Gebiet der Informationstechnologie", "Computer consultancy activities", ["IT-Consulting", "IT Solutions", "Informatik"], "Beratung auf dem Gebiet der Informationstechnologie und Cloud-Dienste", 25),
  I("J63.11", "Datenverarbeitung, Hosting und damit verbundene Tätigkeiten", "Data processing, hosting and related activities", ["Data", "Cloud", "Hosting", "Rechenzentrum"], "Betrieb von Rechenzentren, Hosting und Datenverarbeitung", 8),
  I("M70.22", "Unternehmensberatung", "Business and other management consultancy activities", ["Consulting", "Beratung", "Management", "Partners"], "Unternehmensberatung und Managementberatung", 45, 0),
  I("M69.20", "Wirtschaftsprüfung und Steuerberatung; Buchführung", "Accounting, bookkeeping and auditing; tax consultancy", ["Steuerberatung", "Treuhand", "Revision"], "Steuerberatung, Wirtschaftsprüfung und Buchführung", 20, 0),
  I("M71.12", "Ingenieurbüros für technische Fachplanung und Ingenieurdesign", "Engineering activities and related technical consultancy", ["Ingenieurbüro", "Engineering", "Planung"], "Technische Fachplanung, Ingenieurleistungen und Projektsteuerung", 18),
  I("M73.11", "Werbeagenturen", "Advertising agencies", ["Werbeagentur", "Media", "Marketing", "Kommunikation"], "Werbung, Marketing und Kommunikationsberatung", 15, 0),
  I("F41.20", "Bau von Gebäuden", "Construction of buildings", ["Bau", "Hochbau", "Bauunternehmung", "Wohnbau"], "Errichtung von Wohn- und Nichtwohngebäuden", 30),
  I("F43.21", "Elektroinstallation", "Electrical installation", ["Elektro", "Elektrotechnik", "Elektroinstallation"], "Elektroinstallation, Gebäude- und Sicherheitstechnik", 25, 0),
  I("F43.22", "Gas-, Wasser-, Heizungs- sowie Lüftungs- und Klimainstallation", "Plumbing, heat and air-conditioning installation", ["Haustechnik", "Sanitär", "Heizung", "Klima"], "Installation von Sanitär-, Heizungs- und Klimaanlagen", 22, 0),
  I("C25.62", "Mechanik a. n. g.", "Machining", ["Metallbau", "Präzisionsteile", "Zerspanung", "Feinmechanik"], "Herstellung von Präzisionsteilen und Metallbearbeitung", 12, 1),
  I("C28.41", "Herstellung von Werkzeugmaschinen für die Metallbearbeitung", "Manufacture of metal forming machinery", ["Maschinenbau", "Werkzeugmaschinen", "Anlagenbau"], "Entwicklung und Herstellung von Werkzeugmaschinen und Anlagen", 8, 2),
  I("C28.29", "Herstellung von sonstigen nicht wirtschaftszweigspezifischen Maschinen a. n. g.", "Manufacture of other general-purpose machinery", ["Maschinenbau", "Technik", "Automation"], "Herstellung von Maschinen und Automatisierungstechnik", 8, 2),
  I("C27.90", "Herstellung von sonstigen elektrischen Ausrüstungen und Geräten", "Manufacture of other electrical equipment", ["Elektronik", "Energietechnik", "Antriebstechnik"], "Herstellung elektrischer Ausrüstungen und Geräte", 6, 2),
  I("C29.32", "Herstellung von sonstigen Teilen und sonstigem Zubehör für Kraftwagen", "Manufacture of other parts and accessories for motor vehicles", ["Automotive", "Fahrzeugteile", "Zulieferer"], "Herstellung von Teilen und Zubehör für Kraftfahrzeuge", 5, 2),
  I("C10.71", "Herstellung von Backwaren (ohne Dauerbackwaren)", "Manufacture of bread; fresh pastry goods and cakes", ["Bäckerei", "Backstube", "Brot"], "Herstellung und Vertrieb von Backwaren", 10, 0),
  I("C20.14", "Herstellung von sonstigen organischen Grundstoffen und Chemikalien", "Manufacture of other organic basic chemicals", ["Chemie", "Chemicals", "Spezialchemie"], "Herstellung chemischer Grundstoffe und Spezialchemikalien", 3, 2),
  I("C21.20", "Herstellung von pharmazeutischen Spezialitäten und sonstigen pharmazeutischen Erzeugnissen", "Manufacture of pharmaceutical preparations", ["Pharma", "Life Sciences", "Arzneimittel"], "Entwicklung und Herstellung von Arzneimitteln", 3, 2),
  I("G46.90", "Großhandel ohne ausgeprägten Schwerpunkt", "Non-specialised wholesale trade", ["Handel", "Großhandel", "Trading", "Vertrieb"], "Groß- und Außenhandel mit Waren aller Art", 25),
  I("G47.91", "Versand- und Internet-Einzelhandel", "Retail sale via mail order houses or via Internet", ["Online", "Shop", "E-Commerce", "Versand"], "Online-Handel und Versandhandel mit Konsumgütern", 15),
  I("G47.11", "Einzelhandel mit Waren verschiedener Art, Hauptrichtung Nahrungs- und Genussmittel", "Retail sale in non-specialised stores with food predominating", ["Markt", "Lebensmittel", "Frischemarkt"], "Einzelhandel mit Lebensmitteln und Waren des täglichen Bedarfs", 10, 0),
  I("G45.11", "Handel mit Kraftwagen mit einem Gesamtgewicht von 3,5 t oder weniger", "Sale of cars and light motor vehicles", ["Autohaus", "Automobile", "Fahrzeughandel"], "Handel mit Kraftfahrzeugen, Werkstatt und Service", 12, 1),
  I("H49.41", "Güterbeförderung im Straßenverkehr", "Freight transport by road", ["Logistik", "Spedition", "Transport"], "Güterbeförderung, Spedition und Lagerlogistik", 18, 1),
  I("H52.29", "Erbringung von sonstigen Dienstleistungen für den Verkehr", "Other transportation support activities", ["Logistics", "Cargo", "Fracht"], "Logistikdienstleistungen und Frachtvermittlung", 6, 1),
  I("I56.10", "Restaurants, Gaststätten, Imbissstuben, Cafés, Eissalons u. Ä.", "Restaurants and mobile food service activities", ["Gastronomie", "Restaurant", "Café", "Genuss"], "Betrieb von Restaurants und Gastronomiebetrieben", 18, 0),
  I("I55.10", "Hotels, Gasthöfe und Pensionen", "Hotels and similar accommodation", ["Hotel", "Hotelbetrieb", "Gasthof"], "Betrieb von Hotels und Beherbergungsbetrieben", 8, 0),
  I("K64.20", "Beteiligungsgesellschaften", "Activities of holding companies", ["Holding", "Beteiligungen", "Invest"], "Erwerb, Halten und Verwalten von Beteiligungen", 30, 0),
  I("K66.19", "Sonstige mit Finanzdienstleistungen verbundene Tätigkeiten", "Other activities auxiliary to financial services", ["Finanz", "Capital", "Finanzdienstleistungen"], "Vermittlung von Finanzdienstleistungen", 8, 0),
  I("L68.10", "Kauf und Verkauf von eigenen Grundstücken, Gebäuden und Wohnungen", "Buying and selling of own real estate", ["Immobilien", "Grundbesitz", "Projektentwicklung"], "Erwerb, Entwicklung und Veräußerung von Immobilien", 22, 0),
  I("L68.20", "Vermietung, Verpachtung von eigenen oder geleasten Grundstücken, Gebäuden und Wohnungen", "Renting and operating of own or leased real estate", ["Immobilienverwaltung", "Vermietung", "Wohnen"], "Vermietung und Verwaltung von eigenem Grundbesitz", 20, 0),
  I("N81.21", "Allgemeine Gebäudereinigung", "General cleaning of buildings", ["Gebäudereinigung", "Facility Services", "Reinigung"], "Gebäudereinigung und Facility Management", 10, 1),
  I("N78.20", "Befristete Überlassung von Arbeitskräften", "Temporary employment agency activities", ["Personal", "Personaldienstleistungen", "Staffing"], "Arbeitnehmerüberlassung und Personalvermittlung", 7, 1),
  I("Q86.23", "Zahnarztpraxen", "Dental practice activities", ["Zahnmedizin", "Dental", "Zahnärzte"], "Ausübung der Zahnheilkunde", 6, 0),
  I("Q87.10", "Pflegeheime", "Residential nursing care activities", ["Pflege", "Seniorenresidenz", "Pflegedienst"], "Betrieb von Pflegeeinrichtungen und ambulante Pflege", 8, 1),
  I("D35.11", "Elektrizitätserzeugung", "Production of electricity", ["Energie", "Solar", "Windpark", "Stadtwerke"], "Erzeugung von Strom aus erneuerbaren Energien", 12, 0),
  I("A01.11", "Anbau von Getreide (ohne Reis), Hülsenfrüchten und Ölsaaten", "Growing of cereals, leguminous crops and oil seeds", ["Agrar", "Landwirtschaft", "Hof"], "Landwirtschaftliche Erzeugung und Vermarktung", 6, 0),
  I("P85.59", "Sonstiger Unterricht a. n. g.", "Other education n.e.c.", ["Akademie", "Bildung", "Training", "Schule"], "Aus- und Weiterbildung, Seminare und Schulungen", 8, 0),
  I("R93.13", "Fitnesszentren", "Fitness facilities", ["Fitness", "Sport", "Gym"], "Betrieb von Fitness- und Gesundheitsstudios", 4, 0),
  I("M72.19", "Sonstige Forschung und Entwicklung im Bereich Natur-, Ingenieur-, Agrarwissenschaften und Medizin", "Other research and development on natural sciences and engineering", ["Research", "Labs", "Innovation", "Forschung"], "Forschung und Entwicklung in Natur- und Ingenieurwissenschaften", 6, 1),
  // Classes of the reference companies (shared/reference/companies.json). Weight 0: the
  // synthetic data never draws them, so adding one does not reshuffle the generated world.
  I("C29.10", "Herstellung von Kraftwagen und Kraftwagenmotoren", "Manufacture of motor vehicles", ["Automobile", "Fahrzeugbau"], "Entwicklung, Herstellung und Vertrieb von Kraftfahrzeugen", 0, 2),
  I("H49.20", "Güterbeförderung im Eisenbahnverkehr", "Freight rail transport", ["Bahn", "Schienenverkehr"], "Personen- und Güterbeförderung auf der Schiene", 0, 2),
  I("G46.42", "Großhandel mit Bekleidung und Schuhen", "Wholesale of clothing and footwear", ["Sportartikel", "Mode", "Schuhe"], "Entwicklung und Vertrieb von Sportschuhen, Bekleidung und Zubehör", 0, 2),
  I("K65.11", "Lebensversicherungen", "Life insurance", ["Versicherung", "Vorsorge"], "Betrieb von Versicherungsgeschäften aller Art", 0, 2),
  I("H51.10", "Personenbeförderung in der Luftfahrt", "Passenger air transport", ["Airline", "Luftfahrt"], "Beförderung von Personen und Fracht im Luftverkehr", 0, 2),
  I("C10.89", "Herstellung von sonstigen Nahrungsmitteln a. n. g.", "Manufacture of other food products n.e.c.", ["Food", "Nahrungsmittel"], "Herstellung und Vertrieb von Nahrungsmitteln", 0, 2),
  I("C20.41", "Herstellung von Seifen, Wasch-, Reinigungs- und Poliermitteln", "Manufacture of soap and detergents, cleaning and polishing preparations", ["Waschmittel", "Klebstoffe", "Kosmetik"], "Herstellung von Wasch- und Reinigungsmitteln, Klebstoffen und Kosmetik", 0, 2),
  I("C22.11", "Herstellung und Runderneuerung von Bereifungen", "Manufacture of rubber tyres and tubes; retreading and rebuilding of rubber tyres", ["Reifen", "Gummi"], "Herstellung von Reifen und Fahrzeugkomponenten", 0, 2),
  I("K64.19", "Kreditinstitute (ohne Spezialkreditinstitute)", "Other monetary intermediation", ["Bank", "Banking"], "Betrieb von Bankgeschäften aller Art", 0, 2),
  I("C28.99", "Herstellung von Maschinen für sonstige bestimmte Wirtschaftszweige a. n. g.", "Manufacture of other special-purpose machinery n.e.c.", ["Druckmaschinen", "Maschinenbau"], "Herstellung von Druckmaschinen und Sondermaschinen", 0, 2),
  I("C28.12", "Herstellung von hydraulischen und pneumatischen Komponenten und Systemen", "Manufacture of fluid power equipment", ["Pneumatik", "Automatisierung"], "Herstellung pneumatischer und elektrischer Automatisierungstechnik", 0, 2),
  I("C27.51", "Herstellung von elektrischen Haushaltsgeräten", "Manufacture of electric domestic appliances", ["Hausgeräte", "Haushaltsgeräte"], "Herstellung und Vertrieb von Haushaltsgeräten", 0, 2),
  I("G47.75", "Einzelhandel mit kosmetischen Erzeugnissen und Körperpflegemitteln", "Retail sale of cosmetic and toilet articles in specialised stores", ["Drogerie", "Drogeriemarkt"], "Einzelhandel mit Drogeriewaren, Kosmetik und Körperpflegemitteln", 0, 1),
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
  return m ? m[1] : "";
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
