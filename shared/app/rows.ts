/** Companies as the UI shows them and as they are inserted into a sheet. */
import type { CompanySummary } from "../api/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import type { Cell } from "../core/index.ts";
import { asText } from "../sheet/index.ts";
import { formatRegister } from "../enrich/index.ts";
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";
import type { CompanyRow } from "./protocol.ts";

const label = (l: { code: string; name?: string | null } | null | undefined) => (l ? (l.name ?? l.code) : "");

export function companyRow(c: CompanySummary): CompanyRow {
  return {
    id: c.id,
    name: c.name ?? "",
    legalForm: label(c.legalForm),
    street: c.street ?? "",
    zip: c.zip ?? "",
    city: c.city ?? "",
    state: c.state ?? "",
    register: formatRegister(c.register ?? null),
    industry: c.industry ? [c.industry.code, c.industry.title].filter(Boolean).join(" ") : "",
    size: label(c.size),
    status: label(c.status),
    statusCode: c.status?.code ?? "",
    active: c.active ?? null,
    score: c.score ?? null,
    distanceKm: c.distanceKm ?? null,
  };
}

export const ROW_COLUMNS: readonly { key: keyof CompanyRow; header: Bilingual }[] = [
  { key: "id", header: { de: "Firmen-ID", en: "Company ID" } },
  { key: "name", header: { de: "Firmenname", en: "Company name" } },
  { key: "legalForm", header: { de: "Rechtsform", en: "Legal form" } },
  { key: "street", header: { de: "Straße", en: "Street" } },
  { key: "zip", header: { de: "PLZ", en: "Postcode" } },
  { key: "city", header: { de: "Ort", en: "City" } },
  { key: "state", header: { de: "Bundesland", en: "State" } },
  { key: "register", header: { de: "Handelsregister", en: "Register" } },
  { key: "industry", header: { de: "Branche", en: "Industry" } },
  { key: "size", header: { de: "Größenklasse", en: "Size class" } },
  { key: "status", header: { de: "Firmenstatus", en: "Company status" } },
  { key: "active", header: { de: "Aktiv", en: "Active" } },
  { key: "score", header: { de: "Relevanz", en: "Relevance" } },
  { key: "distanceKm", header: { de: "Entfernung (km)", en: "Distance (km)" } },
];
const KEYS = new Set(ROW_COLUMNS.map((c) => c.key as string));
const TEXT_KEYS = [
  "id",
  "name",
  "legalForm",
  "street",
  "zip",
  "city",
  "state",
  "register",
  "industry",
  "size",
  "status",
] as const;

/** A CompanyRow coming back from the UI: checked field by field, since uiCall can be called by anything. */
export function readCompanyRow(v: unknown, field: string): CompanyRow {
  if (!v || typeof v !== "object" || Array.isArray(v))
    throw invalid(field, { de: "erwartet eine Firma", en: "expected a company" });
  const o = v as Record<string, unknown>;
  const row = {} as CompanyRow;
  for (const k of TEXT_KEYS) {
    const x = o[k] ?? "";
    if (typeof x !== "string" || x.length > 2000) throw invalid(`${field}.${k}`, rule.type("string"));
    row[k] = x;
  }
  const nullableNumber = (k: "score" | "distanceKm") => {
    const x = o[k];
    if (x === null || x === undefined) return null;
    if (typeof x !== "number" || !Number.isFinite(x)) throw invalid(`${field}.${k}`, rule.type("number"));
    return x;
  };
  const code = o.statusCode ?? "";
  if (typeof code !== "string" || code.length > 40) throw invalid(`${field}.statusCode`, rule.type("string"));
  row.statusCode = code;
  row.score = nullableNumber("score");
  row.distanceKm = nullableNumber("distanceKm");
  const active = o.active;
  if (active !== null && active !== undefined && typeof active !== "boolean")
    throw invalid(`${field}.active`, rule.type("boolean"));
  row.active = active ?? null;
  return row;
}

export function readColumns(v: unknown, field: string): (keyof CompanyRow)[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length === 0 || v.length > KEYS.size)
    throw invalid(field, { de: "erwartet eine Liste von Spaltennamen", en: "expected a list of column names" });
  return v.map((k, i) => {
    if (typeof k !== "string" || !KEYS.has(k))
      throw invalid(`${field}[${i}]`, got({ de: "unbekannte Spalte", en: "unknown column" }, String(k)));
    return k as keyof CompanyRow;
  });
}

/** The block to write: header (optional) and one row per company, text neutralised against formulas. */
export function rowsBlock(
  rows: CompanyRow[],
  columns: (keyof CompanyRow)[],
  header: boolean,
  lang: Language,
): Cell[][] {
  const out: Cell[][] = [];
  if (header) out.push(columns.map((k) => ROW_COLUMNS.find((c) => c.key === k)!.header[lang]));
  for (const r of rows) out.push(columns.map((k) => asText((r[k] ?? "") as Cell)));
  return out;
}

/** Default columns: everything, except score and distance when no row has one. */
export function defaultColumns(rows: CompanyRow[]): (keyof CompanyRow)[] {
  return ROW_COLUMNS.map((c) => c.key).filter(
    (k) => (k !== "score" && k !== "distanceKm") || rows.some((r) => r[k] !== null),
  );
}
