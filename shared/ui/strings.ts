/**
 * The UI's catalogue: its texts in German and English. Placeholders: {name}, filled by `format`;
 * `lookup` is how a page reads any such catalogue (the add-ins' panels this one, the team console its own).
 */
import { catalogue, type Bilingual, type Language } from "../i18n/index.ts";
import { priced } from "../credits/index.ts";

export const STRINGS = catalogue({
  appTitle: { de: "Firmendaten", en: "Company data" },
  language: { de: "Sprache", en: "Language" },
  balance: { de: "Guthaben: {credits} Credits", en: "Balance: {credits} credits" },
  balanceUnknown: { de: "Guthaben: –", en: "Balance: –" },
  loading: { de: "Wird geladen …", en: "Loading …" },
  oneCredit: { de: "1 Credit", en: "1 credit" },
  nCredits: { de: "{n} Credits", en: "{n} credits" },
  costBefore: { de: "Kosten: {credits} pro Abfrage", en: "Cost: {credits} per request" },
  costSpent: { de: "Verbraucht: {credits}", en: "Spent: {credits}" },
  costUnknown: { de: "Kosten werden berechnet …", en: "Working out the cost …" },
  seconds: { de: "ca. {n} s", en: "about {n} s" },
  minutes: { de: "ca. {n} min", en: "about {n} min" },
  results: { de: "Ergebnisse", en: "Results" },
  resultsTitle: { de: "{n} von {total} Treffern", en: "{n} of {total} results" },
  resultsCaption: { de: "{n} {n|Firma|Firmen}", en: "{n} {n|company|companies}" },
  noResults: { de: "Keine Treffer.", en: "No results." },
  selectAll: { de: "Alle auswählen", en: "Select all" },
  selectRow: { de: "{name} auswählen", en: "Select {name}" },
  colName: { de: "Firma", en: "Company" },
  colCity: { de: "Ort", en: "City" },
  colDistance: { de: "Entfernung", en: "Distance" },
  colScore: { de: "Relevanz", en: "Relevance" },
  colStatus: { de: "Status", en: "Status" },
  // Capitalised as the service's own labels are, which the enrichment writes into the sheet ("Aktiv").
  status_ACTIVE: { de: "Aktiv", en: "Active" },
  status_IN_LIQUIDATION: { de: "In Liquidation", en: "In liquidation" },
  status_INSOLVENT: { de: "Insolvent", en: "Insolvent" },
  status_DELETED: { de: "Gelöscht", en: "Deleted" },
  status_INACTIVE: { de: "Inaktiv", en: "Inactive" },
  statusUnknown: { de: "Unbekannt", en: "Unknown" },
  insertSelected: { de: "{n} an der Cursorposition einfügen", en: "Insert {n} at the cursor" },
  findSimilarToSelected: { de: "Ähnliche zu den ausgewählten finden", en: "Find similar to the selected" },

  searchTitle: { de: "Firmensuche", en: "Company search" },
  searchQuery: { de: "Suchbegriff", en: "Search term" },
  searchQueryHint: { de: "z. B. Software Walldorf, Maschinenbau", en: "e.g. software Walldorf, engineering" },
  searchPlace: { de: "Ort oder PLZ (optional)", en: "City or postcode (optional)" },
  searchPlaceHint: { de: "z. B. München", en: "e.g. Munich" },
  searchRadius: { de: "Umkreis in km", en: "Radius in km" },
  searchRadiusHint: {
    de: "Ohne Angabe {km} km, wie bei der Formel {formula}.",
    en: "{km} km when empty, as the {formula} formula uses.",
  },
  searchSize: { de: "Anzahl Treffer", en: "Number of results" },
  searchSizeHint: { de: "Ohne Angabe {n}.", en: "{n} when empty." },
  searchRun: { de: "Suchen", en: "Search" },

  enrichIntro: {
    de: "Markieren Sie die Tabelle mit Kopfzeile (oder eine Zelle darin) und lesen Sie sie ein.",
    en: "Select the table with its header row (or one cell in it) and read it in.",
  },
  enrichStepTable: { de: "1. Tabelle", en: "1. Table" },
  enrichStepColumns: { de: "2. Spalten", en: "2. Columns" },
  enrichStepFields: { de: "3. Felder", en: "3. Fields" },
  enrichStepHow: { de: "4. Ablauf", en: "4. How" },
  enrichStepRun: { de: "5. Vorschau und Start", en: "5. Preview and start" },
  readSelection: { de: "Auswahl einlesen", en: "Read selection" },
  existingOutput: {
    de: "Ab Spalte {col} stehen die Ergebnisse eines früheren Laufs: Sie gehören nicht zur Eingabe, ein neuer Lauf schreibt in dieselben Spalten.",
    en: "Column {col} onwards holds the results of an earlier run: they are not input, and a new run writes into the same columns.",
  },
  selectionInfo: {
    de: "{sheet}: {rows} {rows|Zeile|Zeilen}, {cols} {cols|Spalte|Spalten}",
    en: "{sheet}: {rows} {rows|row|rows}, {cols} {cols|column|columns}",
  },
  columnNone: { de: "– keine –", en: "– none –" },
  columnN: { de: "Spalte {n}", en: "Column {n}" },
  role_name: { de: "Firmenname", en: "Company name" },
  role_city: { de: "Ort", en: "City" },
  role_zip: { de: "PLZ", en: "Postcode" },
  role_register: { de: "Handelsregister", en: "Register" },
  role_id: { de: "Firmen-ID", en: "Company ID" },
  role_website: { de: "Website / Domain", en: "Website / domain" },
  role_vatId: { de: "USt-IdNr.", en: "VAT id" },
  role_lei: { de: "LEI", en: "LEI" },
  enrichMode: { de: "Abgleich", en: "Matching" },
  modeBatch: priced({
    de: "Schnell: Sammelabgleich ({credits:batchResolve} je {n:batchGroup} Firmen)",
    en: "Fast: batch matching ({credits:batchResolve} per {n:batchGroup} companies)",
  }),
  // Only the matching is free: the chosen fields cost the same either way, so the label must not promise "free" beside a price.
  modeFree: {
    de: "Langsam: einzeln abgleichen (Abgleich kostenlos, Felder kosten wie bei „Schnell“)",
    en: "Slow: match one by one (matching free, fields cost as with “Fast”)",
  },
  rerun: { de: "Welche Zeilen", en: "Which rows" },
  rerunAll: { de: "Alle Zeilen", en: "All rows" },
  rerunNew: { de: "Nur neue oder fehlgeschlagene Zeilen", en: "Only new or failed rows" },
  rerunOlder: { de: "Zeilen älter als", en: "Rows older than" },
  rerunDays: { de: "Tage", en: "days" },
  days: { de: "Tage", en: "days" },
  preview: { de: "Vorschau", en: "Preview" },
  start: { de: "Starten", en: "Start" },
  startAtMost: { de: "Starten – höchstens {credits}", en: "Start – at most {credits}" },
  startPriceFirst: {
    de: "Erst der Preis: Dieser Lauf kostet höchstens {credits}. Nichts ist ausgegeben; „Starten“ noch einmal drücken, um ihn zu starten.",
    en: "The price first: this run costs at most {credits}. Nothing is spent yet; press Start again to run it.",
  },
  free: { de: "kostenlos", en: "free" },
  pause: { de: "Anhalten", en: "Pause" },
  resume: { de: "Fortsetzen", en: "Resume" },
  previewRows: {
    de: "{rows} von {all} {all|Zeile wird|Zeilen werden} bearbeitet ({distinct} {distinct|Firma|verschiedene Firmen}).",
    en: "{rows} of {all} {all|row|rows} will be processed ({distinct} {distinct|company|distinct companies}).",
  },
  previewBatch: { de: "Schnell: höchstens {credits}, {time}", en: "Fast: at most {credits}, {time}" },
  previewFree: {
    de: "Langsam (Abgleich kostenlos): höchstens {credits}, {time}",
    en: "Slow (matching free): at most {credits}, {time}",
  },
  previewCeiling: {
    de: "Obergrenze: Jeder Name wird als eigene Firma gezählt; Namen derselben Firma und nicht gefundene kosten weniger.",
    en: "A ceiling: every name is counted as a company of its own; names of the same company and names not found cost less.",
  },
  unfinishedTitle: { de: "Unterbrochener Lauf", en: "Unfinished run" },
  unfinishedContinue: {
    de: "Unterbrochenen Lauf fortsetzen ({done} von {total} Zeilen erledigt)",
    en: "Continue the unfinished run ({done} of {total} rows done)",
  },
  progress: { de: "{done} von {total} Zeilen ({pct} %)", en: "{done} of {total} rows ({pct} %)" },
  progressCounts: {
    de: "Gefunden: {matched} · Prüfen: {review} · Nicht gefunden: {notFound} · Fehler: {errors} · Übersprungen (kein Name): {skipped} · {credits}",
    en: "Matched: {matched} · Review: {review} · Not found: {notFound} · Errors: {errors} · Skipped (no name): {skipped} · {credits}",
  },
  progressOutOfCredits: { de: "Nicht angereichert (keine Credits): {n}", en: "Not enriched (out of credits): {n}" },
  resumeAfterTopUp: { de: "Nach dem Aufladen fortsetzen", en: "Continue after top-up" },
  reviewTitle: { de: "{n} {n|Zeile|Zeilen} prüfen", en: "Review {n} {n|row|rows}" },
  reviewIntro: {
    de: "Diese Namen passen zu mehreren Firmen. Wählen Sie die richtige; es wird nicht geraten.",
    en: "These names fit several companies. Pick the right one; nothing is guessed.",
  },
  reviewRow: { de: "Zeile {row}:", en: "Row {row}:" },
  reviewWhy: { de: "Unsicher, weil:", en: "Unsure because:" },
  applyPick: { de: "Übernehmen", en: "Apply" },
  applyPickFor: { de: "Übernehmen (höchstens {credits})", en: "Apply (at most {credits})" },

  similarIntro: { de: "Firmen finden, die den angegebenen ähneln.", en: "Find companies like the given ones." },
  similarIds: { de: "Firmen-IDs", en: "Company ids" },
  similarIdsHint: {
    de: "Eine oder mehrere IDs (DE + 10 Zeichen), je Zeile eine.",
    en: "One or more ids (DE + 10 characters), one per line.",
  },
  useSelection: { de: "IDs aus der Auswahl übernehmen", en: "Take ids from the selection" },
  similarKind: { de: "Art", en: "Kind" },
  similarKindSimilar: { de: "Ähnliche Firmen (alle IDs)", en: "Similar companies (all ids)" },
  similarKindPeers: { de: "Vergleichsunternehmen (erste ID)", en: "Peers (first id)" },
  similarRun: { de: "Finden", en: "Find" },

  apiKey: { de: "API-Schlüssel", en: "API key" },
  keySet: {
    de: "Ein Schlüssel ist gespeichert ({hint}). Leer lassen, um ihn zu behalten.",
    en: "A key is saved ({hint}). Leave empty to keep it.",
  },
  keyNotSet: { de: "Kein Schlüssel gespeichert.", en: "No key saved." },
  removeKey: { de: "Schlüssel entfernen", en: "Remove key" },
  testConnection: { de: "Verbindung testen", en: "Test connection" },
  baseUrl: { de: "Basis-URL", en: "Base URL" },
  baseUrlProduction: { de: "Produktivdienst.", en: "Production service." },
  baseUrlOther: {
    de: "Nicht der Produktivdienst (z. B. lokaler Emulator).",
    en: "Not the production service (e.g. the local emulator).",
  },
  useProduction: { de: "Produktivdienst verwenden", en: "Use the production service" },
  formulaBudget: { de: "Tagesbudget für Formeln (Credits)", en: "Daily formula budget (credits)" },
  formulaBudgetHint: {
    de: "So viele Credits dürfen Formeln je Tag und Datei verbrauchen; 0 sperrt kostenpflichtige Formeln.",
    en: "Credits formulas may spend per day and file; 0 blocks paid formulas.",
  },
  cacheHours: { de: "Zwischenspeicher (Stunden)", en: "Cache lifetime (hours)" },
  cacheHoursHint: {
    de: "Wie lange Antworten wiederverwendet werden, ohne erneut zu zahlen; 0 schaltet ab.",
    en: "How long answers are reused without paying again; 0 turns it off.",
  },
  matchFloor: { de: "Mindest-Trefferqualität (0–1)", en: "Minimum match confidence (0–1)" },
  matchFloorHint: {
    de: "Treffer, die der Dienst schlechter bewertet, werden „prüfen“ statt „gefunden“ (Standard 0,8); siehe Hilfe.",
    en: 'Matches the service rates lower are "review", not "matched" (default 0.8); see Help.',
  },
  save: { de: "Speichern", en: "Save" },
  accountTitle: { de: "Konto", en: "Account" },
  budgetToday: { de: "Formeln heute: {used} von {limit} Credits", en: "Formulas today: {used} of {limit} credits" },
  ledgerTitle: { de: "Verbrauch dieses Add-ons", en: "What this add-on spent" },
  ledgerDay: { de: "Tag", en: "Day" },
  ledgerOperation: { de: "Vorgang", en: "Operation" },
  ledgerCredits: { de: "Credits", en: "Credits" },
  ledgerRequests: { de: "Anfragen", en: "Requests" },
  ledgerEmpty: { de: "Noch nichts verbraucht.", en: "Nothing spent yet." },
  refresh: { de: "Aktualisieren", en: "Refresh" },

  helpSearchT: { de: "Suche", en: "Search" },
  helpSearch: priced({
    de: 'Freitextsuche, optional im Umkreis eines Orts und mit Filtern (Branche nach WZ 2008 mit Auswahlliste, Bundesland, Größenklasse, Rechtsform, gegründet nach/vor, nur aktive). Jede Suche kostet {credits:search}; die Kosten stehen vor dem Start da. Ausgewählte Treffer werden an der Cursorposition als Text eingefügt. Findet die Suche mehr als eine Seite, fügt „Alle einfügen“ bis zu 10.100 Treffer ein ({credits:search} je Seite zu 100, Preis vorab) und lässt auf Wunsch Firmen aus, deren ID schon in einem Blatt steht. Gespeicherte Suchen bleiben im Dokument; ein erneuter Lauf zeigt nur Firmen, die seit dem letzten Lauf gegründet wurden ({credits:search}). In Formeln: 5. Argument von COMPANY_SEARCH bzw. COMPANY.SEARCH, z. B. "Branche=J62; Bundesland=BY; aktiv".',
    en: 'Free-text search, optionally around a place and with filters (industry by WZ 2008 with a picker, federal state, size class, legal form, founded after/before, active only). Each search costs {credits:search}, shown before it runs. Chosen results are inserted at the cursor as text. When a search finds more than one page, "Insert all" writes up to 10,100 results ({credits:search} per page of 100, price shown first) and can leave out companies whose id is already in a sheet. Saved searches stay with the document; a re-run shows only companies founded since the last run ({credits:search}). In formulas: the 5th argument of COMPANY_SEARCH or COMPANY.SEARCH, e.g. "industry=J62; state=DE-BY; active".',
  }),
  helpEnrichT: { de: "Anreichern", en: "Enrich" },
  helpEnrich: {
    de: "Eine Liste von Firmennamen abgleichen und um Felder ergänzen. Die Vorschau zeigt Credits und Dauer. Der Lauf ist fortsetzbar; mehrdeutige Namen werden nie geraten, sondern zur Prüfung angezeigt. Statt eines Namens genügt eine Website, USt-IdNr., Registernummer (z. B. „HRB 6684 München“) oder LEI (20 Zeichen, z. B. 506700GE1G29325QX363): diese werden kostenlos nachgeschlagen; eine LEI mit falschen Prüfziffern wird als Fehler gemeldet und nicht gesendet.",
    en: 'Match a list of company names and add fields. The preview shows credits and time. A run can be resumed; ambiguous names are never guessed but listed for review. Instead of a name, a website, VAT id, register number (e.g. "HRB 6684 München") or LEI (20 characters, e.g. 506700GE1G29325QX363) will do: these are looked up for free; an LEI whose check digits do not fit is reported as an error and not sent.',
  },
  helpSimilarT: { de: "Ähnliche Firmen", en: "Find similar" },
  helpSimilar: priced({
    de: "Ähnliche Firmen ({credits:similar}) zu einer oder mehreren IDs, oder Vergleichsunternehmen einer Firma ({credits:peers}).",
    en: "Similar companies ({credits:similar}) for one or more ids, or the peers of one company ({credits:peers}).",
  }),
  helpMatchingT: { de: "Wann ein Name als gefunden gilt", en: "When a name counts as matched" },
  helpMatching: {
    de: "Rechtsform, Ort, PLZ und Registernummer gehören zur Identität einer Firma. Ein Treffer wird „prüfen“ statt „gefunden“, wenn er einem angegebenen Ort, einer PLZ oder Registernummer widerspricht, wenn die Rechtsform im Namen eine andere ist („Rossi Partners GmbH“ ist nicht die Rossi Partners GmbH & Co. KG, eine UG keine GmbH) oder wenn der Dienst ihn unter der Mindest-Trefferqualität bewertet (Einstellungen, Standard 0,8: darunter liegen Namen ohne Rechtsform, Tippfehler und bloße Wortüberschneidungen). Der Grund und die Trefferqualität stehen in der Prüfzeile. Ist der Name ein früherer Name der Firma („SAP AG“, heute SAP SE), gilt er als gefunden, mit dem Hinweis „früherer Name“.",
    en: 'Legal form, city, postcode and register number are part of a company\'s identity. A match becomes "review" instead of "matched" when it contradicts a given city, postcode or register number, when the name\'s legal form is another one ("Rossi Partners GmbH" is not Rossi Partners GmbH & Co. KG, a UG is not a GmbH) or when the service rates it below the minimum match confidence (Settings, default 0.8: names without their legal form, typos and mere word overlaps rate below). The review row gives the reason and the confidence. A former name of the company ("SAP AG", now SAP SE) counts as matched, with the note "former name".',
  },
  helpMonitorT: { de: "Portfolio-Check", en: "Portfolio check" },
  helpMonitor: {
    de: "Prüft eine Liste von Firmen auf Risikohinweise. Eine Screening-Hilfe, keine Bonitätsbewertung.",
    en: "Screens a list of companies for risk signals. A screening aid, not a credit rating.",
  },
  helpSettingsT: { de: "Einstellungen", en: "Settings" },
  helpSettings: {
    de: "Den API-Schlüssel gibt es beim Anbieter der Firmendaten-API, Implisense (Selbstregistrierung auf implisense.com, 100 Credits inklusive, ohne Kreditkarte); mit ihm werden Abfragen abgerechnet. Er wird nur für Sie gespeichert und nie angezeigt. Das Tagesbudget begrenzt, was Formeln verbrauchen.",
    en: "The API key comes from the provider of the company data API, Implisense (self-service sign-up at implisense.com, 100 credits included, no credit card); requests are billed to it. It is stored for you only and never shown. The daily budget caps what formulas spend.",
  },
  helpFormulasT: { de: "Formeln", en: "Formulas" },
  helpFormulas: {
    de: "Formeln wie {formula} nehmen ganze Bereiche; ein Bereich ist schneller als viele einzelne Zellen. Antworten werden zwischengespeichert und nicht erneut bezahlt.",
    en: "Formulas such as {formula} take whole ranges; one range is faster than many single cells. Answers are cached and not paid for again.",
  },
  helpFormulasPlayground: {
    de: "Der Playground hat keine Formeln. In Google Sheets heißen sie z. B. =COMPANY_RESOLVE(A2), in Excel =COMPANY.RESOLVE(A2); sie nehmen ganze Bereiche, und Antworten werden zwischengespeichert und nicht erneut bezahlt.",
    en: "The playground has no formulas. In Google Sheets they are named like =COMPANY_RESOLVE(A2), in Excel =COMPANY.RESOLVE(A2); they take whole ranges, and answers are cached and not paid for again.",
  },
  helpKeysT: { de: "Tastatur", en: "Keyboard" },
  helpKeys: {
    de: "Tab und Umschalt+Tab wechseln zwischen den Bedienelementen, Pfeiltasten zwischen den Reitern, Enter oder Leertaste lösen Schaltflächen aus.",
    en: "Tab and Shift+Tab move between controls, arrow keys between tabs, Enter or Space press buttons.",
  },
});

export type StringKey = keyof typeof STRINGS;

/**
 * Fills "{n}" with vars.n, and "{n|Firma|Firmen}" with the noun form the
 * count needs (singular for exactly 1), so no string reads "1 Firmen".
 */
export function format(template: string, vars?: Record<string, string | number>): string {
  if (!vars) return template;
  return template
    .replace(/\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g, (m, k: string, one: string, many: string) =>
      k in vars ? (Number(vars[k]) === 1 ? one : many) : m,
    )
    .replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

/** A catalogue's text in `lang`, its placeholders filled by `format`. */
export function lookup<K extends string>(
  texts: Readonly<Record<K, Bilingual>>,
  key: K,
  lang: Language,
  vars?: Record<string, string | number>,
): string {
  return format(texts[key][lang], vars);
}
