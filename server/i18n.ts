/**
 * The server's own texts, German and English: the error bodies it answers
 * itself (the user's language, from Accept-Language or ?lang=) and the
 * administrator's messages of `company-data server …`.
 */
import { catalogue, type Language } from "../shared/i18n/index.ts";
import { groupDigits } from "../shared/credits/index.ts";

export const msg = catalogue({
  unauthorized: {
    de: "Kein gültiger persönlicher Token. Bitte den Token aus „company-data server token create“ als „Authorization: Bearer …“ senden.",
    en: "No valid personal token. Please send the token from “company-data server token create” as “Authorization: Bearer …”.",
  },
  overBudget: {
    de: (scope: "user" | "team", price: number, budget: number, remaining: number, lang: Language = "de") =>
      `${scope === "user" ? "Ihr Monatsbudget" : "Das Monatsbudget des Teams"} reicht nicht: diese Anfrage kostet ${groupDigits(price, lang)} Credits, das Budget ist ${groupDigits(budget, lang)} Credits, übrig sind ${groupDigits(remaining, lang)}. Es wurde nichts gekauft.`,
    en: (scope: "user" | "team", price: number, budget: number, remaining: number, lang: Language = "en") =>
      `${scope === "user" ? "Your monthly budget" : "The team's monthly budget"} is not enough: this request costs ${groupDigits(price, lang)} credits, the budget is ${groupDigits(budget, lang)} credits, ${groupDigits(remaining, lang)} are left. Nothing was bought.`,
  },
  tokenExpired: {
    de: (at: string) =>
      `Dieser Token ist abgelaufen (am ${at} UTC). Bitte beim Administrator einen neuen holen („company-data server token rotate“).`,
    en: (at: string) =>
      `This token has expired (at ${at} UTC). Please ask the administrator for a new one (“company-data server token rotate”).`,
  },
  adminOnly: {
    de: "Dieser Pfad ist nur für Administratoren: bitte einen Admin-Token senden („company-data server token create --user NAME --admin“).",
    en: "This path is for administrators only: please send an admin token (“company-data server token create --user NAME --admin”).",
  },
  notFound: { de: "Diesen Pfad gibt es auf diesem Server nicht.", en: "There is no such path on this server." },
  methodNotAllowed: {
    de: "Diese Methode ist für diesen Pfad nicht erlaubt.",
    en: "This method is not allowed for this path.",
  },
  originRefused: {
    de: "Dieser Ursprung (Origin) ist auf diesem Server nicht zugelassen.",
    en: "This origin is not allowed on this server.",
  },
  badJson: { de: "Der Anfrageinhalt ist kein gültiges JSON.", en: "The request body is not valid JSON." },
  tooLarge: { de: "Der Anfrageinhalt ist zu groß.", en: "The request body is too large." },
  upstreamLost: {
    de: "Die Antwort des Datendienstes ging unterwegs verloren. Sie ist im Ledger als offen vermerkt; bitte erneut versuchen.",
    en: "The data service's answer was lost on the way. It is recorded as open in the ledger; please try again.",
  },
  rateLimited: {
    de: "Zu viele Anfragen für das Team; bitte später erneut versuchen.",
    en: "Too many requests for the team; please try again later.",
  },
  busy: {
    de: "Eine andere Anfrage kauft diese Antwort gerade; bitte gleich erneut versuchen.",
    en: "Another request is buying this answer right now; please try again shortly.",
  },
  shuttingDown: {
    de: "Der Server wird gerade beendet; bitte gleich erneut versuchen.",
    en: "The server is shutting down; please try again shortly.",
  },
  internal: { de: "Interner Fehler des Servers.", en: "Internal server error." },
  apiUnreachable: {
    de: "Der Datendienst antwortet gerade nicht. Es wurde nichts gekauft und nichts berechnet; bitte später erneut versuchen.",
    en: "The data service is not answering right now. Nothing was bought and nothing charged; please try again later.",
  },
});

