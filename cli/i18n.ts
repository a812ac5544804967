/** The command line's own texts, German and English. */
import { catalogue, type Language, type Texts } from "../shared/i18n/index.ts";
import type { InputRole, OutcomeCounts } from "../shared/enrich/index.ts";
import { NOUNS, countText, groupDigits } from "../shared/credits/index.ts";
import { fillPrices } from "../shared/credits/index.ts";

const n = groupDigits;
const credits = (k: number, lang: Language) => countText(k, NOUNS.credit, lang);
const requests = (k: number, lang: Language) => countText(k, NOUNS.request, lang);
const rows = (k: number, lang: Language) => countText(k, NOUNS.row, lang);
/** ", of which up to 12 credits for answers that never arrived": the part of a charge a crash or timeout may have cost. */
const lostText = (k: number, lang: Language) =>
  k <= 0
    ? ""
    : lang === "de"
      ? `, davon bis zu ${credits(k, "de")} für Antworten, die nie ankamen (Abbruch, Zeitüberschreitung)`
      : `, of which up to ${credits(k, "en")} for answers that never arrived (interruption, timeout)`;

/** Why a file cannot be read, by errno code (cli/readable.ts). */
const READ_PROBLEM: Record<string, { de: string; en: string }> = {
  ENOENT: { de: "nicht gefunden", en: "not found" },
  ENOTDIR: {
    de: "nicht gefunden (ein Teil des Pfads ist kein Ordner)",
    en: "not found (a part of the path is not a folder)",
  },
  EACCES: { de: "keine Leseberechtigung", en: "permission denied" },
  EPERM: { de: "keine Leseberechtigung", en: "permission denied" },
  EISDIR: { de: "das ist ein Ordner, keine Datei", en: "it is a folder, not a file" },
};

/** " (up to 12 of them in requests still under way)": charged the moment the service takes them, answers not back yet. */
const flightText = (k: number, lang: Language) =>
  k <= 0
    ? ""
    : lang === "de"
      ? ` (bis zu ${n(k, "de")} davon für Anfragen, die noch unterwegs sind)`
      : ` (up to ${n(k, "en")} of them in requests still under way)`;

export const EXIT = {
  OK: 0,
  INTERNAL: 1,
  USAGE: 2,
  INPUT: 3,
  OUT_OF_CREDITS: 4,
  KEY: 5,
  SERVICE: 6,
  NOT_CONFIRMED: 7,
  /** Another run is writing the same output (OUT.lock). */
  LOCKED: 8,
  /** The disk (or a quota) is full: ENOSPC/EDQUOT writing one of the run's files; rerun after freeing space. */
  DISK_FULL: 9,
  /** doctor: the service differs from the assumptions; safe to spend, some values stay empty. */
  DRIFT: 10,
  /** doctor: the service differs so that paid answers would be unreadable or wrong; do not spend. */
  UNSAFE: 11,
  INTERRUPTED: 130,
} as const;

