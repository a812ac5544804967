/**
 * Which input column holds what, detected from a header row in German or
 * English. The result is a proposal the user can correct (the UI shows it as
 * dropdowns; the CLI takes --name-col etc.).
 */
import type { Cell } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { fieldLabel, foldGerman } from "../i18n/index.ts";
import { findOutputBlock } from "./rows.ts";

/** Neither a company name nor an id column: nothing to look companies up by. */
export const NO_NAME_COLUMN = {
  de: "keine Spalte mit Firmenname, Firmen-ID, Website, USt-IdNr., Registernummer oder LEI",
  en: "no company name, company ID, website, VAT id, register number or LEI column",
};

export type InputRole = "name" | "city" | "zip" | "register" | "id" | "website" | "vatId" | "lei";
/** New roles go last: the order is part of every stored row key (shared/enrich/row-key.ts). */
export const INPUT_ROLES: readonly InputRole[] = ["id", "name", "city", "zip", "register", "website", "vatId", "lei"];
/** Roles a row can be matched by on their own (the others are hints to a name). */
export const MATCH_ROLES: readonly InputRole[] = ["id", "name", "website", "vatId", "register", "lei"];

/** 0-based column index per role; absent = not in the input. */
export type ColumnMapping = Partial<Record<InputRole, number>>;

/** Lower case, umlauts folded, everything but letters and digits removed: "Firmen-ID" → "firmenid". */
export function normaliseHeader(h: Cell): string {
  return foldGerman(String(h ?? ""))
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]/g, "");
}

/** Exact (normalised) header names per role, strongest first. */
const EXACT: Record<InputRole, string[]> = {
  id: ["id", "firmenid", "companyid", "unternehmensid", "implisenseid", "firmaid"],
  name: [
    "firma",
    "firmenname",
    "unternehmen",
    "unternehmensname",
    "company",
    "companyname",
    "name",
    "firmierung",
    "organisation",
    "organization",
    "kunde",
    "customer",
    "account",
    "accountname",
  ],
  city: ["ort", "stadt", "city", "town", "sitz", "wohnort", "gemeinde", "location", "place"],
  zip: ["plz", "postleitzahl", "zip", "zipcode", "postcode", "postalcode"],
  register: [
    "register",
    "handelsregister",
    "hrb",
    "hra",
    "registernummer",
    "registernumber",
    "registerno",
    "hrnummer",
    "handelsregisternummer",
    "registration",
    "registrationnumber",
    "commercialregister",
  ],
  website: [
    "website",
    "webseite",
    "homepage",
    "url",
    "domain",
    "internet",
    "internetadresse",
    "web",
    "www",
    "websiteurl",
  ],
  vatId: [
    "ustidnr",
    "ustid",
    "umsatzsteueridnr",
    "umsatzsteueridentifikationsnummer",
    "vatid",
    "vat",
    "vatnumber",
    "vatno",
    "vatregistrationnumber",
    "ustidnummer",
  ],
  lei: [
    "lei",
    "leicode",
    "legalentityidentifier",
    "leinummer",
    "leinr",
    "leiid",
    "rechtstraegerkennung",
    "rechtstraegerkennungsnummer",
  ],
};

/** Weaker hints: the normalised header contains one of these. */
const CONTAINS: Record<InputRole, string[]> = {
  id: ["firmenid", "companyid"],
  name: ["firmenname", "companyname", "unternehmen", "firma", "company"],
  city: ["stadt", "city", "town"],
  zip: ["postleitzahl", "postcode", "zip", "plz"],
  register: ["register", "hrb"],
  website: ["website", "homepage", "domain"],
  vatId: ["ustid", "vatid", "vatnumber", "umsatzsteuer"],
  // Not "lei" alone: "Leistung", "Abteilungsleiter" contain it.
  lei: ["legalentityidentifier", "leicode", "rechtstraegerkennung"],
};

export interface DetectedColumns {
  mapping: ColumnMapping;
  /** The header row as read, for the UI's correction dropdowns. */
  headers: string[];
}

/**
 * Map each role to a column. Exact matches beat "contains" matches; a column
 * serves one role; a role takes its leftmost best column. Columns of an
 * earlier run's output block (and anything right of it) are never input.
 */
export function detectColumns(headerRow: readonly Cell[]): DetectedColumns {
  const out = findOutputBlock(headerRow);
  const norm = (out ? headerRow.slice(0, out.start) : headerRow).map(normaliseHeader);
  const mapping: ColumnMapping = {};
  const used = new Set<number>();
  for (const pass of ["exact", "contains"] as const) {
    for (const role of INPUT_ROLES) {
      if (mapping[role] !== undefined) continue;
      const words = pass === "exact" ? EXACT[role] : CONTAINS[role];
      let bestCol = -1;
      let bestRank = Infinity;
      norm.forEach((h, col) => {
        if (!h || used.has(col)) return;
        const rank = words.findIndex((w) => (pass === "exact" ? h === w : h.includes(w)));
        if (rank >= 0 && rank < bestRank) {
          bestRank = rank;
          bestCol = col;
        }
      });
      if (bestCol >= 0) {
        mapping[role] = bestCol;
        used.add(bestCol);
      }
    }
  }
  return { mapping, headers: headerRow.map((h) => String(h ?? "")) };
}

/** Reject a mapping that cannot work: nothing to match by (name, id or an identifier), or an index outside the row. */
export function validateMapping(mapping: ColumnMapping, width: number): ColumnMapping {
  if (MATCH_ROLES.every((r) => mapping[r] === undefined)) {
    throw invalid("columns", NO_NAME_COLUMN);
  }
  const seen = new Map<number, InputRole>();
  for (const role of INPUT_ROLES) {
    const col = mapping[role];
    if (col === undefined) continue;
    const nr = Number.isInteger(col) ? String(col + 1) : "?";
    if (!Number.isInteger(col) || col < 0 || col >= width)
      throw invalid(`columns.${role}`, {
        de: `Spalte ${nr} liegt außerhalb der Tabelle`,
        en: `column ${nr} is outside the table`,
      });
    if (seen.has(col))
      throw invalid(`columns.${role}`, {
        de: `Spalte ${nr} ist schon belegt (${fieldLabel(seen.get(col)!, "de")})`,
        en: `column ${nr} is already used (${fieldLabel(seen.get(col)!, "en")})`,
      });
    seen.set(col, role);
  }
  return mapping;
}
