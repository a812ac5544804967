/**
 * The labels of the API's coded values, German and English (spec 2.3: the
 * Accept-Language header localises labels; codes are the same in every
 * language): legal forms, statuses, size classes, roles, announcement types,
 * change kinds, and industries (WZ 2008, industries.ts). One table for the
 * emulator, which answers with them, and the clients: the team server buys
 * an answer once, in its buyer's language, and gives every other reader the
 * labels in theirs (`relabel`), so a team pays once per answer whatever its
 * users' languages (server/README.md, "One purchase, every language").
 * The real service's label texts are not published; these are the project's
 * (decision), and a code the table does not know reads as its code.
 */
import { wzClass } from "./industries.ts";

type Dict = Readonly<Record<string, { de: string; en: string }>>;

const LEGAL_FORMS: Dict = {
  GMBH: { de: "Gesellschaft mit beschränkter Haftung", en: "Limited liability company" },
  AG: { de: "Aktiengesellschaft", en: "Stock corporation" },
  SE: { de: "Europäische Gesellschaft", en: "European company" },
  UG: { de: "Unternehmergesellschaft (haftungsbeschränkt)", en: "Entrepreneurial company (limited liability)" },
  GMBH_CO_KG: { de: "GmbH & Co. KG", en: "Limited partnership with a limited liability company as general partner" },
  KG: { de: "Kommanditgesellschaft", en: "Limited partnership" },
  KGAA: { de: "Kommanditgesellschaft auf Aktien", en: "Partnership limited by shares" },
  OHG: { de: "Offene Handelsgesellschaft", en: "General partnership" },
  EK: { de: "Eingetragener Kaufmann", en: "Registered merchant" },
  EG: { de: "Eingetragene Genossenschaft", en: "Registered cooperative" },
  PARTG: { de: "Partnerschaftsgesellschaft", en: "Partnership company" },
};

const SIZE_LABELS: Dict = {
  MICRO: { de: "Kleinstunternehmen", en: "Micro enterprise" },
  SMALL: { de: "Kleines Unternehmen", en: "Small enterprise" },
  MEDIUM: { de: "Mittleres Unternehmen", en: "Medium-sized enterprise" },
  LARGE: { de: "Großunternehmen", en: "Large enterprise" },
};

const STATUS_LABELS: Dict = {
  ACTIVE: { de: "Aktiv", en: "Active" },
  IN_LIQUIDATION: { de: "In Liquidation", en: "In liquidation" },
  INSOLVENT: { de: "Insolvenzverfahren", en: "Insolvency proceedings" },
  DELETED: { de: "Gelöscht", en: "Deleted" },
  INACTIVE: { de: "Inaktiv", en: "Inactive" },
};

const ANNOUNCEMENT_LABELS: Dict = {
  NEW_ENTRY: { de: "Neueintragung", en: "New entry" },
  CHANGE: { de: "Veränderung", en: "Change" },
  MANAGEMENT_CHANGE: { de: "Wechsel der Geschäftsführung", en: "Management change" },
  CAPITAL_CHANGE: { de: "Kapitaländerung", en: "Capital change" },
  LIQUIDATION: { de: "Auflösung / Liquidation", en: "Dissolution / liquidation" },
  INSOLVENCY: { de: "Insolvenzbekanntmachung", en: "Insolvency notice" },
  DELETION: { de: "Löschung", en: "Deletion" },
};

const CHANGE_LABELS: Dict = {
  NAME: { de: "Firmenname", en: "Company name" },
  ADDRESS: { de: "Anschrift", en: "Address" },
  MANAGEMENT: { de: "Management", en: "Management" },
  CAPITAL: { de: "Kapital", en: "Capital" },
  STATUS: { de: "Status", en: "Status" },
  LEGAL_FORM: { de: "Rechtsform", en: "Legal form" },
  PURPOSE: { de: "Unternehmensgegenstand", en: "Purpose" },
  ANNOUNCEMENT: { de: "Bekanntmachung", en: "Announcement" },
};

const ROLE_LABELS: Dict = {
  MANAGING_DIRECTOR: { de: "Geschäftsführer/in", en: "Managing director" },
  BOARD_MEMBER: { de: "Vorstandsmitglied", en: "Board member" },
  CHAIR: { de: "Vorstandsvorsitzende/r", en: "Chair of the board" },
  SUPERVISORY_BOARD: { de: "Aufsichtsratsmitglied", en: "Supervisory board member" },
  PROKURIST: { de: "Prokurist/in", en: "Authorised signatory" },
  GENERAL_PARTNER: { de: "Persönlich haftende/r Gesellschafter/in", en: "General partner" },
  OWNER: { de: "Inhaber/in", en: "Owner" },
  PARTNER: { de: "Partner/in", en: "Partner" },
  LIQUIDATOR: { de: "Liquidator/in", en: "Liquidator" },
};

/** The tables by the field name a coded value has in the API's answers (schemas.ts Label fields). */
export const LABELS = {
  legalForm: LEGAL_FORMS,
  status: STATUS_LABELS,
  size: SIZE_LABELS,
  role: ROLE_LABELS,
  /** Announcement.type */
  type: ANNOUNCEMENT_LABELS,
  /** Change.kind */
  kind: CHANGE_LABELS,
} as const satisfies Record<string, Dict>;

type Lang = "de" | "en";

function relabelObject(o: Record<string, unknown>, lang: Lang): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    const table = (LABELS as Record<string, Dict>)[k];
    if (
      table &&
      v &&
      typeof v === "object" &&
      !Array.isArray(v) &&
      typeof (v as { code?: unknown }).code === "string"
    ) {
      const l = v as { code: string; name?: unknown };
      out[k] = { ...l, name: table[l.code]?.[lang] ?? null };
    } else out[k] = relabel(v, lang);
  }
  // An industry ({code, title}: the profile's, a summary's, the older listing's wz2008 entries).
  if (typeof out.code === "string" && "title" in out) out.title = wzClass(out.code)?.[lang] ?? null;
  return out;
}

/**
 * An answer with every coded value's label in `lang`: the names of the
 * labelled fields (LABELS) and the titles of industries. Everything else
 * (prose such as a summary or an announcement's text, which the API writes
 * in the buyer's language) is left as it is.
 */
export function relabel(answer: unknown, lang: Lang): unknown {
  if (Array.isArray(answer)) return answer.map((x) => relabel(x, lang));
  if (answer && typeof answer === "object") return relabelObject(answer as Record<string, unknown>, lang);
  return answer;
}