const T = catalogue({
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
  company-data doctor [--json]     free self-test of the service (shared/doctor/README.md)
  company-data fields
  company-data mcp [--http PORT [--host H]] [--budget N|none]   MCP server (mcp/README.md)
  company-data reconcile --http PORT [--host H] [--budget N|none]   OpenRefine reconciliation service (reconcile/README.md)
  company-data emulator [--port N]   the API emulator, to try everything without an account (emulator/README.md)
  company-data --version             version and database schema
  company-data estimate monitor --in PORTFOLIO.csv --out RESULT.csv --changes CHANGES.csv
  company-data monitor --in PORTFOLIO.csv --out RESULT.csv --changes CHANGES.csv
                       [--notify URL] [--yes]
  company-data monitor --server --in PORTFOLIO.csv [--name NAME] [--schedule hourly|daily|weekly]
                       [--hour H] [--weekday 0-6] [--budget N] [--notify URL] [--email A,B]
                       the check runs on the team server at the hour (UTC); prints what its
                       runs found since the last call (cursor in PORTFOLIO.csv.server.json)
  company-data estimate refresh --in LIST.csv --out LIST.csv --older-than DAYS --month-ceiling N
  company-data refresh --in LIST.csv --out LIST.csv --older-than DAYS --month-ceiling N
                       [--changes REFRESH-LOG.csv] [--yes]
  company-data runs --out LIST.csv [--json]   the runs that wrote LIST.csv (audit in LIST.csv.runs.jsonl)
  company-data revert --out LIST.csv --run ID   take run ID back: cells changed since are kept and listed;
                       the revert is a run too (revert it to restore); credits are not refunded

Options:
  --lang de|en     language of messages and data labels (default: German when LC_ALL, LC_MESSAGES
                   or LANG is de_*, else English)
  --fields LIST    comma-separated field ids or groups (resolve, profile, people,
                   announcements, financials, all); see "company-data fields"
  --mode           batch: paid batch resolve, fast (default); free: single resolves, slow
  --yes            spend without asking (for scripts)
  --parallel N     ceiling of requests and of paid credits in flight (default 32;
                   also COMPANY_DATA_PARALLEL); a hard kill costs at most that many credits
  --encoding ENC   the input's encoding: utf-8, utf-16le, utf-16be, windows-1252
                   (default: detected; the output is always UTF-8)
  --changes FILE   monitor: the change log (CSV), new register changes appended, never twice;
                   refresh: the refresh log (CSV), one line per changed value (old, new)
  --older-than D   refresh: rows whose as-of date is older than D days are fetched again
  --month-ceiling N  refresh: credits per calendar month at most, counted in
                   LIST.csv.refresh.jsonl beside the output; rows beyond it wait
  --notify URL     monitor: post the alert digest (risk moves, new changes) as JSON to a
                   webhook (Slack, Teams or any https:// URL); a refused one is resent next run
  QUERY            search text; may be left out when a filter or --near is given
  --limit N        search: up to N results (1 to 10,100), pages of 100 at ${fillPrices("{credits:search}", "en")} each;
                   beyond the first page the price is shown and asked for first
  --min-confidence X  a match the service rates below X (0 to 1, default 0.8; also
                   COMPANY_DATA_MIN_CONFIDENCE) is a review, not a match. A match is a
                   review too when the name's legal form differs from the company's
                   (GmbH is not GmbH & Co. KG) unless it is a former name ("SAP AG")
  --exclude FILE   search: leave out companies in FILE (by company ID, else by name)
  --append         search: add only companies not yet in --out (merged by company ID)
  --json           doctor: the findings as JSON on stdout
  --help           this text

monitor: risk group per company (a screening from register data, not a credit
rating); watermarks are kept in RESULT.csv.monitor.jsonl, so the next run pays
only for companies that changed. The price is shown first.

Input: a CSV file (comma or semicolon; UTF-8, UTF-16 with byte-order mark or
Windows-1252 as German Excel saves "CSV") with a header row; a name column
(Firma, Firmenname, Unternehmen, Company, Name) and optional city (Ort, Stadt,
City), postcode (PLZ, Zip, Postcode), register (Handelsregister, HRB, Register)
or company id (ID, Firmen-ID, Company ID) columns.
The output holds the input columns, then status, match confidence, the fields
and the as-of date. An interrupted run resumes where it stopped when started
again with the same arguments; rows already done are not paid again. A rerun
pairs rows with the earlier output by their input (name, city, ...), not by
position.

Environment:
  COMPANY_DATA_API_KEY   the API key (required without a team server)
  COMPANY_DATA_BASE_URL  default https://api.implisense.com (http:// only for
                         127.0.0.1, localhost or [::1])
  COMPANY_DATA_SERVER    a team server's address (company-data server); when
                         set, requests go there instead, with:
  COMPANY_DATA_TOKEN     your personal token for that server (a secret)
  COMPANY_DATA_PARALLEL  requests in flight at once (see --parallel)
  COMPANY_DATA_MIN_CONFIDENCE  the match floor (see --min-confidence)
  COMPANY_DATA_PROGRESS_SECONDS  seconds between progress lines when stderr is
                         not a terminal (default 5)

Exit codes: 0 done, 1 internal error, 2 usage error, 3 bad input file,
4 out of credits (rerun after a top-up to finish the rest), 5 API key missing
or rejected, 6 service not reachable or failing, 7 not confirmed (nothing spent),
8 another run is writing the same output, 9 disk full (rerun after freeing space),
130 interrupted (resumable); doctor: 0 as expected, 10 differences but safe to
spend, 11 not safe to spend.
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
  company-data doctor [--json]     kostenloser Selbsttest des Dienstes (shared/doctor/README.md)
  company-data fields
  company-data mcp [--http PORT [--host H]] [--budget N|none]   MCP-Server (mcp/README.md)
  company-data reconcile --http PORT [--host H] [--budget N|none]   Abgleichdienst für OpenRefine (reconcile/README.md)
  company-data emulator [--port N]   der API-Emulator, zum Ausprobieren ohne Konto (emulator/README.md)
  company-data --version             Version und Datenbankschema
  company-data estimate monitor --in PORTFOLIO.csv --out ERGEBNIS.csv --changes AENDERUNGEN.csv
  company-data monitor --in PORTFOLIO.csv --out ERGEBNIS.csv --changes AENDERUNGEN.csv
                       [--notify URL] [--yes]
  company-data monitor --server --in PORTFOLIO.csv [--name NAME] [--schedule hourly|daily|weekly]
                       [--hour H] [--weekday 0-6] [--budget N] [--notify URL] [--email A,B]
                       die Prüfung läuft auf dem Team-Server zur Stunde (UTC); zeigt, was seine
                       Läufe seit dem letzten Aufruf fanden (Stand in PORTFOLIO.csv.server.json)
  company-data estimate refresh --in LISTE.csv --out LISTE.csv --older-than TAGE --month-ceiling N
  company-data refresh --in LISTE.csv --out LISTE.csv --older-than TAGE --month-ceiling N
                       [--changes AKTUALISIERUNGEN.csv] [--yes]
  company-data runs --out LISTE.csv [--json]   die Läufe, die LISTE.csv schrieben (Protokoll in LISTE.csv.runs.jsonl)
  company-data revert --out LISTE.csv --run ID   Lauf ID rückgängig machen: seither geänderte Zellen bleiben und
                       werden genannt; das Rückgängigmachen ist selbst ein Lauf; Credits werden nicht erstattet

Optionen:
  --lang de|en     Sprache der Meldungen und Datenbezeichnungen (Standard: Deutsch, wenn LC_ALL, LC_MESSAGES
                   oder LANG de_* ist, sonst Englisch)
  --fields LISTE   Feld-IDs oder Gruppen mit Komma (resolve, profile, people,
                   announcements, financials, all); siehe "company-data fields"
  --mode           batch: kostenpflichtiger Stapelabgleich, schnell (Standard);
                   free: Einzelabgleich, langsam
  --yes            ohne Rückfrage Credits ausgeben (für Skripte)
  --parallel N     Obergrenze gleichzeitiger Anfragen und bezahlter Credits unterwegs (Standard 32;
                   auch COMPANY_DATA_PARALLEL); ein harter Abbruch kostet höchstens so viele Credits
  --encoding ZS    Zeichensatz der Eingabe: utf-8, utf-16le, utf-16be, windows-1252
                   (Standard: erkannt; die Ausgabe ist immer UTF-8)
  --changes DATEI  monitor: das Änderungsprotokoll (CSV), neue Registeränderungen angehängt, nie doppelt;
                   refresh: das Aktualisierungsprotokoll (CSV), je geändertem Wert eine Zeile (alt, neu)
  --older-than T   refresh: Zeilen, deren Stand älter als T Tage ist, werden neu abgefragt
  --month-ceiling N  refresh: höchstens so viele Credits je Kalendermonat, gezählt in
                   LISTE.csv.refresh.jsonl neben der Ausgabe; Zeilen darüber warten
  --notify URL     monitor: die Benachrichtigung (Risiko-Wechsel, neue Änderungen) als JSON an
                   einen Webhook senden (Slack, Teams oder jede https://-Adresse); eine
                   abgelehnte wird beim nächsten Lauf erneut gesendet
  SUCHE            Suchtext; entfällt, wenn ein Filter oder --near angegeben ist
  --limit N        Suche: bis zu N Treffer (1 bis 10.100), Seiten zu 100 für je ${fillPrices("{credits:search}", "de")};
                   ab der zweiten Seite wird der Preis zuerst gezeigt und erfragt
  --min-confidence X  ein Treffer, den der Dienst unter X bewertet (0 bis 1, Standard 0,8;
                   auch COMPANY_DATA_MIN_CONFIDENCE), wird „prüfen“ statt „gefunden“. Ebenso,
                   wenn die Rechtsform im Namen eine andere ist als die der Firma (GmbH ist
                   nicht GmbH & Co. KG), außer es ist ein früherer Name („SAP AG“)
  --exclude DATEI  Suche: Firmen aus DATEI auslassen (nach Firmen-ID, sonst nach Name)
  --append         Suche: nur Firmen anhängen, die noch nicht in --out stehen (Schlüssel Firmen-ID)
  --json           doctor: die Befunde als JSON auf stdout
  --help           dieser Text

monitor: Risikogruppe je Firma (ein Screening aus Registerdaten, keine
Bonitätsbewertung); die Wasserstände liegen in ERGEBNIS.csv.monitor.jsonl,
der nächste Lauf zahlt nur für Firmen mit Änderungen. Der Preis kommt zuerst.

Eingabe: eine CSV-Datei (Komma oder Semikolon; UTF-8, UTF-16 mit
Byte-Order-Mark oder Windows-1252, wie deutsches Excel "CSV" speichert) mit Kopfzeile; eine
Namensspalte (Firma, Firmenname, Unternehmen, Company, Name) und optional Ort
(Ort, Stadt, City), PLZ (PLZ, Postleitzahl, Zip), Register (Handelsregister,
HRB, Register) oder Firmen-ID (ID, Firmen-ID, Company ID).
Die Ausgabe enthält die Eingabespalten, dann Status, Trefferqualität, die
Felder und das Stand-Datum. Ein unterbrochener Lauf setzt beim erneuten Start
mit denselben Argumenten fort; erledigte Zeilen werden nicht erneut bezahlt.
Ein erneuter Lauf ordnet die Zeilen der früheren Ausgabe über ihre Eingabe
(Name, Ort, ...) zu, nicht über ihre Position.

Umgebung:
  COMPANY_DATA_API_KEY   der API-Schlüssel (erforderlich ohne Team-Server)
  COMPANY_DATA_BASE_URL  Standard https://api.implisense.com (http:// nur für
                         127.0.0.1, localhost oder [::1])
  COMPANY_DATA_SERVER    Adresse eines Team-Servers (company-data server);
                         wenn gesetzt, gehen die Anfragen dorthin, mit:
  COMPANY_DATA_TOKEN     Ihr persönliches Token für diesen Server (geheim)
  COMPANY_DATA_PARALLEL  gleichzeitige Anfragen (siehe --parallel)
  COMPANY_DATA_MIN_CONFIDENCE  die Mindest-Trefferqualität (siehe --min-confidence)
  COMPANY_DATA_PROGRESS_SECONDS  Sekunden zwischen Fortschrittszeilen, wenn
                         stderr kein Terminal ist (Standard 5)

Exit-Codes: 0 fertig, 1 interner Fehler, 2 Aufruffehler, 3 fehlerhafte
Eingabedatei, 4 keine Credits mehr (nach dem Aufladen erneut starten, um den
Rest zu erledigen), 5 API-Schlüssel fehlt oder abgelehnt, 6 Dienst nicht
erreichbar oder fehlerhaft, 7 nicht bestätigt (nichts ausgegeben),
8 ein anderer Lauf schreibt dieselbe Ausgabe, 9 Datenträger voll (nach dem
Aufräumen erneut starten), 130 abgebrochen (fortsetzbar); doctor: 0 wie erwartet,
10 Abweichungen, Ausgeben sicher, 11 Ausgeben nicht sicher.
`,
  },
  unknownCommand: {
    en: (c: string) => `Unknown command "${c}". See company-data --help.`,
    de: (c: string) => `Unbekannter Befehl "${c}". Siehe company-data --help.`,
  },
  unknownOption: {
    en: (o: string) => `Unknown option ${o}. See company-data --help.`,
    de: (o: string) => `Unbekannte Option ${o}. Siehe company-data --help.`,
  },
  missingOption: {
    en: (o: string) => `Missing ${o}. See company-data --help.`,
    de: (o: string) => `${o} fehlt. Siehe company-data --help.`,
  },
  badValue: {
    en: (o: string, v: string) => `Invalid value for ${o}: ${v}`,
    de: (o: string, v: string) => `Ungültiger Wert für ${o}: ${v}`,
  },
  noFile: {
    en: (f: string, code?: string) => `Cannot read ${f}${code ? `: ${READ_PROBLEM[code]?.en ?? code}` : ""}.`,
    de: (f: string, code?: string) =>
      `${f} kann nicht gelesen werden${code ? `: ${READ_PROBLEM[code]?.de ?? code}` : ""}.`,
  },
  diskFull: {
    en: (f: string) =>
      `Disk full: cannot write ${f} (ENOSPC). What was already paid for is kept (journals, rows written); free some space and run the same command again: it resumes without paying twice.`,
    de: (f: string) =>
      `Datenträger voll: ${f} kann nicht geschrieben werden (ENOSPC). Was schon bezahlt ist, bleibt erhalten (Journale, geschriebene Zeilen); bitte Platz schaffen und denselben Befehl erneut starten: er setzt fort, ohne doppelt zu bezahlen.`,
  },
  malformedKey: {
    en: (why: string) => `COMPANY_DATA_API_KEY is malformed: ${why}. Please check it.`,
    de: (why: string) => `COMPANY_DATA_API_KEY ist fehlerhaft: ${why}. Bitte prüfen.`,
  },
  sameFile: { en: "--in and --out must be different files.", de: "--in und --out müssen verschiedene Dateien sein." },
  cannotWrite: {
    en: (f: string) => `Cannot write ${f}: its folder does not exist or is not writable.`,
    de: (f: string) => `${f} kann nicht geschrieben werden: der Ordner fehlt oder ist schreibgeschützt.`,
  },
  sideFile: {
    en: (f: string) => `${f} is a working file of an unfinished run, not an input list. Pass the list itself as --in.`,
    de: (f: string) =>
      `${f} ist eine Arbeitsdatei eines unfertigen Laufs, keine Eingabeliste. Bitte die Liste selbst mit --in angeben.`,
  },
  locked: {
    en: (out: string, pid: number | null, lock: string) =>
      `Another run${pid ? ` (process ${pid})` : ""} is writing ${out} right now. Wait until it has finished, or use another --out. If no such run is left, delete ${lock}.`,
    de: (out: string, pid: number | null, lock: string) =>
      `Ein anderer Lauf${pid ? ` (Prozess ${pid})` : ""} schreibt gerade ${out}. Bitte warten, bis er fertig ist, oder eine andere --out-Datei angeben. Läuft keiner mehr, ${lock} löschen.`,
  },
  badEncoding: {
    en: (f: string, enc: string) =>
      `${f} cannot be read as ${enc} (invalid characters). Save it as "CSV UTF-8" or pass the right --encoding (utf-8, utf-16le, utf-16be, windows-1252).`,
    de: (f: string, enc: string) =>
      `${f} kann nicht als ${enc} gelesen werden (ungültige Zeichen). Bitte als "CSV UTF-8" speichern oder den richtigen Zeichensatz mit --encoding angeben (utf-8, utf-16le, utf-16be, windows-1252).`,
  },
  encodingUsed: {
    en: (enc: string) => `Encoding: ${enc} (the output is UTF-8)`,
    de: (enc: string) => `Zeichensatz: ${enc} (die Ausgabe ist UTF-8)`,
  },
  badCsv: {
    en: (f: string, line: number, m: string) => `${f} is not valid CSV (line ${line}: ${m}).`,
    de: (f: string, line: number, m: string) => `${f} ist kein gültiges CSV (Zeile ${line}: ${m}).`,
  },
  emptyCsv: { en: (f: string) => `${f} has no header row.`, de: (f: string) => `${f} hat keine Kopfzeile.` },
  noNameColumn: {
    en: (h: string) =>
      `No company name, id, website, VAT id, register or LEI column found in the header (${h}). Name it e.g. "Firma", "Company", "Website", "USt-IdNr." or "LEI".`,
    de: (h: string) =>
      `Keine Spalte mit Firmenname, Firmen-ID, Website, USt-IdNr., Registernummer oder LEI in der Kopfzeile gefunden (${h}). Bitte z. B. "Firma", "Company", "Website", "USt-IdNr." oder "LEI" nennen.`,
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
  resuming: {
    en: (n: number, c: number, lost: number) =>
      `Resuming after row ${n}; ${credits(c, "en")} spent so far${lostText(lost, "en")}. What is left:`,
    de: (n: number, c: number, lost: number) =>
      `Fortsetzung nach Zeile ${n}; bisher ${credits(c, "de")} ausgegeben${lostText(lost, "de")}. Was noch zu tun ist:`,
  },
  restarting: {
    en: (c: number, lost: number) =>
      `The input changed since the interrupted run: starting over; the rows and answers already paid for are reused (${credits(c, "en")} spent so far${lostText(lost, "en")}). What is left:`,
    de: (c: number, lost: number) =>
      `Die Eingabe hat sich seit dem abgebrochenen Lauf geändert: Neubeginn; bereits bezahlte Zeilen und Antworten werden wiederverwendet (bisher ${credits(c, "de")} ausgegeben${lostText(lost, "de")}). Was noch zu tun ist:`,
  },
  /** The progress line when stderr is not a terminal, and the status after Ctrl-C. */
  progressNames: {
    en: (d: number, t: number, c: number, lost: number, inFlight = 0) =>
      `Progress: matching names, ${n(d, "en")} of ${n(t, "en")} done; ${credits(c, "en")} spent so far${flightText(inFlight, "en")}${lostText(lost, "en")}.`,
    de: (d: number, t: number, c: number, lost: number, inFlight = 0) =>
      `Fortschritt: Namensabgleich, ${n(d, "de")} von ${n(t, "de")} erledigt; bisher ${credits(c, "de")} ausgegeben${flightText(inFlight, "de")}${lostText(lost, "de")}.`,
  },
  progressRows: {
    en: (d: number, t: number, c: number, lost: number, inFlight = 0) =>
      `Progress: ${n(d, "en")} of ${rows(t, "en")} done; ${credits(c, "en")} spent so far${flightText(inFlight, "en")}${lostText(lost, "en")}.`,
    de: (d: number, t: number, c: number, lost: number, inFlight = 0) =>
      `Fortschritt: ${n(d, "de")} von ${rows(t, "de")} erledigt; bisher ${credits(c, "de")} ausgegeben${flightText(inFlight, "de")}${lostText(lost, "de")}.`,
  },
  balanceShort: {
    en: (balance: number, estimate: number, rowsFar: number, total: number) =>
      `Your balance is ${credits(balance, "en")}: not enough for this estimate (at most ${credits(estimate, "en")}). ` +
      `The run stops when the balance is spent, after about ${n(rowsFar, "en")} of ${rows(total, "en")}; the rest is marked "not enriched: out of credits", ` +
      `and the same command finishes it after a top-up, paying nothing twice.`,
    de: (balance: number, estimate: number, rowsFar: number, total: number) =>
      `Ihr Guthaben beträgt ${credits(balance, "de")}: zu wenig für diese Schätzung (höchstens ${credits(estimate, "de")}). ` +
      `Der Lauf endet, wenn das Guthaben verbraucht ist, nach etwa ${n(rowsFar, "de")} von ${rows(total, "de")}; der Rest wird als „nicht angereichert: keine Credits“ markiert, ` +
      `und derselbe Befehl erledigt ihn nach dem Aufladen, ohne etwas doppelt zu bezahlen.`,
  },
  teamBudgetShort: {
    en: (left: number, estimate: number, rowsFar: number, total: number) =>
      `The team server lets you spend ${credits(left, "en")} more this month: not enough for this estimate (at most ${credits(estimate, "en")}). ` +
      `The run stops there, after about ${n(rowsFar, "en")} of ${rows(total, "en")}; the rest is marked "not enriched: out of credits", ` +
      `and the same command finishes it, paying nothing twice, once your team's admin raises the budget (ask your team's admin).`,
    de: (left: number, estimate: number, rowsFar: number, total: number) =>
      `Der Team-Server lässt Sie diesen Monat noch ${credits(left, "de")} ausgeben: zu wenig für diese Schätzung (höchstens ${credits(estimate, "de")}). ` +
      `Der Lauf endet dort, nach etwa ${n(rowsFar, "de")} von ${rows(total, "de")}; der Rest wird als „nicht angereichert: keine Credits“ markiert, ` +
      `und derselbe Befehl erledigt ihn ohne doppelte Kosten, sobald der Admin Ihres Teams das Budget erhöht (bitte beim Admin Ihres Teams nachfragen).`,
  },
  balanceShortYes: {
    en: "--yes: going ahead as far as the balance goes.",
    de: "--yes: es geht so weit, wie das Guthaben reicht.",
  },
  balanceUnknown: {
    en: (why: string) =>
      `The balance could not be read (${why}); the run goes ahead without checking it against the estimate.`,
    de: (why: string) =>
      `Das Guthaben konnte nicht gelesen werden (${why}); der Lauf geht ohne Abgleich mit der Schätzung weiter.`,
  },
  confirm: { en: "Spend these credits? [y/N] ", de: "Diese Credits ausgeben? [j/N] " },
  notConfirmed: {
    en: "Not confirmed: nothing was spent. Pass --yes to spend without asking.",
    de: "Nicht bestätigt: es wurde nichts ausgegeben. Mit --yes ohne Rückfrage ausführen.",
  },
  done: {
    en: (s: Summary) =>
      `Done: ${s.matched} matched, ${s.review} to review, ${s.notFound} not found, ${s.error} errors, ${s.skipped} skipped (no name)${s.other ? `, ${s.other} without status` : ""}; ${credits(s.credits, "en")} spent${lostText(s.unanswered, "en")}. Output: ${s.out}`,
    de: (s: Summary) =>
      `Fertig: ${s.matched} gefunden, ${s.review} zu prüfen, ${s.notFound} nicht gefunden, ${s.error} Fehler, ${s.skipped} übersprungen (ohne Namen)${s.other ? `, ${s.other} ohne Status` : ""}; ${credits(s.credits, "de")} ausgegeben${lostText(s.unanswered, "de")}. Ausgabe: ${s.out}`,
  },
  outOfCredits: {
    en: (s: Summary) =>
      `Out of credits: ${rows(s.outOfCredits, "en")} not enriched (marked in ${s.out}). Top up, then run the same command again to finish exactly these rows.`,
    de: (s: Summary) =>
      `Keine Credits mehr: ${rows(s.outOfCredits, "de")} nicht angereichert (markiert in ${s.out}). Bitte aufladen und denselben Befehl erneut starten, um genau diese Zeilen zu erledigen.`,
  },
  outOfTeamBudget: {
    en: (s: Summary, refusal: string) =>
      `Stopped by the team server: ${rows(s.outOfCredits, "en")} not enriched (marked in ${s.out}); ${credits(s.credits, "en")} spent. ${refusal} Once the budget allows, the same command finishes exactly these rows, paying nothing twice.`,
    de: (s: Summary, refusal: string) =>
      `Vom Team-Server angehalten: ${rows(s.outOfCredits, "de")} nicht angereichert (markiert in ${s.out}); ${credits(s.credits, "de")} ausgegeben. ${refusal} Sobald das Budget reicht, erledigt derselbe Befehl genau diese Zeilen, ohne etwas doppelt zu bezahlen.`,
  },
  interrupted: {
    en: "Interrupted. Run the same command again to resume.",
    de: "Abgebrochen. Zum Fortsetzen denselben Befehl erneut starten.",
  },
  credits: { en: (k: number) => `Credits: ${n(k, "en")}`, de: (k: number) => `Guthaben: ${credits(k, "de")}` },
  searchTotal: {
    en: (k: number) => `${countText(k, NOUNS.company, "en")} found`,
    de: (k: number) => `${countText(k, NOUNS.company, "de")} gefunden`,
  },

  /** The placeholder of the search term, as the help text names it. */
  queryArg: { en: "QUERY", de: "SUCHE" },
  fieldsTitle: { en: "Fields (id, group, header):", de: "Felder (ID, Gruppe, Überschrift):" },
});

/** The periods of `account`'s usage lines. */
export const USAGE_LABEL = catalogue({
  today: { en: "Today", de: "Heute" },
  month: { en: "Month", de: "Monat" },
  total: { en: "Total", de: "Gesamt" },
});

/** Header of the `search` table (tab-separated on stdout), column by column. */
export const SEARCH_HEADER = catalogue({
  id: { en: "Company ID", de: "Firmen-ID" },
  name: { en: "Name", de: "Firma" },
  city: { en: "City", de: "Ort" },
  zip: { en: "Postcode", de: "PLZ" },
  legalForm: { en: "Legal form", de: "Rechtsform" },
  status: { en: "Status", de: "Status" },
});

/** Input column roles as the "Columns:" line names them. */
export const ROLE_LABEL = catalogue({
  id: { de: "Firmen-ID", en: "company id" },
  name: { de: "Firmenname", en: "company name" },
  city: { de: "Ort", en: "city" },
  zip: { de: "PLZ", en: "postcode" },
  register: { de: "Register", en: "register" },
  website: { de: "Website", en: "website" },
  vatId: { de: "USt-IdNr.", en: "VAT id" },
  lei: { de: "LEI", en: "LEI" },
}) satisfies Record<InputRole, Texts>;

/** The output's rows by outcome (`other`: rows without a status, a bug if ever above 0, shown rather than hidden). */
export interface Summary extends Omit<OutcomeCounts, "rows" | "unbought"> {
  /** Credits the service charged for this output, over the run and the runs it resumed (an upper bound: includes `unanswered`). */
  credits: number;
  /** Of `credits`, those of paid requests whose answer never arrived (a crash, a timeout): charged or not, only the service knows. */
  unanswered: number;
  out: string;
}

export function fmtDuration(secs: number, lang: Language): string {
  if (secs < 90) return `${Math.max(1, Math.round(secs))} s`;
  if (secs < 5400) return `${Math.round(secs / 60)} min`;
  return lang === "de" ? `${(secs / 3600).toFixed(1).replace(".", ",")} h` : `${(secs / 3600).toFixed(1)} h`;
}

export const msg = T;
