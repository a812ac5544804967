/**
 * The price of a schedule's run before it runs ("run now" in the console
 * shows it first): the portfolio check's own preview (shared/monitor
 * checkPortfolio with preview: the free availability calls price the plan
 * exactly; what could not be priced counts at the most an entry can cost),
 * over the schedule's companies and its stored watermarks, read-only. Only
 * free calls leave the server: a paid call the preview would make is
 * answered here with an error, never bought, so pricing spends nothing.
 */
import { runAsync, type HttpRequest, type HttpResponse } from "../../shared/core/index.ts";
import { endpoint, Pacer, type RateLimitOverrides } from "../../shared/api/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import type { OpContext } from "../../shared/operations/index.ts";
import { CHANGES_HEADERS, CHANGES_SHEETS, checkPortfolio, PORTFOLIO_SHEET } from "../../shared/monitor/index.ts";
import { Workbook } from "../../shared/sheet/index.ts";
import type { AuthUser } from "../auth/tokens.ts";
import { specOf } from "../proxy.ts";
import type { ServiceContext } from "../routes.ts";
import * as store from "./store.ts";
import type { Schedule } from "./store.ts";

/** Never contacted: the preview's requests are answered by ctx.call (as run.ts's). */
const TEAM_BASE = "http://team-server.invalid";
const UNPACED_LIMIT = { burst: 1_000_000, perSecond: 1_000_000 };
const UNPACED: RateLimitOverrides = {
  suggest: UNPACED_LIMIT,
  resolve: UNPACED_LIMIT,
  availability: UNPACED_LIMIT,
  account: UNPACED_LIMIT,
};

export interface RunPrice {
  /** The run's price: exact for the priced companies, the most an entry can cost for the others. */
  credits: number;
  /** Companies the preview could not price (counted at their maximum). */
  unpriced: number;
  companies: number;
  /** The per-run budget, when the schedule has one (a run never spends past it). */
  budget: number | null;
}

const refused = (): HttpResponse => ({
  status: 403,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ error: { code: "FORBIDDEN", message: "a price preview buys nothing" } }),
});

export async function priceRun(ctx: ServiceContext, s: Schedule, owner: AuthUser, now: number): Promise<RunPrice> {
  const logSheet = CHANGES_SHEETS[s.language];
  const logged = await store.logRows(ctx.db, s.id);
  const book = new Workbook([
    { name: PORTFOLIO_SHEET, cells: [s.language === "de" ? ["Firmen-ID"] : ["ID"], ...s.companies.map((id) => [id])] },
    ...(logged.length ? [{ name: logSheet, cells: [CHANGES_HEADERS[s.language], ...logged] }] : []),
  ]);
  const api = async (r: HttpRequest): Promise<HttpResponse> => {
    const lang: Language = /^en/i.test(r.headers["Accept-Language"] ?? "") ? "en" : "de";
    const parsed = specOf(r.method, new URL(r.url), r.body ?? "", lang);
    if (!parsed.ok) return parsed.answer;
    // Free calls only (availability): the price is worked out without a credit spent.
    if (endpoint(parsed.spec.endpoint).billing !== "rate-limited") return refused();
    const a = await ctx.call(owner, parsed.spec, lang);
    return { status: a.status, headers: a.headers, body: a.body };
  };
  const opCtx: OpContext = {
    client: {
      apiKey: "team-server",
      baseUrl: TEAM_BASE,
      language: s.language,
      now: () => now,
      random: Math.random,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 0,
    maxBatch: 100,
    scope: `schedule-${s.id}`,
    rateLimits: UNPACED,
  };
  const summary = await runAsync(checkPortfolio(opCtx, { sheet: PORTFOLIO_SHEET, budget: s.budget, preview: true }), {
    http: (reqs) =>
      Promise.all(reqs.map((r) => (r.url.startsWith(TEAM_BASE + "/") ? api(r) : Promise.resolve(refused())))),
    sleep: (ms) => new Promise<void>((r) => setTimeout(r, Math.min(ms, 10_000)).unref()),
    cacheGet: async (keys) => keys.map(() => null),
    cachePut: async () => undefined,
    storeGet: (keys) => store.storeGet(ctx.db, s.id, keys),
    // A preview changes nothing of the schedule's state.
    storePut: async () => undefined,
    // The workbook is this preview's own copy in memory: whatever the check writes into it is dropped.
    sheet: async (req) => book.handle(req),
  });
  const credits = s.budget !== null ? Math.min(s.budget, summary.left.credits) : summary.left.credits;
  return { credits, unpriced: summary.left.unpriced, companies: s.companies.length, budget: s.budget };
}
