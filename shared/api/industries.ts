/**
 * WZ 2008 classes (the German edition of NACE Rev. 2) with their German and
 * English titles: the classes the emulator's companies belong to, and the
 * list the Search panel's industry picker offers. One table for both (the
 * emulator adds its name words and purposes in emulator/data/industries.ts).
 * Any other WZ code or prefix can still be typed; the picker only helps.
 * Only the UI and the emulator import it, so it stays out of the Apps Script
 * server bundle (Code.js).
 */
export interface WzClass {
  code: string;
  de: string;
  en: string;
}

const W = (code: string, de: string, en: string): WzClass => ({ code, de, en });

export const WZ_CLASSES: readonly WzClass[] = [
  W("J62.01", "Programmierungstätigkeiten", "Computer programming activities"),
  W(
    "J62.02",
    "Erbringung von Beratungsleistungen auf dem Gebiet der Informationstechnologie",
    "Computer consultancy activities",
  ),
  W(
    "J63.11",
    "Datenverarbeitung, Hosting und damit verbundene Tätigkeiten",
    "Data processing, hosting and related activities",
  ),
  W("M70.22", "Unternehmensberatung", "Business and other management consultancy activities"),
  W(
    "M69.20",
    "Wirtschaftsprüfung und Steuerberatung; Buchführung",
    "Accounting, bookkeeping and auditing; tax consultancy",
  ),
  W(
    "M71.12",
    "Ingenieurbüros für technische Fachplanung und Ingenieurdesign",
    "Engineering activities and related technical consultancy",
  ),
  W("M73.11", "Werbeagenturen", "Advertising agencies"),
  W("F41.20", "Bau von Gebäuden", "Construction of buildings"),
  W("F43.21", "Elektroinstallation", "Electrical installation"),
  W(
    "F43.22",
    "Gas-, Wasser-, Heizungs- sowie Lüftungs- und Klimainstallation",
    "Plumbing, heat and air-conditioning installation",
  ),
  W("C25.62", "Mechanik a. n. g.", "Machining"),
  W("C28.41", "Herstellung von Werkzeugmaschinen für die Metallbearbeitung", "Manufacture of metal forming machinery"),
  W(
    "C28.29",
    "Herstellung von sonstigen nicht wirtschaftszweigspezifischen Maschinen a. n. g.",
    "Manufacture of other general-purpose machinery",
  ),
  W(
    "C27.90",
    "Herstellung von sonstigen elektrischen Ausrüstungen und Geräten",
    "Manufacture of other electrical equipment",
  ),
  W(
    "C29.32",
    "Herstellung von sonstigen Teilen und sonstigem Zubehör für Kraftwagen",
    "Manufacture of other parts and accessories for motor vehicles",
  ),
  W("C10.71", "Herstellung von Backwaren (ohne Dauerbackwaren)", "Manufacture of bread; fresh pastry goods and cakes"),
  W(
    "C20.14",
    "Herstellung von sonstigen organischen Grundstoffen und Chemikalien",
    "Manufacture of other organic basic chemicals",
  ),
  W(
    "C21.20",
    "Herstellung von pharmazeutischen Spezialitäten und sonstigen pharmazeutischen Erzeugnissen",
    "Manufacture of pharmaceutical preparations",
  ),
  W("G46.90", "Großhandel ohne ausgeprägten Schwerpunkt", "Non-specialised wholesale trade"),
  W("G47.91", "Versand- und Internet-Einzelhandel", "Retail sale via mail order houses or via Internet"),
  W(
    "G47.11",
    "Einzelhandel mit Waren verschiedener Art, Hauptrichtung Nahrungs- und Genussmittel",
    "Retail sale in non-specialised stores with food predominating",
  ),
  W(
    "G45.11",
    "Handel mit Kraftwagen mit einem Gesamtgewicht von 3,5 t oder weniger",
    "Sale of cars and light motor vehicles",
  ),
  W("H49.41", "Güterbeförderung im Straßenverkehr", "Freight transport by road"),
  W("H52.29", "Erbringung von sonstigen Dienstleistungen für den Verkehr", "Other transportation support activities"),
  W(
    "I56.10",
    "Restaurants, Gaststätten, Imbissstuben, Cafés, Eissalons u. Ä.",
    "Restaurants and mobile food service activities",
  ),
  W("I55.10", "Hotels, Gasthöfe und Pensionen", "Hotels and similar accommodation"),
  W("K64.20", "Beteiligungsgesellschaften", "Activities of holding companies"),
  W(
    "K66.19",
    "Sonstige mit Finanzdienstleistungen verbundene Tätigkeiten",
    "Other activities auxiliary to financial services",
  ),
  W(
    "L68.10",
    "Kauf und Verkauf von eigenen Grundstücken, Gebäuden und Wohnungen",
    "Buying and selling of own real estate",
  ),
  W(
    "L68.20",
    "Vermietung, Verpachtung von eigenen oder geleasten Grundstücken, Gebäuden und Wohnungen",
    "Renting and operating of own or leased real estate",
  ),
  W("N81.21", "Allgemeine Gebäudereinigung", "General cleaning of buildings"),
  W("N78.20", "Befristete Überlassung von Arbeitskräften", "Temporary employment agency activities"),
  W("Q86.23", "Zahnarztpraxen", "Dental practice activities"),
  W("Q87.10", "Pflegeheime", "Residential nursing care activities"),
  W("D35.11", "Elektrizitätserzeugung", "Production of electricity"),
  W(
    "A01.11",
    "Anbau von Getreide (ohne Reis), Hülsenfrüchten und Ölsaaten",
    "Growing of cereals, leguminous crops and oil seeds",
  ),
  W("P85.59", "Sonstiger Unterricht a. n. g.", "Other education n.e.c."),
  W("R93.13", "Fitnesszentren", "Fitness facilities"),
  W(
    "M72.19",
    "Sonstige Forschung und Entwicklung im Bereich Natur-, Ingenieur-, Agrarwissenschaften und Medizin",
    "Other research and development on natural sciences and engineering",
  ),
  W("C29.10", "Herstellung von Kraftwagen und Kraftwagenmotoren", "Manufacture of motor vehicles"),
  W("H49.20", "Güterbeförderung im Eisenbahnverkehr", "Freight rail transport"),
  W("G46.42", "Großhandel mit Bekleidung und Schuhen", "Wholesale of clothing and footwear"),
  W("K65.11", "Lebensversicherungen", "Life insurance"),
  W("H51.10", "Personenbeförderung in der Luftfahrt", "Passenger air transport"),
  W("C10.89", "Herstellung von sonstigen Nahrungsmitteln a. n. g.", "Manufacture of other food products n.e.c."),
  W(
    "C20.41",
    "Herstellung von Seifen, Wasch-, Reinigungs- und Poliermitteln",
    "Manufacture of soap and detergents, cleaning and polishing preparations",
  ),
  W(
    "C22.11",
    "Herstellung und Runderneuerung von Bereifungen",
    "Manufacture of rubber tyres and tubes; retreading and rebuilding of rubber tyres",
  ),
  W("K64.19", "Kreditinstitute (ohne Spezialkreditinstitute)", "Other monetary intermediation"),
  W(
    "C28.99",
    "Herstellung von Maschinen für sonstige bestimmte Wirtschaftszweige a. n. g.",
    "Manufacture of other special-purpose machinery n.e.c.",
  ),
  W(
    "C28.12",
    "Herstellung von hydraulischen und pneumatischen Komponenten und Systemen",
    "Manufacture of fluid power equipment",
  ),
  W("C27.51", "Herstellung von elektrischen Haushaltsgeräten", "Manufacture of electric domestic appliances"),
  W(
    "G47.75",
    "Einzelhandel mit kosmetischen Erzeugnissen und Körperpflegemitteln",
    "Retail sale of cosmetic and toilet articles in specialised stores",
  ),
];

const BY_CODE = new Map(WZ_CLASSES.map((w) => [w.code, w]));
export const wzClass = (code: string): WzClass | undefined => BY_CODE.get(code);

/** The picker's entries, by code: "J62.01 Programmierungstätigkeiten". */
export const wzOptions = (lang: "de" | "en"): string[] =>
  [...WZ_CLASSES].sort((a, b) => (a.code < b.code ? -1 : 1)).map((w) => `${w.code} ${w[lang]}`);
