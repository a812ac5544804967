/** account, estimate, search, insertSearchResults, similar. */
import type { Operation } from "../core/effects.ts";
import { sheet } from "../core/effects.ts";
import { invalid } from "../core/errors.ts";
import { getAccount, getPeers, getSimilar, search, MAX_SIMILAR_IDS } from "../operations/company.ts";
import { estimate, type PlannedOperation } from "../credits/estimate.ts";
import { readLedger } from "../credits/ledger.ts";
import { budgetStatus } from "../credits/budget.ts";
import { MAX_SIZE } from "../api/schemas.ts";
import { SEARCH_DEFAULTS } from "../api/defaults.ts";
import type { SelectionInfo } from "../sheet/protocol.ts";
import { loadSettings } from "./settings.ts";
import { withSession } from "./session.ts";
import { anyText, list, oneOf, optNum, record } from "./input.ts";
import { readCriteria } from "./search-methods.ts";
import { companyRow, defaultColumns, readColumns, readCompanyRow, rowsBlock } from "./rows.ts";
import { type AccountView, type AppDeps, type CostView, type InsertOutput, type SearchOutput, type SimilarOutput } from "./protocol.ts";

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
      ledger: ledger.map((e) => ({ day: e.day, operation: e.operation, credits: e.credits, requests: e.requests, runs: e.runs })),
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
    return { total: res.total ?? null, companies: res.companies.map(companyRow), credits: s.spent.credits };
  });
}

/** Write chosen companies at the cursor (the selection's top-left cell), as text. */
export function* insertSearchResultsMethod(_deps: AppDeps, input: unknown): Operation<InsertOutput> {
  const o = record(input);
  const companies = list(o, "companies", readCompanyRow, { min: 1, max: 1000 });
  const columns = readColumns(o.columns, "columns") ?? defaultColumns(companies);
  const header = o.header === undefined ? true : o.header === true;
  const { language } = yield* loadSettings();
  const sel = yield* sheet<SelectionInfo>({ op: "selection" });
  const values = rowsBlock(companies, columns, header, language);
  yield* sheet({ op: "write", sheet: sel.sheet, row: sel.row, col: sel.col, values });
  return { sheet: sel.sheet, row: sel.row, col: sel.col, rows: values.length, cols: columns.length };
}

export function* similarMethod(deps: AppDeps, input: unknown): Operation<SimilarOutput> {
  const o = record(input);
  const ids = list(o, "ids", anyText(20), { min: 1, max: MAX_SIMILAR_IDS }).map((s) => s.trim().toUpperCase());
  const kind = oneOf(o, "kind", ["similar", "peers"] as const, "similar");
  const size = optNum(o, "size", 1, MAX_SIZE, { integer: true });
  return yield* withSession(deps, kind, function* (s) {
    const res = kind === "peers" ? yield* getPeers(s.ctx, ids[0], size) : yield* getSimilar(s.ctx, ids, size);
    return { companies: res.companies.map(companyRow), credits: s.spent.credits };
  });
}
