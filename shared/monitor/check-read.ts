/**
 * Step 1 of the portfolio check: read the table. Rows with an id are used as
 * they are; rows with a name are resolved first (free single resolve: names
 * are resolved once, the id is written into the ID column by the window).
 * Ambiguous names are never guessed: the row keeps its candidates for the ID
 * cell's dropdown.
 */
import type { CompanySummary } from "../api/index.ts";
import { sheet, type Operation } from "../core/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import { notAnId } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import { resolveMany } from "../operations/index.ts";
import type { Doubt } from "../operations/index.ts";
import { noSuchSheet, type Cell } from "../core/index.ts";
import { rowKey } from "../enrich/index.ts";
import { outcomeOf } from "./check-progress.ts";
import { idFromCell, layoutOf, queryOf, type Layout } from "./layout.ts";

/** "pending": a name whose free resolve failed for a reason a later call can get past. */
export type RowKind = "company" | "ambiguous" | "not_found" | "error" | "pending" | "empty";

export interface Row {
  r: number; // 0-based index in the table (0 = header)
  kind: RowKind;
  id: string | null;
  /** The ID cell must be rewritten (a resolved name, or a picked candidate label). */
  writeId: boolean;
  candidates: CompanySummary[];
  /** Ambiguous because the match was refused (operations/contradiction.ts): the reason, shown beside the pick. */
  doubt?: Doubt;
  error?: CompanyDataError;
  name: string | null;
  /** The id was in the row's ID cell (not resolved by this run): checked against the row's name. */
  fromCell?: boolean;
}

/** The table as the check read it at its start. */
export interface PortfolioTable {
  table: Cell[][];
  layout: Layout;
  /** Each row's key (portfolioKey) when the table was read: where a row is now is found by it. */
  keysThen: string[];
  /** One per table row below the header, in table order. */
  rows: Row[];
  /** The distinct companies, in table order. */
  ids: string[];
  /** The name a company's first row gives it (the change log's name when no profile is at hand). */
  nameOf: Map<string, string>;
}

/**
 * A row's identity in the portfolio (row-key.ts): its name, city, zip and
 * register, which the check never writes; a row with only an id is its id.
 */
export function portfolioKey(cells: readonly Cell[], layout: Layout): string {
  const { id: _id, ...input } = layout.input;
  const k = rowKey(cells, input);
  if (k) return k;
  const id = idFromCell(cells[layout.idCol] ?? null);
  if (id) return "id=" + id.id;
  // Something else in the ID cell (an error row): the text itself.
  const raw = String(cells[layout.idCol] ?? "").trim();
  return raw ? "cell=" + raw : "";
}

/**
 * Reads the portfolio and resolves its names.
 * @param final the run's last allowed call: a name whose resolve keeps failing is an error row now.
 */
export function* readPortfolio(ctx: OpContext, sheetName: string, final: boolean): Operation<PortfolioTable> {
  const table = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: sheetName });
  if (!table) throw noSuchSheet(sheetName);
  const header = table[0] ?? [];
  const layout: Layout = layoutOf(header, ctx.client.language);
  const keysThen = table.map((c) => portfolioKey(c, layout));
  const rows: Row[] = [];
  const toResolve: { row: Row; q: NonNullable<ReturnType<typeof queryOf>> }[] = [];
  table.slice(1).forEach((cells, i) => {
    const rawId = cells[layout.idCol] ?? null;
    const idCell = idFromCell(rawId);
    const name = layout.input.name !== undefined ? String(cells[layout.input.name] ?? "").trim() || null : null;
    const row: Row = { r: i + 1, kind: "empty", id: null, writeId: false, candidates: [], name };
    if (idCell) {
      row.kind = "company";
      row.id = idCell.id;
      row.writeId = !idCell.bare;
      row.fromCell = true;
    } else {
      const q = queryOf(cells, layout.input);
      if (q) toResolve.push({ row, q });
      else if (String(rawId ?? "").trim() !== "") {
        // Something in the ID cell that is no company id, and no name to resolve: say so, never skip the row.
        row.kind = "error";
        row.error = invalid("id", notAnId("company", String(rawId).trim()), { de: "Spalte ID", en: "ID column" });
      }
    }
    rows.push(row);
  });
  if (toResolve.length) {
    const resolved = yield* resolveMany(
      ctx,
      toResolve.map((t) => t.q),
      { mode: "free" },
    );
    toResolve.forEach(({ row }, k) => {
      const res = resolved[k];
      if (res?.status === "matched" && res.match) {
        row.kind = "company";
        row.id = res.match.id;
        row.writeId = true;
      } else if (res?.status === "ambiguous") {
        row.kind = "ambiguous";
        row.candidates = res.candidates;
        if (res.doubt) row.doubt = res.doubt;
      } else if (res?.status === "not_found") row.kind = "not_found";
      else {
        // No answer for the row at all is an internal failure, never a silently skipped row.
        const e = res?.error ?? new CompanyDataError("INTERNAL");
        const o = outcomeOf(e, final);
        row.kind = o === "left" || o === "stop" ? "pending" : o === "notFound" ? "not_found" : "error";
        row.error = e;
      }
    });
  }
  const ids = [...new Set(rows.flatMap((r) => (r.id ? [r.id] : [])))];
  const nameOf = new Map<string, string>();
  for (const r of rows) if (r.id && r.name && !nameOf.has(r.id)) nameOf.set(r.id, r.name);
  return { table, layout, keysThen, rows, ids, nameOf };
}
