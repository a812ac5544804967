/**
 * The output fields a user can add to a list, grouped by what they cost.
 * Each field reads its value from what the enrichment fetched for a row:
 * the resolve match (free beyond the resolve), the profile (1 credit), and
 * the profile's includes (people +1, announcements +1, financials +4).
 * Everything is read with one GET /v2/companies/{id}?include=… per company:
 * an include costs what the standalone call costs, but it is one request
 * instead of two.
 */
import type { Announcement, Availability, Company, CompanySummary, FinancialYear, Person } from "../api/index.ts";
import { INCLUDE_COST, profileCost, type Include } from "../api/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import type { Cell } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { got } from "../i18n/index.ts";
import { priced } from "../credits/index.ts";

export type FieldGroup = "resolve" | "profile" | "people" | "announcements" | "financials";
export const FIELD_GROUPS: readonly FieldGroup[] = ["resolve", "profile", "people", "announcements", "financials"];

/** What the enrichment has for one row when the fields are read. */
export interface FieldSource {
  /** The resolve match (absent for rows that came with an id). */
  summary: CompanySummary | null;
  /** The profile, with whatever includes were fetched. */
  company: Company | null;
  lang: Language;
}

export interface FieldDef {
  id: string;
  group: FieldGroup;
  header: Bilingual;
  extract(src: FieldSource): Cell;
}

export const GROUP_LABEL: Record<FieldGroup, Bilingual> = {
  resolve: { de: "Aus dem Abgleich (ohne Profil)", en: "From the match (no profile)" },
  profile: priced({ de: "Basisprofil ({credits:profile})", en: "Base profile ({credits:profile})" }),
  people: priced({ de: "Personen (+{credits:people})", en: "People (+{credits:people})" }),
  announcements: priced({
    de: "Bekanntmachungen (+{credits:announcements})",
    en: "Announcements (+{credits:announcements})",
  }),
  financials: priced({ de: "Finanzdaten (+{credits:financials})", en: "Financials (+{credits:financials})" }),
};

/** Credits one company costs for a group, on top of what it needs below it. */
export const GROUP_COST: Record<FieldGroup, number> = {
  resolve: 0,
  profile: 1,
  people: INCLUDE_COST.people,
  announcements: INCLUDE_COST.announcements,
  financials: INCLUDE_COST.financials,
};

// ---------------------------------------------------------------- helpers

const str = (v: string | null | undefined): Cell => (v == null || v === "" ? "" : v);
const num = (v: number | null | undefined): Cell => (v == null || !Number.isFinite(v) ? "" : v);
const label = (l: { code: string; name?: string | null } | null | undefined): Cell => (l ? (l.name ?? l.code) : "");
/** Summary fields: the profile wins (fresher, fuller), the match fills in. */
const base = (s: FieldSource): CompanySummary | null => s.company ?? s.summary;

export function formatRegister(r: CompanySummary["register"]): string {
  if (!r) return "";
  return [r.court, r.type, r.number].filter((p) => p != null && p !== "").join(" ");
}

function formatAddress(c: CompanySummary | null): string {
  if (!c) return "";
  const place = [c.zip, c.city].filter(Boolean).join(" ");
  return [c.street, place].filter(Boolean).join(", ");
}

/** People still in office (no end date), in the order the API gives. */
const currentPeople = (c: Company | null): Person[] => (c?.people ?? []).filter((p) => !p.until);

const personText = (p: Person): string => {
  const role = p.role ? (p.role.name ?? p.role.code) : "";
  return role ? `${p.name ?? ""} (${role})` : (p.name ?? "");
};

function latestAnnouncement(c: Company | null): Announcement | null {
  const list = c?.announcements ?? [];
  let best: Announcement | null = null;
  for (const a of list) if (!best || (a.date ?? "") > (best.date ?? "")) best = a;
  return best;
}

/** The latest year; for a year reported both ways the company's own report beats the group's. */
export function latestFinancials(c: Company | null): FinancialYear | null {
  let best: FinancialYear | null = null;
  for (const y of c?.financials ?? []) {
    if (!best || y.year > best.year) best = y;
    else if (y.year === best.year && best.reportType === "concern" && y.reportType !== "concern") best = y;
  }
  return best;
}

const joinList = (items: string[]) => items.filter(Boolean).join("; ");

// ---------------------------------------------------------------- catalogue

const f = (id: string, group: FieldGroup, de: string, en: string, extract: (s: FieldSource) => Cell): FieldDef => ({
  id,
  group,
  header: { de, en },
  extract,
});

