/**
 * What a difference in an answer means for the user: which features read the
 * field, what they will show, and whether spending stays safe. The
 * enrichment's columns are named from its own field catalogue
 * (shared/enrich/fields.ts), so a column renamed there is renamed here.
 */
import { field } from "../enrich/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import type { FindingKind, Severity } from "./types.ts";

export interface Impact {
  severity: Severity;
  features: string[];
  effect: Bilingual;
}

/** A company field (the short form every list and match carries) → the enrichment columns that show it. */
const COLUMNS: Record<string, readonly string[]> = {
  name: ["name"],
  legalForm: ["legalForm"],
  street: ["street", "address"],
  zip: ["zip", "address"],
  city: ["city", "address"],
  state: ["state"],
  register: ["register"],
  status: ["status"],
  active: ["active"],
  industry: ["industryCode", "industryTitle"],
  size: ["size"],
  geo: ["lat", "lon"],
};

const quoted = (ids: readonly string[], lang: "de" | "en") =>
  ids
    .map((id) => field(id)?.header[lang] ?? id)
    .map((h) => (lang === "de" ? `„${h}“` : `"${h}"`))
    .join(", ");

const breaking = (features: string[], effect: Bilingual): Impact => ({ severity: "breaking", features, effect });
const degraded = (features: string[], effect: Bilingual): Impact => ({ severity: "degraded", features, effect });
const info = (features: string[], effect: Bilingual): Impact => ({ severity: "info", features, effect });

/** A field of a company (resolve match or candidate, lookup hit). */
function companyField(name: string, where: "resolve" | "lookup"): Impact {
  if (name === "id") {
    return breaking(["enrich", "functions", where === "lookup" ? "lookup" : "resolve"], {
      de: "Ohne Firmen-ID kann keine Firma zugeordnet oder gekauft werden: bezahlte Abgleiche und Profile wären unlesbar.",
      en: "Without the company ID no company can be matched or bought: paid matches and profiles would be unreadable.",
    });
  }
  if (name === "status" || name === "active") {
    return breaking([`enrich:${name}`, "monitor:risk"], {
      de: `Spalte ${quoted(COLUMNS[name]!, "de")} bleibt leer, und die Portfolio-Prüfung erkennt inaktive Firmen nicht (falsche Risikogruppe).`,
      en: `The column ${quoted(COLUMNS[name]!, "en")} will be empty, and the portfolio check cannot see inactive companies (a wrong risk group).`,
    });
  }
  const cols = COLUMNS[name];
  if (cols) {
    const many = cols.length > 1;
    return degraded(
      cols.map((c) => `enrich:${c}`),
      {
        de: `Profile und Treffer: ${many ? "die Spalten" : "die Spalte"} ${quoted(cols, "de")} ${many ? "bleiben" : "bleibt"} leer (Anreichern, COMPANY_PROFILE, Suchergebnisse).`,
        en: `Profiles and matches: the ${many ? "columns" : "column"} ${quoted(cols, "en")} will be empty (Enrich, COMPANY_PROFILE, search results).`,
      },
    );
  }
  return info([], { de: "Wird von keiner Spalte gelesen.", en: "No column reads it." });
}

const ERROR_BODY: Impact = degraded(["errors"], {
  de: "Fehlermeldungen: der Grund des Dienstes und das genannte Feld fehlen; es bleibt die Art des Fehlers (nach HTTP-Status).",
  en: "Error messages: the service's reason and the field it names are lost; the kind of error (by HTTP status) remains.",
});

/** What a difference of this kind means whatever the probe: undefined where the probe decides. */
function kindImpact(kind: FindingKind): Impact | undefined {
  if (kind === "unknown")
    return info([], {
      de: "Neue Felder, die der Client nicht liest (nichts fehlt dadurch).",
      en: "New fields the client does not read (nothing is lost by them).",
    });
  if (kind === "charged")
    return breaking(["prices"], {
      de: "Der Dienst berechnet einen Aufruf, den die Preistabelle als kostenlos führt: angezeigte Preise könnten zu niedrig sein.",
      en: "The service charges a call the price table lists as free: prices shown could be too low.",
    });
  if (kind === "headers")
    return info(["pacing"], {
      de: "Nur zur Kenntnis: der Client liest diese Header nicht; er taktet nach seiner eigenen Tabelle und beachtet Retry-After.",
      en: "For information: the client does not read these headers; it paces by its own table and honours Retry-After.",
    });
  return undefined;
}

