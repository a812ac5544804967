/**
 * Building output matrices: error cells, list tables, stacking several lists
 * under one header, and the final squaring-off every host needs (Excel
 * rejects ragged arrays; Sheets rejects an empty one).
 */
import { toCompanyDataError } from "../core/index.ts";
import type { Language } from "../i18n/index.ts";
import type { CellError, CellOut } from "./types.ts";

export function errorCell(e: unknown, lang: Language): CellError {
  const err = toCompanyDataError(e);
  return { error: err.code, message: err.text(lang) };
}

/** A value from the API as a cell: missing → "", numbers and booleans as they are. */
export function cell(v: unknown): CellOut {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isFinite(v) ? v : "";
  if (typeof v === "string" || typeof v === "boolean") return v;
  return "";
}

/** A localised label ({code, name}) as text. */
export const labelText = (l: { code: string; name?: string | null } | null | undefined): string =>
  l ? (l.name ?? l.code) : "";

/** Make the matrix rectangular; never empty. */
export function squared(rows: CellOut[][]): CellOut[][] {
  if (rows.length === 0) return [[""]];
  const width = Math.max(1, ...rows.map((r) => r.length));
  return rows.map((r) => (r.length === width ? r : [...r, ...new Array<CellOut>(width - r.length).fill("")]));
}

/** One input's list result: rows, or an error for that input. */
export type ListPart = { input: string; rows: CellOut[][] } | { input: string; error: unknown };

/**
 * Lists of several inputs under one header whose first column names the
 * input; a single input gets just its header and rows.
 */
export function stackLists(
  header: string[],
  inputHeader: string,
  parts: ListPart[],
  lang: Language,
  stacked: boolean,
): CellOut[][] {
  if (!stacked) {
    const p = parts[0];
    if (!p) return [header];
    if ("error" in p) return [[errorCell(p.error, lang)]];
    return [header, ...p.rows];
  }
  const out: CellOut[][] = [[inputHeader, ...header]];
  for (const p of parts) {
    if ("error" in p) out.push([p.input, errorCell(p.error, lang)]);
    else for (const r of p.rows) out.push([p.input, ...r]);
  }
  return out;
}