export const FIELDS: readonly FieldDef[] = [
  // From the resolve alone: whatever CompanySummary holds.
  f("id", "resolve", "Firmen-ID", "Company ID", (s) => str(base(s)?.id)),
  f("name", "resolve", "Firmenname (Treffer)", "Matched name", (s) => str(base(s)?.name)),
  f("legalForm", "resolve", "Rechtsform", "Legal form", (s) => label(base(s)?.legalForm)),
  f("street", "resolve", "Straße", "Street", (s) => str(base(s)?.street)),
  f("zip", "resolve", "PLZ", "Postcode", (s) => str(base(s)?.zip)),
  f("city", "resolve", "Ort", "City", (s) => str(base(s)?.city)),
  f("state", "resolve", "Bundesland", "State", (s) => str(base(s)?.state)),
  f("register", "resolve", "Handelsregister", "Register", (s) => formatRegister(base(s)?.register ?? null)),
  f("status", "resolve", "Firmenstatus", "Company status", (s) => label(base(s)?.status)),
  f("active", "resolve", "Aktiv", "Active", (s) => (base(s)?.active == null ? "" : base(s)!.active!)),
  f("industryCode", "resolve", "Branchencode (WZ)", "Industry code (WZ)", (s) => str(base(s)?.industry?.code)),
  f("industryTitle", "resolve", "Branche", "Industry", (s) => str(base(s)?.industry?.title)),
  f("size", "resolve", "Größenklasse", "Size class", (s) => label(base(s)?.size)),
  f("lat", "resolve", "Breitengrad", "Latitude", (s) => num(base(s)?.geo?.lat)),
  f("lon", "resolve", "Längengrad", "Longitude", (s) => num(base(s)?.geo?.lon)),

  // Base profile: 1 credit per company.
  f("address", "profile", "Anschrift", "Address", (s) => formatAddress(base(s))),
  f("phone", "profile", "Telefon", "Phone", (s) => str(s.company?.phone)),
  f("email", "profile", "E-Mail", "E-mail", (s) => str(s.company?.email)),
  f("url", "profile", "Website", "Website", (s) => str(s.company?.url)),
  f("vatId", "profile", "USt-IdNr.", "VAT id", (s) => str(s.company?.vatId)),
  f("lei", "profile", "LEI", "LEI", (s) => str(s.company?.lei)),
  f("foundingDate", "profile", "Gründungsdatum", "Founding date", (s) => str(s.company?.foundingDate)),
  f("capital", "profile", "Kapital", "Capital", (s) => num(s.company?.capital?.amount)),
  f("capitalCurrency", "profile", "Kapital Währung", "Capital currency", (s) =>
    str(s.company?.capital?.currency ?? (s.company?.capital ? "EUR" : "")),
  ),
  f("employees", "profile", "Mitarbeiter", "Employees", (s) => num(s.company?.employees?.count)),
  f("employeesYear", "profile", "Mitarbeiter Jahr", "Employees year", (s) => num(s.company?.employees?.year)),
  f("industries", "profile", "Alle Branchen", "All industries", (s) =>
    joinList((s.company?.industries ?? []).map((i) => (i.title ? `${i.code} ${i.title}` : i.code))),
  ),
  f("purpose", "profile", "Unternehmensgegenstand", "Purpose", (s) => str(s.company?.purpose)),
  f("summary", "profile", "Kurzbeschreibung", "Summary", (s) => str(s.company?.summary)),
  f("liquidationDate", "profile", "Liquidationsdatum", "Liquidation date", (s) => str(s.company?.liquidationDate)),
  f("insolvencyDate", "profile", "Insolvenzdatum", "Insolvency date", (s) => str(s.company?.insolvencyDate)),
  f("deletionDate", "profile", "Löschdatum", "Deletion date", (s) => str(s.company?.deletionDate)),
  f("warningExists", "profile", "Warnhinweis", "Warning", (s) =>
    s.company?.warningExists == null ? "" : s.company.warningExists,
  ),
  f("lastChangeDate", "profile", "Letzte Änderung", "Last change", (s) => str(s.company?.lastChangeDate)),
  f("historicalNames", "profile", "Frühere Namen", "Former names", (s) => joinList(s.company?.historicalNames ?? [])),

  // People: +1 via include.
  f("peopleCount", "people", "Anzahl Personen", "Number of people", (s) =>
    s.company?.people ? currentPeople(s.company).length : "",
  ),
  f("management", "people", "Management", "Management", (s) => joinList(currentPeople(s.company).map(personText))),

  // Announcements: +1 via include.
  f("announcementCount", "announcements", "Anzahl Bekanntmachungen", "Number of announcements", (s) =>
    s.company?.announcements ? s.company.announcements.length : "",
  ),
  f("lastAnnouncementDate", "announcements", "Letzte Bekanntmachung Datum", "Latest announcement date", (s) =>
    str(latestAnnouncement(s.company)?.date),
  ),
  f("lastAnnouncementType", "announcements", "Letzte Bekanntmachung Art", "Latest announcement type", (s) =>
    label(latestAnnouncement(s.company)?.type),
  ),
  f("lastAnnouncementText", "announcements", "Letzte Bekanntmachung Text", "Latest announcement text", (s) =>
    str(latestAnnouncement(s.company)?.text),
  ),

  // Financials: +4 via include. The latest year, with the year beside the figures.
  f("financialYear", "financials", "Geschäftsjahr", "Financial year", (s) => num(latestFinancials(s.company)?.year)),
  f("revenue", "financials", "Umsatz", "Revenue", (s) => num(latestFinancials(s.company)?.revenue)),
  f("profit", "financials", "Jahresergebnis", "Net income", (s) => num(latestFinancials(s.company)?.profit)),
  f("equity", "financials", "Eigenkapital", "Equity", (s) => num(latestFinancials(s.company)?.equity)),
  f("equityRatio", "financials", "Eigenkapitalquote", "Equity ratio", (s) =>
    num(latestFinancials(s.company)?.equityRatio),
  ),
  f("balanceSheetTotal", "financials", "Bilanzsumme", "Balance sheet total", (s) =>
    num(latestFinancials(s.company)?.balanceSheetTotal),
  ),
];