function accountImpact(kind: FindingKind, path: string): Impact {
  if (path === "credits" || path === "(answer)" || kind === "status" || kind === "not-json")
    return breaking(["balance", "budget"], {
      de: "Das Guthaben ist nicht lesbar: Kopfzeile, Tagesbudget und der Nachweis „0 Credits ausgegeben“ fallen aus.",
      en: 'The balance cannot be read: the header\'s balance, the daily budget and the proof "0 credits spent" fail.',
    });
  return info(["settings:account"], {
    de: "Einstellungen: Verbrauch bzw. Tarif werden nicht angezeigt.",
    en: "Settings: usage or plan will not show.",
  });
}

function availabilityImpact(path: string): Impact {
  if (["id", "lastChangeDate", "events", "jobs"].includes(path))
    return degraded(["functions:COMPANY_AVAILABILITY"], {
      de: "COMPANY_AVAILABILITY zeigt hier nichts.",
      en: "COMPANY_AVAILABILITY shows nothing here.",
    });
  return breaking(["monitor:plan", "functions:COMPANY_AVAILABILITY", "enrich:availability"], {
    de: "Die Portfolio-Prüfung entscheidet danach, was sie kauft (Finanzdaten nur, wo es sie gibt): Firmen würden ohne ihre Zahlen bewertet.",
    en: "The portfolio check decides on it what to buy (financials only where they exist): companies would be screened without their figures.",
  });
}

function resolveImpact(kind: FindingKind, path: string, leaf: string): Impact {
  if (path === "match.id" && kind === "value")
    return degraded(["resolve"], {
      de: "Der Abgleich findet für „SAP SE, Walldorf“ eine andere Firma.",
      en: 'Matching finds another company for "SAP SE, Walldorf".',
    });
  if (path.startsWith("match.") || path.startsWith("candidates[].")) return companyField(leaf, "resolve");
  if (path === "candidates")
    return degraded(["enrich:review"], {
      de: "Die Prüfung mehrdeutiger Namen zeigt keine Kandidaten.",
      en: "The review of ambiguous names shows no candidates.",
    });
  if (path === "confidence")
    return degraded(["enrich:confidence"], {
      de: "Die Spalte Trefferqualität bleibt leer.",
      en: "The match-confidence column will be empty.",
    });
  return breaking(["resolve", "enrich", "functions:COMPANY_RESOLVE", "batchResolve"], {
    de: "Abgleich (Anreichern, COMPANY_RESOLVE, der bezahlte Stapelabgleich): jede Antwort wäre unlesbar oder „nicht gefunden“.",
    en: 'Matching (Enrich, COMPANY_RESOLVE, the paid batch resolve): every answer would be unreadable or "not found".',
  });
}

function lookupImpact(path: string, leaf: string): Impact {
  if (path.startsWith("companies[].")) return companyField(leaf, "lookup");
  return breaking(["lookup", "enrich:identifiers"], {
    de: "Suche über Website, USt-IdNr., Registernummer oder LEI ergäbe „nicht gefunden“.",
    en: 'Lookup by website, VAT id, register number or LEI would read "not found".',
  });
}

/** Severity, features and wording of one difference in one probe's answer. */
export function impactOf(probe: string, kind: FindingKind, path: string): Impact {
  const byKind = kindImpact(kind);
  if (byKind) return byKind;
  if (probe.startsWith("error.")) return ERROR_BODY;
  const leaf = path.replace(/\[\]/g, "").split(".").pop() ?? path;
  switch (probe) {
    case "account":
    case "account.after":
      return accountImpact(kind, path);
    case "suggest":
      return degraded(["search:suggest", "functions:COMPANY_SUGGEST"], {
        de: "Namensvorschläge (Suche, COMPANY_SUGGEST) bleiben leer.",
        en: "Name suggestions (Search, COMPANY_SUGGEST) will be empty.",
      });
    case "availability":
      return availabilityImpact(path);
    case "resolve":
      return resolveImpact(kind, path, leaf);
    case "lookup":
      return lookupImpact(path, leaf);
    default:
      return info([], { de: "Ohne bekannte Auswirkung.", en: "No known effect." });
  }
}
