/** account, estimate, search, insertSearchResults, similar. */
import type { Operation } from "../core/index.ts";
import { sheet } from "../core/index.ts";
import { getAccount, getPeers, getSimilar, search, MAX_SIMILAR_IDS } from "../operations/index.ts";
import { estimate, type PlannedOperation } from "./estimate.ts";
import { readLedger } from "../credits/index.ts";
import { budgetStatus } from "../credits/index.ts";
import { MAX_SIZE } from "../api/index.ts";
import { SEARCH_DEFAULTS } from "../api/index.ts";
import type { Cell, SelectionInfo } from "../core/index.ts";
import { loadSettings } from "./settings.ts";
import { withSession } from "./session.ts";
import { anyText, list, oneOf, optNum, record } from "./input.ts";
import { readCriteria } from "./search-methods.ts";
import { companyRow, defaultColumns, readColumns, readCompanyRow, rowsBlock } from "./rows.ts";
import { auditInsert } from "./insert-audit.ts";
import {
  type AccountView,
  type AppDeps,
  type CompanyRow,
  type CostView,
  type InsertOutput,
  type SearchOutput,
  type SimilarOutput,
} from "./protocol.ts";

/** Proximity without a radius: the same circle as COMPANY_SEARCH's (SEARCH_DEFAULTS). */
export const DEFAULT_RADIUS_KM = SEARCH_DEFAULTS.radiusKm;

export function* accountMethod(deps: AppDeps, _input: unknown): Operation<AccountView> {
  return yield* withSession(deps, "account", function* ({ ctx, settings }) {
    const account = yield* getAccount(ctx);
    const ledger = yield* readLedger(ctx);
    const budget = yield* budgetStatus(ctx, settings.formulaDailyBudget);
    return {
      credits: account.credits,
      plan: account.plan ?? null,
      usageToday: account.usage?.today ?? null,
      usageMonth: account.usage?.month ?? null,
      user: account.user ?? null,
      ledger: ledger.map((e) => ({
        day: e.day,
        operation: e.operation,
        credits: e.credits,
        requests: e.requests,
        runs: e.runs,
      })),
      budget: { limit: settings.formulaDailyBudget, usedToday: budget.spent },
    };
  });
}

/** Any planned operation (shared/credits/estimate.ts); no key needed, nothing is sent. */
export function* estimateMethod(_deps: AppDeps, input: unknown): Operation<CostView> {
  const o = record(input);
  const op = record(o.operation, "operation");
  return estimate(op as unknown as PlannedOperation);
}

export function* searchMethod(deps: AppDeps, input: unknown): Operation<SearchOutput> {
  const o = record(input);
  const size = optNum(o, "size", 1, MAX_SIZE, { integer: true });
  // Checked before the session: a bad search says so even without a key.
  const criteria = readCriteria(o, () => deps.now());
  return yield* withSession(deps, "search", function* (s) {
    // Size is sent even when it is the service's default too, so what the UI's placeholder says is what is asked for.
    const res = yield* search(s.ctx, { ...criteria, size: size ?? SEARCH_DEFAULTS.size });
    const companies = res.companies.map(companyRow);
    return {
      total: res.total ?? null,
      companies: criteria.near ? byDistance(companies) : companies,
      credits: s.spent.credits,
    };
  });
}

/**
 * A radius search reads nearest first: the service ranks a page by relevance,
 * the user asked "around this place". Stable, so equal distances keep the
 * service's order; companies without a distance come last.
 */
export function byDistance(rows: CompanyRow[]): CompanyRow[] {
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (a.r.distanceKm ?? Infinity) - (b.r.distanceKm ?? Infinity) || a.i - b.i)
    .map((x) => x.r);
}

/**
 * Write chosen companies at the cursor (the selection's top-left cell), as
 * text, never over the user's cells without asking: when the block would
 * cover non-empty cells nothing is written and the answer says how many
 * (`wouldOverwrite`); the UI then asks, and calls again with `overwrite`
 * set to that count (written only if the count is still the same: the user
 * may have typed since) or with `place: "below"`, which writes under the
 * sheet's last used row, where every cell is empty.
 */
export function* insertSearchResultsMethod(deps: AppDeps, input: unknown): Operation<InsertOutput> {
  const o = record(input);
  const companies = list(o, "companies", readCompanyRow, { min: 1, max: 1000 });
  const columns = readColumns(o.columns, "columns") ?? defaultColumns(companies);
  const header = o.header === undefined ? true : o.header === true;
  const place = oneOf(o, "place", ["cursor", "below"] as const, "cursor");
  const confirmed = optNum(o, "overwrite", 1, 1_000_000, { integer: true });
  const { language } = yield* loadSettings();
  const sel = yield* sheet<SelectionInfo>({ op: "selection" });
  const values = rowsBlock(companies, columns, header, language);
  const done = (row: number): InsertOutput => ({
    sheet: sel.sheet,
    row,
    col: sel.col,
    rows: values.length,
    cols: columns.length,
  });
  if (place === "below") {
    const all = (yield* sheet<Cell[][] | null>({ op: "readAll", sheet: sel.sheet, fresh: true })) ?? [];
    let last = all.length;
    while (last > 0 && (all[last - 1] ?? []).every(isEmptyCell)) last--;
    // One empty row between the user's data and the inserted block.
    const row = last === 0 ? 1 : last + 2;
    yield* auditInsert(deps, { sheet: sel.sheet, row, col: sel.col, columns, old: [], values }, 0);
    yield* sheet({ op: "write", sheet: sel.sheet, row, col: sel.col, values, now: true });
    return done(row);
  }
  const target = yield* sheet<Cell[][]>({
    op: "read",
    sheet: sel.sheet,
    row: sel.row,
    col: sel.col,
    rows: values.length,
    cols: columns.length,
    fresh: true,
  });
  const filled = target.reduce((n, r) => n + r.filter((c) => !isEmptyCell(c)).length, 0);
  if (filled > 0 && confirmed !== filled) return { ...done(sel.row), rows: 0, cols: 0, wouldOverwrite: filled };
  yield* auditInsert(deps, { sheet: sel.sheet, row: sel.row, col: sel.col, columns, old: target, values }, 0);
  yield* sheet({ op: "write", sheet: sel.sheet, row: sel.row, col: sel.col, values, now: true });
  return done(sel.row);
}

const isEmptyCell = (c: Cell | undefined) => c === "" || c === null || c === undefined;

export function* similarMethod(deps: AppDeps, input: unknown): Operation<SimilarOutput> {
  const o = record(input);
  const ids = list(o, "ids", anyText(20), { min: 1, max: MAX_SIMILAR_IDS }).map((s) => s.trim().toUpperCase());
  const kind = oneOf(o, "kind", ["similar", "peers"] as const, "similar");
  const size = optNum(o, "size", 1, MAX_SIZE, { integer: true });
  return yield* withSession(deps, kind, function* (s) {
    const res =
      kind === "peers"
        ? yield* getPeers(s.ctx, ids[0]!, size) /* list() required at least one id */
        : yield* getSimilar(s.ctx, ids, size);
    return { companies: res.companies.map(companyRow), credits: s.spent.credits };
  });
}
