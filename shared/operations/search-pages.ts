/**
 * A search past one page: pages of 100 (`from` = 0, 100, 200 …, 1 credit
 * each, spec section 8.1) up to a limit and the service's offset limit, no
 * company twice. The price is known before anything is paid: one search page
 * tells the total, `searchPlan` then counts the pages still to fetch (pages
 * already in the cache cost nothing), and `searchPages` fetches exactly those
 * pages: what it spends is the plan's price.
 */
import type { CallSpec } from "../api/index.ts";
import { MAX_SIZE, type CompanySummary, type SearchRequest } from "../api/index.ts";
import { cacheGet, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";
import { callKey } from "./cache-key.ts";
import { isCacheable } from "./cached.ts";
import { search, type SearchResponse } from "./company.ts";
import type { OpContext } from "./context.ts";

/** Results asked for per page: the API's largest size. */
export const SEARCH_PAGE_SIZE = MAX_SIZE;
/** The API's largest `from` (SearchRequest): the last page starts there. */
export const MAX_SEARCH_OFFSET = 10_000;
/** The most results paging can reach: the last page's offset plus one page. */
export const MAX_SEARCH_RESULTS = MAX_SEARCH_OFFSET + SEARCH_PAGE_SIZE;

/** What is searched for: everything of a search request but its paging. */
export type SearchCriteria = Omit<SearchRequest, "size" | "from">;

/** Results a search for `limit` can return when the service finds `total`. */
export const reachable = (total: number, limit: number) => Math.max(0, Math.min(total, limit, MAX_SEARCH_RESULTS));
/** Pages of 100 that `n` results take (at least one: even an empty search is asked once). */
export const pagesFor = (n: number) => Math.max(1, Math.ceil(n / SEARCH_PAGE_SIZE));

const pageBody = (criteria: SearchCriteria, page: number): SearchRequest => ({
  ...criteria,
  size: SEARCH_PAGE_SIZE,
  ...(page > 0 ? { from: page * SEARCH_PAGE_SIZE } : {}),
});
const pageSpec = (body: SearchRequest): CallSpec => ({ endpoint: "search", body });

/** The first page of 100 (1 credit): it tells the total the price of the rest depends on. */
export function* searchFirstPage(ctx: OpContext, criteria: SearchCriteria): Operation<SearchResponse> {
  return yield* search(ctx, pageBody(criteria, 0));
}

export function checkLimit(limit: unknown, field = "limit"): number {
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_RESULTS) {
    throw invalid(
      field,
      got(rule.number({ value: 1, inclusive: true }, { value: MAX_SEARCH_RESULTS, inclusive: true }, true), limit),
    );
  }
  return limit;
}

export interface SearchPlan {
  /** Results the search will return (before leaving out excluded companies). */
  results: number;
  /** Pages to ask for. */
  pages: number;
  /** Pages not in the cache: the credits the search will spend. */
  toPay: number;
}

/**
 * The pages a search for `limit` results takes once the total is known, and
 * how many of them the cache does not hold (1 credit each). Sends nothing.
 */
export function* searchPlan(
  ctx: OpContext,
  criteria: SearchCriteria,
  total: number,
  limit: number,
): Operation<SearchPlan> {
  checkLimit(limit);
  const results = reachable(total, limit);
  const pages = pagesFor(results);
  const specs = Array.from({ length: pages }, (_, p) => pageSpec(pageBody(criteria, p)));
  let cached = 0;
  const first = specs[0];
  if (ctx.cacheTtlSeconds > 0 && first && isCacheable(first)) {
    const hits = yield* cacheGet(specs.map((s) => callKey(ctx.scope, ctx.client.language, s)));
    cached = hits.filter((h) => h !== null).length;
  }
  return { results, pages, toPay: pages - cached };
}

export interface PagedSearch {
  /** The service's count of matches (from the first page). */
  total: number;
  /** Distinct companies in the service's order, without the excluded ones. */
  companies: CompanySummary[];
  /** Pages asked for (cached ones included). */
  pages: number;
  /** Companies left out because `exclude` named them. */
  excluded: number;
  /** False when there were more matches than the limit (or the service's offset limit) let through. */
  complete: boolean;
}

/**
 * Fetch the pages `searchPlan` counted: page 0 first (it sets the total),
 * then the rest, never more than the plan's pages, so the spend is the
 * plan's price even when companies are registered while paging. Such a
 * registration shifts later pages by one and repeats a company: repeats are
 * dropped. `exclude` (say, "its id is in the list already") leaves companies out of the
 * answer; the service cannot leave them out, so their pages are paid.
 */
export function* searchPages(
  ctx: OpContext,
  criteria: SearchCriteria,
  limit: number,
  opts: { exclude?: (c: CompanySummary) => boolean; maxPages?: number } = {},
): Operation<PagedSearch> {
  checkLimit(limit);
  const first = yield* searchFirstPage(ctx, criteria);
  const total = first.total ?? first.companies.length;
  const results = reachable(total, limit);
  const pages = Math.min(pagesFor(results), opts.maxPages ?? Infinity);
  const seen = new Set<string>();
  const companies: CompanySummary[] = [];
  let excluded = 0;
  let wanted = results;
  const take = (list: CompanySummary[]) => {
    for (const c of list) {
      if (wanted <= 0) return;
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      wanted--;
      if (opts.exclude?.(c)) excluded++;
      else companies.push(c);
    }
  };
  take(first.companies);
  let asked = 1;
  for (let p = 1; p < pages && wanted > 0; p++) {
    const page = yield* search(ctx, pageBody(criteria, p));
    asked++;
    take(page.companies);
    if (page.companies.length < SEARCH_PAGE_SIZE) break;
  }
  return { total, companies, pages: asked, excluded, complete: results >= total };
}
