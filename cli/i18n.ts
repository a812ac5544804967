/** The command line's own texts, German and English. */
import type { Language } from "../shared/i18n/language.ts";
import type { InputRole } from "../shared/enrich/columns.ts";
import { NOUNS, countText, groupDigits } from "../shared/credits/wording.ts";

const n = groupDigits;
const credits = (k: number, lang: Language) => countText(k, NOUNS.credit, lang);
const requests = (k: number, lang: Language) => countText(k, NOUNS.request, lang);
const rows = (k: number, lang: Language) => countText(k, NOUNS.row, lang);

export const EXIT = {
  OK: 0,
  INTERNAL: 1,
  USAGE: 2,
  INPUT: 3,
  OUT_OF_CREDITS: 4,
  KEY: 5,
  SERVICE: 6,
  NOT_CONFIRMED: 7,
  INTERRUPTED: 130,
} as const;

const T = {
  help: {
    en: `company-data: German company data from the command line

Usage:
  company-data estimate enrich --in FILE.csv [--fields LIST] [--mode batch|free]
  company-data enrich --in FILE.csv --out FILE.csv [--fields LIST] [--mode batch|free]
                      [--rerun new-or-failed|all|older-than=DAYS] [--yes]
  company-data search QUERY [--industry WZ] [--state DE-BY] [--near PLACE [--radius KM]]
                      [--size-class SMALL,MEDIUM] [--legal-form GmbH] [--founded-after YEAR]
                      [--founded-before YEAR] [--active-only] [--limit N] [--out FILE.csv [--append]]
                      [--exclude FILE.csv] [--yes]
  company-data account
  company-data fields

Options:
  --lang de|en     language of messages and data labels (default: from LANG, else de)
  --fields LIST    comma-separated field ids or groups (resolve, profile, people,
                   announcements, financials, all); see "company-data fields"
  --mode           batch: paid batch resolve, fast (default); free: single resolves, slow
  --yes            spend without asking (for scripts)
  --parallel N     requests in flight at once (default 1000; also COMPANY_DATA_PARALLEL);
                   a hard kill costs at most what is in flight
  QUERY            search text; may be left out when a filter or --near is given
  --limit N        search: up to N results (1 to 10,100), pages of 100 at 1 credit each;
                   beyond the first page the price is shown and asked for first
  --exclude FILE   search: leave out companies in FILE (by company ID, else by name)
  --append         search: add only companies not yet in --out (merged by company ID)
  --help           this text

Input: a CSV file (comma or semicolon, UTF-8) with a header row; a name column
(Firma, Firmenname, Unternehmen, Company, Name) and optional city (Ort, Stadt,
City), postcode (PLZ, Zip, Postcode), register (Handelsregister, HRB, Register)
or company id (ID, Firmen-ID, Company ID) columns.
The output holds the input columns, then status, match confidence, the fields
and the as-of date. An interrupted run resumes where it stopped when started
again with the same arguments; rows already done are not paid again.

Environment:
  COMPANY_DATA_API_KEY   the API key (required)
  COMPANY_DATA_BASE_URL  default https://api.implisense.com (http:// only for
                         127.0.0.1, localhost or [::1])
  COMPANY_DATA_PARALLEL  requests in flight at once (see --parallel)

Exit codes: 0 done, 1 internal error, 2 usage error, 3 bad input file,
4 out of credits (rerun after a top-up to finish the rest), 5 API key missing
or rejected, 6 service not reachable or failing, 7 not confirmed (nothing spent),
130 interrupted (resumable).
`,
    de: `company-data: Firmendaten auf der Kommandozeile

Aufruf:
  company-data estimate enrich --in DATEI.csv [--fields LISTE] [--mode batch|free]
  company-data enrich --in DATEI.csv --out DATEI.csv [--fields LISTE] [--mode batch|free]
                      [--rerun new-or-failed|all|older-than=TAGE] [--yes]
  company-data search SUCHE [--industry WZ] [--state DE-BY] [--near ORT [--radius KM]]
                      [--size-class SMALL,MEDIUM] [--legal-form GmbH] [--founded-after JAHR]
                      [--founded-before JAHR] [--active-only] [--limit N] [--out DATEI.csv [--append]]
                      [--exclude DATEI.csv] [--yes]
  company-data account
  company-data fields

Optionen:
  --lang de|en     Sprache der Meldungen und Datenbezeichnungen (Standard: aus LANG, sonst de)
  --fields LISTE   Feld-IDs oder Gruppen mit Komma (resolve, profile, people,
                   announcements, financials, all); siehe "company-data fields"
  --mode           batch: kostenpflichtiger Stapelabgleich, schnell (Standard);
                   free: Einzelabgleich, langsam
  --yes            ohne Rückfrage Credits ausgeben (für Skripte)
  --parallel N     gleichzeitige Anfragen (Standard 1000; auch COMPANY_DATA_PARALLEL);
                   ein harter Abbruch kostet höchstens, was gerade unterwegs ist
  SUCHE            Suchtext; entfällt, wenn ein Filter oder --near angegeben ist
  --limit N        Suche: bis zu N Treffer (1 bis 10.100), Seiten zu 100 für je 1 Credit;
                   ab der zweiten Seite wird der Preis zuerst gezeigt und erfragt
  --exclude DATEI  Suche: Firmen aus DATEI auslassen (nach Firmen-ID, sonst nach Name)
  --append         Suche: nur Firmen anhängen, die noch nicht in --out stehen (Schlüssel Firmen-ID)
  --help           dieser Text

Eingabe: eine CSV-Datei (Komma oder Semikolon, UTF-8) mit Kopfzeile; eine
Namensspalte (Firma, Firmenname, Unternehmen, Company, Name) und optional Ort
(Ort, Stadt, City), PLZ (PLZ, Postleitzahl, Zip), Register (Handelsregister,
HRB, Register) oder Firmen-ID (ID, Firmen-ID, Company ID).
Die Ausgabe enthält die Eingabespalten, dann Status, Trefferqualität, die
Felder und das Stand-Datum. Ein unterbrochener Lauf setzt beim erneuten Start
mit denselben Argumenten fort; erledigte Zeilen werden nicht erneut bezahlt.

Umgebung:
  COMPANY_DATA_API_KEY   der API-Schlüssel (erforderlich)
  COMPANY_DATA_BASE_URL  Standard https://api.implisense.com (http:// nur für
                         127.0.0.1, localhost oder [::1])
  COMPANY_DATA_PARALLEL  gleichzeitige Anfragen (siehe --parallel)

Exit-Codes: 0 fertig, 1 interner Fehler, 2 Aufruffehler, 3 fehlerhafte
Eingabedatei, 4 keine Credits mehr (nach dem Aufladen erneut starten, um den
Rest zu erledigen), 5 API-Schlüssel fehlt oder abgelehnt, 6 Dienst nicht
erreichbar oder fehlerhaft, 7 nicht bestätigt (nichts ausgegeben),
130 abgebrochen (fortsetzbar).
`,
  },
  unknownCommand: { en: (c: string) => `Unknown command "${c}". See company-data --help.`, de: (c: string) => `Unbekannter Befehl "${c}". Siehe company-data --help.` },
  unknownOption: { en: (o: string) => `Unknown option ${o}. See company-data --help.`, de: (o: string) => `Unbekannte Option ${o}. Siehe company-data --help.` },
  missingOption: { en: (o: string) => `Missing ${o}. See company-data --help.`, de: (o: string) => `${o} fehlt. Siehe company-data --help.` },
  badValue: { en: (o: string, v: string) => `Invalid value for ${o}: ${v}`, de: (o: string, v: string) => `Ungültiger Wert für ${o}: ${v}` },
  noFile: { en: (f: string) => `Cannot read ${f}.`, de: (f: string) => `${f} kann nicht gelesen werden.` },
  sameFile: { en: "--in and --out must be different files.", de: "--in und --out müssen verschiedene Dateien sein." },
  badCsv: { en: (f: string, line: number, m: string) => `${f} is not valid CSV (line ${line}: ${m}).`, de: (f: string, line: number, m: string) => `${f} ist kein gültiges CSV (Zeile ${line}: ${m}).` },
  emptyCsv: { en: (f: string) => `${f} has no header row.`, de: (f: string) => `${f} hat keine Kopfzeile.` },
  noNameColumn: {
    en: (h: string) => `No company name, id, website, VAT id or register column found in the header (${h}). Name it e.g. "Firma", "Company", "Website" or "USt-IdNr.".`,
    de: (h: string) => `Keine Spalte mit Firmenname, Firmen-ID, Website, USt-IdNr. oder Registernummer in der Kopfzeile gefunden (${h}). Bitte z. B. "Firma", "Company", "Website" oder "USt-IdNr." nennen.`,
  },
  columns: { en: (m: string) => `Columns: ${m}`, de: (m: string) => `Spalten: ${m}` },
  estimate: {
    en: (r: number, c: number, req: number, paid: number, free: number, secs: number) =>
      `${rows(r, "en")} to enrich: at most ${credits(c, "en")}, ${requests(req, "en")} (${n(paid, "en")} paid, ${n(free, "en")} free), about ${fmtDuration(secs, "en")}.`,
    de: (r: number, c: number, req: number, paid: number, free: number, secs: number) =>
      `${rows(r, "de")} anzureichern: höchstens ${credits(c, "de")}, ${requests(req, "de")} (${n(paid, "de")} kostenpflichtig, ${n(free, "de")} kostenlos), etwa ${fmtDuration(secs, "de")}.`,
  },
  /** One line of an estimate's breakdown: "7 Profile mit Finanzdaten: 35 Credits, 7 Anfragen". */
  estimateLine: {
    en: (label: string, c: number, req: number) => `  ${label}: ${credits(c, "en")}, ${requests(req, "en")}`,
    de: (label: string, c: number, req: number) => `  ${label}: ${credits(c, "de")}, ${requests(req, "de")}`,
  },
  resuming: { en: (n: number) => `Resuming after row ${n}.`, de: (n: number) => `Fortsetzung nach Zeile ${n}.` },
  confirm: { en: "Spend these credits? [y/N] ", de: "Diese Credits ausgeben? [j/N] " },
  notConfirmed: {
    en: "Not confirmed: nothing was spent. Pass --yes to spend without asking.",
    de: "Nicht bestätigt: es wurde nichts ausgegeben. Mit --yes ohne Rückfrage ausführen.",
  },
  done: {
    en: (s: Summary) =>
      `Done: ${s.matched} matched, ${s.review} to review, ${s.notFound} not found, ${s.error} errors, ${s.skipped} skipped (no name)${s.other ? `, ${s.other} without status` : ""}; ${credits(s.credits, "en")} spent. Output: ${s.out}`,
    de: (s: Summary) =>
      `Fertig: ${s.matched} gefunden, ${s.review} zu prüfen, ${s.notFound} nicht gefunden, ${s.error} Fehler, ${s.skipped} übersprungen (ohne Namen)${s.other ? `, ${s.other} ohne Status` : ""}; ${credits(s.credits, "de")} ausgegeben. Ausgabe: ${s.out}`,
  },
  outOfCredits: {
    en: (s: Summary) => `Out of credits: ${rows(s.outOfCredits, "en")} not enriched (marked in ${s.out}). Top up, then run the same command again to finish exactly these rows.`,
    de: (s: Summary) => `Keine Credits mehr: ${rows(s.outOfCredits, "de")} nicht angereichert (markiert in ${s.out}). Bitte aufladen und denselben Befehl erneut starten, um genau diese Zeilen zu erledigen.`,
  },
  interrupted: { en: "Interrupted. Run the same command again to resume.", de: "Abgebrochen. Zum Fortsetzen denselben Befehl erneut starten." },
  credits: { en: (k: number) => `Credits: ${n(k, "en")}`, de: (k: number) => `Guthaben: ${credits(k, "de")}` },
  usage: {
    en: { today: "Today", month: "Month", total: "Total" },
    de: { today: "Heute", month: "Monat", total: "Gesamt" },
  },
  searchTotal: { en: (k: number) => `${countText(k, NOUNS.company, "en")} found`, de: (k: number) => `${countText(k, NOUNS.company, "de")} gefunden` },
  /** Header of the `search` table (tab-separated on stdout). */
  searchHeader: {
    en: ["Company ID", "Name", "City", "Postcode", "Legal form", "Status"],
    de: ["Firmen-ID", "Firma", "Ort", "PLZ", "Rechtsform", "Status"],
  },
  /** The placeholder of the search term, as the help text names it. */
  queryArg: { en: "QUERY", de: "SUCHE" },
  fieldsTitle: { en: "Fields (id, group, header):", de: "Felder (ID, Gruppe, Überschrift):" },
} as const;

