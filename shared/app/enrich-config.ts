/**
 * The sidebar's enrichment settings (EnrichConfig, what the user chose:
 * block, columns, fields, mode, rerun rule) checked and turned into the
 * job's SheetJobSpec, and the column mapping between the protocol's view
 * (every role, null when unmapped) and the job's (mapped roles only).
 */
import { invalid } from "../core/index.ts";
import { FIELDS, selectFields, type ColumnMapping, type Rerun, type SheetJobSpec } from "../enrich/index.ts";
import { list, num, oneOf, record, text } from "./input.ts";
import type { RefreshTable } from "../refresh/index.ts";
import type { ColumnRole, EnrichConfig, RerunMode } from "./protocol.ts";

const ROLES: readonly ColumnRole[] = ["name", "city", "zip", "register", "id", "website", "vatId", "lei"];
/** Rows per chunk: each chunk is written to the sheet before the next, so progress shows and a stop loses little. */
export const UI_CHUNK_SIZE = 20;

/** The job's mapping as the protocol shows it: every role, null where no column is mapped. */
export const mappingView = (m: ColumnMapping): Record<ColumnRole, number | null> =>
  Object.fromEntries(ROLES.map((r) => [r, m[r] ?? null])) as Record<ColumnRole, number | null>;

/** The protocol's mapping as the job takes it: the mapped roles only. */
export function toMapping(m: Record<ColumnRole, number | null>): ColumnMapping {
  const out: ColumnMapping = {};
  for (const r of ROLES) if (m[r] !== null) out[r] = m[r]!;
  return out;
}

export const toRerun = (r: RerunMode): Rerun =>
  r.kind === "all" ? "all" : r.kind === "newOrFailed" ? "new-or-failed" : { olderThanDays: r.days };

/** The config a method received, checked field by field (errors name the field, in both languages). */
export function readConfig(input: unknown): EnrichConfig {
  const o = record(input);
  const sheetName = text(o, "sheet", { min: 1, max: 200 });
  const headerRow = num(o, "headerRow", 1, 1_000_000, { integer: true });
  const col = num(o, "col", 1, 18_278, { integer: true });
  // rows counts the data rows under the header: none is a selection problem, not a number the user typed.
  if (o.rows === 0)
    throw invalid("selection", {
      de: "sie enthält nur die Kopfzeile, keine Datenzeilen; bitte die Tabelle mit ihren Zeilen markieren",
      en: "it holds only the header row, no data rows; please select the table with its rows",
    });
  const rows = num(o, "rows", 1, 100_000, { integer: true });
  const cols = num(o, "cols", 1, 500, { integer: true });
  const m = record(o.mapping, "mapping");
  const mapping = {} as Record<ColumnRole, number | null>;
  for (const r of ROLES) {
    const v = m[r];
    mapping[r] = v === null || v === undefined ? null : num(m, r, 0, cols - 1, { integer: true });
  }
  const fields = list(
    o,
    "fields",
    (v, f) => {
      if (typeof v !== "string") throw invalid(f, { de: "erwartet einen Feldnamen", en: "expected a field name" });
      return v;
    },
    { max: FIELDS.length },
  );
  selectFields(fields); // unknown ids → INVALID_INPUT naming "fields"
  const mode = oneOf(o, "mode", ["batch", "free"] as const, "batch");
  const rr = record(o.rerun ?? { kind: "newOrFailed" }, "rerun");
  const kind = oneOf(rr, "kind", ["all", "newOrFailed", "olderThan"] as const);
  const rerun: RerunMode =
    kind === "olderThan" ? { kind, days: num(rr, "days", 0, 36_500, { integer: true }) } : { kind };
  return { sheet: sheetName, headerRow, col, rows, cols, mapping, fields, mode, rerun };
}

/** The job's spec of a config: the block with its header row, in the sidebar's chunks. */
export function specOf(c: EnrichConfig): SheetJobSpec {
  return {
    sheet: c.sheet,
    row: c.headerRow,
    col: c.col,
    rows: c.rows + 1,
    cols: c.cols,
    mapping: toMapping(c.mapping),
    fields: c.fields,
    options: { mode: c.mode, rerun: toRerun(c.rerun), chunkSize: UI_CHUNK_SIZE },
  };
}

/** The scheduled refresh's table of a config (the Enrich panel's "Keep current"): the job's block and mapping, with its mode. */
export function refreshTableOf(c: EnrichConfig): RefreshTable {
  const { sheet, row, col, rows, cols, fields } = specOf(c);
  return { sheet, row, col, rows, cols, mapping: toMapping(c.mapping), fields, mode: c.mode };
}