const BY_ID = new Map(FIELDS.map((d) => [d.id, d]));

export function field(id: string): FieldDef | undefined {
  return BY_ID.get(id);
}

/** A sensible default selection: the match plus the base profile's essentials. */
export const DEFAULT_FIELDS: readonly string[] = [
  "id",
  "name",
  "legalForm",
  "city",
  "register",
  "status",
  "address",
  "url",
  "industryCode",
  "industryTitle",
  "employees",
];

/**
 * The user's chosen fields, validated and de-duplicated, in catalogue order
 * with "id" always first: the id column is what resume, reruns and review
 * picks work from.
 */
export function selectFields(ids: readonly string[]): FieldDef[] {
  for (const id of ids)
    if (!BY_ID.has(id)) throw invalid("fields", got({ de: "unbekanntes Feld", en: "unknown field" }, id));
  const wanted = new Set(["id", ...ids]);
  return FIELDS.filter((d) => wanted.has(d.id));
}

/** Parse "a,b,c" or a group name ("financials") into field ids. */
export function parseFieldList(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[,;\s]+/)) {
    const t = raw.trim();
    if (!t) continue;
    if (t === "all") out.push(...FIELDS.map((d) => d.id));
    else if ((FIELD_GROUPS as readonly string[]).includes(t))
      out.push(...FIELDS.filter((d) => d.group === t).map((d) => d.id));
    else out.push(t);
  }
  return out;
}

export interface FieldNeeds {
  /** Any field needs the profile (for rows that came with an id: any field besides the id). */
  profile: boolean;
  /** Includes the fields need. */
  include: Include[];
}

/** What the chosen fields need fetched for a resolved row and for a row that came with an id. */
export function fieldNeeds(fields: readonly FieldDef[]): { resolved: FieldNeeds; givenId: FieldNeeds } {
  const groups = new Set(fields.map((d) => d.group));
  const include = (["people", "announcements", "financials"] as const).filter((g) => groups.has(g));
  const beyondResolve = include.length > 0 || groups.has("profile");
  const anyButId = fields.some((d) => d.id !== "id");
  return {
    resolved: { profile: beyondResolve, include },
    givenId: { profile: anyButId, include },
  };
}

/** Drop includes the availability says do not exist (it is free; the includes are not). */
export function availableIncludes(include: readonly Include[], av: Availability | null | undefined): Include[] {
  if (!av) return [...include];
  return include.filter((inc) => av[inc] !== false);
}

/** Credits for one company's profile with these includes (0 when no profile is needed). */
export function companyCost(needs: FieldNeeds): number {
  return needs.profile ? profileCost(needs.include) : 0;
}

export function headerRow(fields: readonly FieldDef[], lang: Language): string[] {
  return fields.map((d) => d.header[lang]);
}
