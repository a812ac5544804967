/**
 * The Search panel's filtered search past one page: the criteria the panel
 * sends (text, place, filters) read once, the price of "insert all N" before
 * anything is paid, and the insert itself, which refuses to spend more than
 * the price the user saw.
 */
import type { Operation } from "../core/index.ts";
import { sheet } from "../core/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import { COMPANY_ID_PATTERN } from "../api/index.ts";
import { SEARCH_DEFAULTS } from "../api/index.ts";
import { estimate } from "./estimate.ts";
import { buildFilters, type FilterInput } from "../operations/index.ts";
import { MAX_SEARCH_RESULTS, searchPages, searchPlan, type SearchCriteria } from "../operations/index.ts";
import type { Cell, SelectionInfo } from "../core/index.ts";
import { loadSettings } from "./settings.ts";
import { withSession } from "./session.ts";
import { num, optNum, optText, record, text } from "./input.ts";
import { companyRow, defaultColumns, rowsBlock } from "./rows.ts";
import { auditInsert } from "./insert-audit.ts";
import type { AppDeps, InsertAllOutput, SearchAllPriceView } from "./protocol.ts";

/** The filter fields the panel sends, all text (the filters module checks them). */
const FILTER_FIELDS = ["industry", "state", "sizeClass", "legalForm", "foundedAfter", "foundedBefore"] as const;

function readFilterInput(v: unknown): FilterInput {
  const o = record(v, "filters");
  const out: FilterInput = {};
  for (const k of FILTER_FIELDS) {
    const t = optText(o, k, { max: 1000 });
    if (t) out[k] = t;
  }
  if (o.activeOnly !== undefined && o.activeOnly !== null && typeof o.activeOnly !== "boolean")
    throw invalid("activeOnly", { de: "erwartet ja oder nein", en: "expected yes or no" });
  if (o.activeOnly === true) out.activeOnly = true;
  return out;
}

/**
 * What to search for, as the panel gives it: text, an optional place with a
 * radius, optional filters. Empty text is allowed when a place or a filter
 * narrows the search (then "everything that matches").
 */
export function readCriteria(o: Record<string, unknown>, now: () => number): SearchCriteria {
  const query = text(o, "query", { max: 500 });
  const place = optText(o, "place", { max: 200 });
  const radiusKm = optNum(o, "radiusKm", 0.1, 500);
  const f = readFilterInput(o.filters);
  // The clock is read only for the founding dates (the age bounds are measured from now).
  const filters = buildFilters(f, f.foundedAfter || f.foundedBefore ? now() : 0);
  if (!query && !place && !filters)
    throw invalid("query", {
      de: "bitte einen Suchtext, einen Ort oder einen Filter angeben",
      en: "please give a search text, a place or a filter",
    });
  return {
    query,
    ...(place ? { near: { place, radiusKm: radiusKm ?? SEARCH_DEFAULTS.radiusKm } } : {}),
    ...(filters ? { filters } : {}),
  };
}

/** The price of "insert all N": pages of 100 not in the cache, 1 credit each. Sends nothing. */
export function* searchAllPriceMethod(deps: AppDeps, input: unknown): Operation<SearchAllPriceView> {
  const o = record(input);
  const total = num(o, "total", 0, 1e9, { integer: true });
  const criteria = readCriteria(o, () => deps.now());
  return yield* withSession(deps, "search", function* (s) {
    const plan = yield* searchPlan(s.ctx, criteria, total, MAX_SEARCH_RESULTS);
    return { ...estimate({ kind: "search", count: plan.toPay }), results: plan.results, pages: plan.pages };
  });
}

/** Company ids anywhere in a sheet: the companies a standing list already has. */
function* idsInSheet(name: string): Operation<Set<string>> {
  const values = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: name });
  if (values === null)
    throw new CompanyDataError("INVALID_INPUT", {
      field: "excludeSheet",
      detail: { de: `kein Blatt „${name}“`, en: `no sheet "${name}"` },
    });
  const ids = new Set<string>();
  for (const row of values)
    for (const v of row) {
      const t = typeof v === "string" ? v.trim().toUpperCase() : "";
      if (COMPANY_ID_PATTERN.test(t)) ids.add(t);
    }
  return ids;
}

/**
 * Every result (up to the service's limit) written at the cursor, pages of
 * 100. `credits` is the price the user confirmed: when the plan now costs
 * more (the cache expired, the total grew), nothing is spent and the panel
 * shows the new price. `excludeSheet` leaves out companies whose id is
 * already in that sheet (their pages are still paid: the service has no
 * exclusion filter).
 */
export function* insertAllSearchResultsMethod(deps: AppDeps, input: unknown): Operation<InsertAllOutput> {
  const o = record(input);
  const total = num(o, "total", 0, 1e9, { integer: true });
  const confirmed = num(o, "credits", 0, MAX_SEARCH_RESULTS, { integer: true });
  const excludeSheet = optText(o, "excludeSheet", { max: 100 });
  const criteria = readCriteria(o, () => deps.now());
  const { language } = yield* loadSettings();
  return yield* withSession(deps, "search", function* (s) {
    const plan = yield* searchPlan(s.ctx, criteria, total, MAX_SEARCH_RESULTS);
    if (plan.toPay > confirmed) {
      throw invalid("credits", {
        de: `Der Preis hat sich geändert: jetzt ${plan.toPay} Credits statt ${confirmed}. Bitte erneut bestätigen.`,
        en: `The price has changed: now ${plan.toPay} credits instead of ${confirmed}. Please confirm again.`,
      });
    }
    const exclude = excludeSheet ? yield* idsInSheet(excludeSheet) : undefined;
    const sel = yield* sheet<SelectionInfo>({ op: "selection" });
    // Never more pages than the confirmed plan, whatever the total is by now.
    const res = yield* searchPages(s.ctx, criteria, MAX_SEARCH_RESULTS, {
      exclude: exclude && ((c) => exclude.has(c.id)),
      maxPages: plan.pages,
    });
    const rows = res.companies.map(companyRow);
    const columns = defaultColumns(rows);
    const values = rowsBlock(rows, columns, true, language);
    // The cells the block covers, for the audit (shared/undo/: the insert can be taken back).
    const old = yield* sheet<Cell[][]>({
      op: "read",
      sheet: sel.sheet,
      row: sel.row,
      col: sel.col,
      rows: values.length,
      cols: columns.length,
      fresh: true,
    });
    yield* auditInsert(deps, { ...sel, columns, old, values }, s.spent.credits);
    yield* sheet({ op: "write", sheet: sel.sheet, row: sel.row, col: sel.col, values });
    return {
      sheet: sel.sheet,
      row: sel.row,
      col: sel.col,
      rows: values.length,
      cols: columns.length,
      total: res.total,
      companies: rows.length,
      excluded: res.excluded,
      credits: s.spent.credits,
      complete: res.complete,
    };
  });
}
