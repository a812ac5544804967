/**
 * Old → new for a refreshed row: which of the chosen fields changed since
 * the row was last enriched, shown in one change column after the output
 * block ("Änderungen" / "Changes": `Adresse: Alte Str. 1 → Neue Str. 2`).
 *
 * Decision: a column, not cell notes, in every host. A column is written in
 * the same block write as the row's values, right after the fresh read that
 * placed them, so it lands on the row holding its input even when the user
 * sorts (issue 11's guarantee); it is plain text the CLI's CSV has too; it is
 * filterable ("show me what changed"). Notes would need an op per host with
 * limits of their own (Excel: notes need ExcelApi 1.18 and are per cell,
 * comments belong to a user and a thread), and the CSV has none.
 */
import { sheet, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import type { Cell } from "../core/index.ts";
import type { ColumnMapping } from "./columns.ts";
import type { FieldDef } from "./fields.ts";

/** The change column's header. */
export const CHANGES_COLUMN: Bilingual = { de: "Änderungen", en: "Changes" };

export interface ValueChange {
  field: string;
  header: Bilingual;
  old: string;
  new: string;
}

/** One refreshed row whose values changed. */
export interface RowChanges {
  id: string;
  name: string;
  /** yyyy-mm-dd the new values are as of. */
  asOf: string;
  changes: ValueChange[];
}

/** A cell as text for comparing and showing (numbers read back from a sheet or a CSV compare equal to the ones written). */
export const cellText = (c: Cell | undefined): string => (c === null || c === undefined ? "" : String(c).trim());

/** The fields whose value differs between the row's old and new values (same field order; the id column is the company, not a value). */
export function valueChanges(
  fields: readonly FieldDef[],
  before: readonly Cell[],
  after: readonly Cell[],
): ValueChange[] {
  const out: ValueChange[] = [];
  fields.forEach((f, k) => {
    if (f.id === "id") return;
    const o = cellText(before[k]);
    const n = cellText(after[k]);
    if (o !== n) out.push({ field: f.id, header: f.header, old: o, new: n });
  });
  return out;
}

/** "Adresse: Alte Str. 1 → Neue Str. 2; Mitarbeiter: 10 → 12" ("–" for an empty side); "" when nothing changed. */
export function changesText(changes: readonly ValueChange[], lang: Language): string {
  return changes.map((c) => `${c.header[lang]}: ${c.old || "–"} → ${c.new || "–"}`).join("; ");
}

/** The company's name for the log: the name field when chosen, else the row's own name cell. */
export function companyName(
  fields: readonly FieldDef[],
  values: readonly Cell[],
  input: readonly Cell[],
  mapping: ColumnMapping,
): string {
  const k = fields.findIndex((f) => f.id === "name");
  const fromFields = k >= 0 ? cellText(values[k]) : "";
  if (fromFields) return fromFields;
  return mapping.name !== undefined ? cellText(input[mapping.name]) : "";
}

const isChangesHeader = (c: Cell | undefined) => {
  const s = cellText(c);
  return s === CHANGES_COLUMN.de || s === CHANGES_COLUMN.en;
};

/** The change column's header cell: written when empty, kept when it is ours (either language), else the user's data is in the way. */
export function* ensureChangeColumn(sheetName: string, row: number, col: number, lang: Language): Operation<void> {
  const [[cell] = []] = yield* sheet<Cell[][]>({ op: "read", sheet: sheetName, row, col, rows: 1, cols: 1 });
  if (isChangesHeader(cell)) return;
  if (cellText(cell) !== "") {
    throw invalid("output", {
      de: `die Spalte für die Änderungen rechts der Anreicherung ist nicht leer („${cellText(cell).slice(0, 40)}“); bitte sie leeren oder die Tabelle verschieben`,
      en: `the column for the changes right of the enrichment is not empty ("${cellText(cell).slice(0, 40)}"); please clear it or move the table`,
    });
  }
  yield* sheet({ op: "write", sheet: sheetName, row, col, values: [[CHANGES_COLUMN[lang]]] });
}