/** Input column roles as the "Columns:" line names them. */
export const ROLE_LABEL: Record<InputRole, Record<Language, string>> = {
  id: { de: "Firmen-ID", en: "company id" },
  name: { de: "Firmenname", en: "company name" },
  city: { de: "Ort", en: "city" },
  zip: { de: "PLZ", en: "postcode" },
  register: { de: "Register", en: "register" },
  website: { de: "Website", en: "website" },
  vatId: { de: "USt-IdNr.", en: "VAT id" },
};

export interface Summary {
  matched: number;
  review: number;
  notFound: number;
  error: number;
  outOfCredits: number;
  /** Rows without a name or id (status "skipped: no name"). */
  skipped: number;
  /** Rows without a status: a bug if ever above 0, shown rather than hidden. */
  other: number;
  /** Credits the service charged for this output, over the run and the runs it resumed. */
  credits: number;
  out: string;
}

export function fmtDuration(secs: number, lang: Language): string {
  if (secs < 90) return `${Math.max(1, Math.round(secs))} s`;
  if (secs < 5400) return `${Math.round(secs / 60)} min`;
  return lang === "de" ? `${(secs / 3600).toFixed(1).replace(".", ",")} h` : `${(secs / 3600).toFixed(1)} h`;
}

export const msg = T;