/** The administrator's messages (`company-data server …`, on stderr; results on stdout). */
export const admin = catalogue({
  usage: {
    de: `Aufruf:
  company-data server [--port N (8790)] [--host H (127.0.0.1)] [--data DIR] [--allow-origin URL …] [--key-file DATEI] [--max-schedules N (20)]
      [--allow-webhook-host HOST …]   Webhooks an diesen Host zulassen, auch wenn er intern auflöst (Relay im Haus)
  company-data server token create --user NAME [--month-budget N|none] [--admin] [--expires 90d] [--max-tokens N (10)]
  company-data server token rotate --user NAME [--grace 24h] [--expires 90d] [--admin]
  company-data server token list
  company-data server token revoke --user NAME
  company-data server budget --team N|none
  company-data server budget --user NAME --month-budget N|none
  company-data server report [--month JJJJ-MM] [--json]
  company-data server purge --company ID | --person ID
  company-data server ack-drift       Befunde des Doktors bestätigen (shared/doctor/README.md)
  company-data server backup --to DATEI        auch während der Server läuft
  company-data server restore --from DATEI     in ein leeres Datenverzeichnis / eine leere Datenbank
Läuft ein Server auf dem PGlite-Verzeichnis, gehen diese Befehle über seinen Admin-Kanal (DIR/admin.sock).
Umgebung: COMPANY_DATA_API_KEY (oder --key-file), COMPANY_DATA_BASE_URL, DATABASE_URL (PostgreSQL; sonst PGlite in --data).`,
    en: `Usage:
  company-data server [--port N (8790)] [--host H (127.0.0.1)] [--data DIR] [--allow-origin URL …] [--key-file FILE] [--max-schedules N (20)]
      [--allow-webhook-host HOST …]   allow webhooks to this host even when it resolves inside (an on-premise relay)
  company-data server token create --user NAME [--month-budget N|none] [--admin] [--expires 90d] [--max-tokens N (10)]
  company-data server token rotate --user NAME [--grace 24h] [--expires 90d] [--admin]
  company-data server token list
  company-data server token revoke --user NAME
  company-data server budget --team N|none
  company-data server budget --user NAME --month-budget N|none
  company-data server report [--month YYYY-MM] [--json]
  company-data server purge --company ID | --person ID
  company-data server ack-drift       acknowledge the doctor's findings (shared/doctor/README.md)
  company-data server backup --to FILE         while the server runs, too
  company-data server restore --from FILE      into an empty data directory / empty database
With a server running on the PGlite directory, these commands go through its admin channel (DIR/admin.sock).
Environment: COMPANY_DATA_API_KEY (or --key-file), COMPANY_DATA_BASE_URL, DATABASE_URL (PostgreSQL; else PGlite in --data).`,
  },
  badValue: {
    de: (flag: string, v: string) => `Ungültiger Wert für ${flag}: ${v}`,
    en: (flag: string, v: string) => `Invalid value for ${flag}: ${v}`,
  },
  missing: { de: (flag: string) => `${flag} fehlt.`, en: (flag: string) => `${flag} is missing.` },
  unknown: { de: (what: string) => `Unbekannt: ${what}`, en: (what: string) => `Unknown: ${what}` },
  locked: {
    de: (dir: string, pid: number, host?: string) =>
      host
        ? `Das Datenverzeichnis ${dir} ist von Prozess ${pid} auf dem Rechner ${host} gesperrt (PGlite bedient nur einen Prozess). Läuft dort kein Server mehr (etwa ein neu erstellter Container), ${dir}/server.lock löschen; sonst jenen Server beenden oder ein anderes --data wählen.`
        : `Das Datenverzeichnis ${dir} wird schon von Prozess ${pid} benutzt (PGlite bedient nur einen Prozess). Diesen Prozess beenden, ein anderes --data wählen oder mehrere Server über DATABASE_URL an PostgreSQL betreiben.`,
    en: (dir: string, pid: number, host?: string) =>
      host
        ? `The data directory ${dir} is locked by process ${pid} on host ${host} (PGlite serves one process). If no server runs there any more (e.g. a re-created container), delete ${dir}/server.lock; otherwise stop that server or choose another --data.`
        : `The data directory ${dir} is already in use by process ${pid} (PGlite serves one process). Stop that process, choose another --data, or run several servers on PostgreSQL through DATABASE_URL.`,
  },
  noKey: {
    de: "Kein API-Schlüssel: COMPANY_DATA_API_KEY setzen oder --key-file DATEI (nur für den Server lesbar, chmod 600) angeben.",
    en: "No API key: set COMPANY_DATA_API_KEY or give --key-file FILE (readable by the server only, chmod 600).",
  },
  keyFile: { de: (why: string) => `Schlüsseldatei: ${why}`, en: (why: string) => `Key file: ${why}` },
  newerDb: {
    de: (ids: string, dbVersion: string, serverVersion: string) =>
      `Die Datenbank wurde von company-data ${dbVersion} migriert (Migrationen ${ids} kennt dieser Server nicht); dieser Server ist company-data ${serverVersion}. Bitte den Server auf ${dbVersion} oder neuer aktualisieren (oder eine Sicherung dieser Version einspielen).`,
    en: (ids: string, dbVersion: string, serverVersion: string) =>
      `The database was migrated by company-data ${dbVersion} (migrations ${ids} are unknown to this server); this server is company-data ${serverVersion}. Please upgrade the server to ${dbVersion} or later (or restore a backup made by this version).`,
  },
  portTaken: {
    de: (port: number, host: string) => `Port ${port} auf ${host} ist nicht verfügbar.`,
    en: (port: number, host: string) => `Port ${port} on ${host} is not available.`,
  },
  listening: {
    de: (url: string, db: string) => `Team-Server auf ${url} (Datenbank: ${db}). Beenden mit Strg-C oder SIGTERM.`,
    en: (url: string, db: string) => `Team server at ${url} (database: ${db}). Stop with Ctrl-C or SIGTERM.`,
  },
  notLoopback: {
    de: (host: string) =>
      `Achtung: ${host} ist nicht nur dieser Rechner. Ohne TLS davor (Reverse-Proxy) gehen Tokens unverschlüsselt übers Netz.`,
    en: (host: string) =>
      `Warning: ${host} is not this machine only. Without TLS in front (a reverse proxy), tokens cross the network unencrypted.`,
  },
  tokenCreated: {
    de: (user: string) => `Neuer Token für ${user} (wird nur jetzt angezeigt; gespeichert ist nur sein Hash):`,
    en: (user: string) => `New token for ${user} (shown only now; only its hash is stored):`,
  },
  revoked: {
    de: (user: string, n: number) => `${n} Token von ${user} widerrufen.`,
    en: (user: string, n: number) => `Revoked ${n} token(s) of ${user}.`,
  },
  tokenCap: {
    de: (user: string, max: number) =>
      `${user} hat schon ${max} gültige Tokens (die Obergrenze). Erst einen widerrufen („token revoke“) oder rotieren („token rotate“), oder die Grenze mit --max-tokens N anheben.`,
    en: (user: string, max: number) =>
      `${user} already holds ${max} valid tokens (the cap). Revoke (“token revoke”) or rotate (“token rotate”) first, or raise the cap with --max-tokens N.`,
  },
  tokenCreatedAt: { de: (at: string) => `erstellt ${at}`, en: (at: string) => `created ${at}` },
  tokenExpires: {
    de: (at: string, past: boolean) => (past ? `abgelaufen ${at}` : `läuft ab ${at}`),
    en: (at: string, past: boolean) => (past ? `expired ${at}` : `expires ${at}`),
  },
  tokenNoExpiry: { de: "läuft nie ab", en: "never expires" },
  tokenLastUsed: { de: (at: string) => `zuletzt benutzt ${at}`, en: (at: string) => `last used ${at}` },
  tokenNeverUsed: { de: "nie benutzt", en: "never used" },
  tokenGrace: {
    de: (until: string) => `rotiert, gültig bis ${until}`,
    en: (until: string) => `rotated, valid until ${until}`,
  },
  tokenExpiresNote: {
    de: (at: string) => `Läuft ab: ${at}.`,
    en: (at: string) => `Expires: ${at}.`,
  },
  rotated: {
    de: (user: string, n: number, until: string) =>
      `Neuer Token für ${user} (wird nur jetzt angezeigt). Die ${n} bisherigen Token bleiben bis ${until} UTC gültig, dann enden sie.`,
    en: (user: string, n: number, until: string) =>
      `New token for ${user} (shown only now). The ${n} previous token(s) stay valid until ${until} UTC, then end.`,
  },
  backupDone: {
    de: (file: string, rows: number, tables: number) => `Sicherung in ${file}: ${rows} Zeilen aus ${tables} Tabellen.`,
    en: (file: string, rows: number, tables: number) => `Backup in ${file}: ${rows} rows from ${tables} tables.`,
  },
  restoreDone: {
    de: (rows: number, tables: number) =>
      `Eingespielt: ${rows} Zeilen in ${tables} Tabellen; Datenbank auf dem Stand dieses Servers.`,
    en: (rows: number, tables: number) =>
      `Restored ${rows} rows into ${tables} tables; the database is at this server's schema.`,
  },
  restoreServed: {
    de: "Auf diesem Datenverzeichnis läuft ein Server: eine Sicherung wird in ein leeres Verzeichnis (oder eine leere Datenbank) eingespielt, ohne laufenden Server.",
    en: "A server is running on this data directory: a backup is restored into an empty directory (or an empty database) with no server running.",
  },
  restoreFailed: {
    de: (why: string) => `Einspielen fehlgeschlagen: ${why}`,
    en: (why: string) => `Restore failed: ${why}`,
  },
  noUser: { de: (user: string) => `Keinen Benutzer ${user} gefunden.`, en: (user: string) => `No user ${user}.` },
  budgetSet: {
    de: (who: string, v: string) => `Monatsbudget von ${who}: ${v}`,
    en: (who: string, v: string) => `Monthly budget of ${who}: ${v}`,
  },
  team: { de: "Team", en: "team" },
  none: { de: "keins", en: "none" },
  listHeader: { de: "Benutzer\tMonatsbudget\tTokens", en: "user\tmonth budget\ttokens" },
  reportTitle: { de: (month: string) => `Ausgaben im Monat ${month}`, en: (month: string) => `Spend in ${month}` },
  reportHeader: {
    de: "Benutzer\tEndpunkt\tAnfragen\tabgerechnet\toffen",
    en: "user\tendpoint\trequests\tsettled\tunsettled",
  },
  reportUsers: { de: "Benutzer\tausgegeben\tgespart (Cache)\tBudget", en: "user\tspent\tsaved (cache)\tbudget" },
  reportTotal: {
    de: (spent: number, settled: number, pending: number, saved: number, team: string) =>
      `Summe: ${spent} Credits (${settled} abgerechnet, ${pending} offen: gesendet, Antwort nie verbucht). Durch geteilte Antworten gespart: ${saved} Credits. Team-Budget: ${team}.`,
    en: (spent: number, settled: number, pending: number, saved: number, team: string) =>
      `Total: ${spent} credits (${settled} settled, ${pending} unsettled: sent, answer never recorded). Saved by shared answers: ${saved} credits. Team budget: ${team}.`,
  },
  reportUnsettled: {
    de: "Offene Buchungen (gesendet oder im Flug, Antwort nie verbucht; zählen als ausgegeben):\nBenutzer\tZeilen\tCredits\terste\tletzte\tLedger-IDs (X-Request-Id ledger-N)",
    en: "Unsettled ledger rows (sent or in flight, answer never recorded; counted as spent):\nuser\trows\tcredits\tfirst\tlast\tledger ids (X-Request-Id ledger-N)",
  },
  reportNoUnsettled: { de: "Keine offenen Buchungen.", en: "No unsettled ledger rows." },
  stopping: {
    de: "Server wird beendet; laufende Anfragen werden abgeschlossen …",
    en: "Stopping; finishing the requests in flight …",
  },
});
