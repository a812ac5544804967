/**
 * The emulator of the company data API: `createEmulator(options)` builds the
 * data and answers requests in-process and synchronously (`handle`), so the
 * same core serves tests, the Apps Script harness (a synchronous UrlFetchApp
 * fake) and the network server (server.ts).
 */
import type { HttpRequest } from "../shared/core/index.ts";
import { ENDPOINTS, matchRoute } from "../shared/api/index.ts";
import { World } from "./world.ts";
import { Accounts, DEMO_CREDITS, SIGNUP_CREDITS } from "./billing.ts";
import { DEFAULT_RATE_LIMITS, RateLimiter, type BucketConfig, type BucketName, type RateLimits } from "./ratelimit.ts";
import { Faults, type FaultConfig } from "./faults.ts";
import { ApiError, errorResponse, invalid, json, type EmulatorResponse } from "./respond.ts";
import { rule } from "./rules.ts";
import { langOf, type Lang } from "./i18n.ts";
import { checkQuery } from "./validate.ts";
import { v2 } from "./routes/v2.ts";
import { v1 } from "./routes/v1.ts";
import { control } from "./routes/control.ts";
import type { Handler } from "./routes/context.ts";
import { daysBetween } from "./data/details.ts";
import { normName } from "./search/normalize.ts";
import { openapiDocument, docsPage } from "./openapi.ts";
import { makeId } from "./rng.ts";
import type { Emulator } from "./emulator.ts";
import { nth } from "./indexed.ts";
import { drifted } from "./drift.ts";

export type { EmulatorResponse } from "./respond.ts";
export type { FaultConfig } from "./faults.ts";
export type { RateLimits, BucketConfig, BucketName } from "./ratelimit.ts";
export type { Usage } from "./billing.ts";
export type { AppliedEvent, ScheduledKind } from "./clock.ts";
export type { CompanyAccess, Emulator } from "./emulator.ts";

export interface EmulatorOptions {
  /** Synthetic companies besides the 29 reference ones (default 20,000). */
  companies?: number;
  seed?: number;
  /** Fixed value of the demo key (default: derived from the seed). */
  demoKey?: string;
  /** Wall clock in ms for the token buckets (default Date.now). */
  now?: () => number;
  rateLimits?: Partial<Record<BucketName, Partial<BucketConfig>>>;
  faults?: Partial<FaultConfig>;
  /** The emulator's first "today", YYYY-MM-DD (default: the current UTC date). */
  startDate?: string;
  /** Largest accepted request body in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Answer as a service that drifted from the project's assumptions (drift.ts; issue 31). */
  drift?: boolean;
}

export const DEFAULT_COMPANIES = 20_000;
export const DEFAULT_SEED = 42;
export const MAX_BODY_BYTES = 1024 * 1024;

/** Handlers by endpoint id; a version 2 handler serves an id both versions name. */
const HANDLERS: Record<string, Handler> = { ...v1, ...v2 };
for (const e of ENDPOINTS) if (!HANDLERS[e.id]) throw new Error(`no handler for endpoint ${e.id}`);

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const seed = options.seed ?? DEFAULT_SEED;
  const now = options.now ?? Date.now;
  const startDate = options.startDate ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !Number.isFinite(Date.parse(startDate)))
    throw new Error(`startDate must be YYYY-MM-DD, got ${startDate}`);
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const world = new World(seed, options.companies ?? DEFAULT_COMPANIES, startDate);
  const accounts = new Accounts(seed);
  const demoKey = accounts.create(
    DEMO_CREDITS,
    options.demoKey ?? makeId("demo_", seed, "demo-key", 16).toLowerCase(),
    startDate,
  );
  const limits: RateLimits = structuredClone(DEFAULT_RATE_LIMITS);
  for (const [b, cfg] of Object.entries(options.rateLimits ?? {})) Object.assign(limits[b as BucketName], cfg);
  const limiter = new RateLimiter(limits, now);
  const faults = new Faults(seed, options.faults);
  let doc: unknown;

  const emu: Emulator = {
    handle: options.drift ? drifted(handle) : handle,
    demoKey,
    createKey: (credits = SIGNUP_CREDITS) => accounts.create(credits, undefined, world.today()),
    balance: (key) => accounts.balance(key),
    setBalance: (key, n) => accounts.setBalance(key, n),
    ledger: (key) => accounts.usage(key),
    clock: {
      startDate,
      today: () => world.clock.today(),
      day: () => world.clock.dayNumber(),
      advance: (days) => world.clock.advance(days),
      setDate: (iso) => world.clock.setDate(iso),
      preview: (days) => world.clock.preview(days),
    },
    faults: {
      get: () => ({ ...faults.config }),
      set: (p) => ({ ...faults.set(p) }),
      reset: () => ({ ...faults.reset() }),
    },
    rateLimits: limits,
    resetRateLimits: (key) => limiter.reset(key),
    scheduleEvent(id, at) {
      const c = world.byId(id);
      if (!c) throw new Error(`unknown company ${id}`);
      const day = at.day ?? daysBetween(startDate, at.date ?? "");
      world.clock.schedule(c.idx, day, at.kind);
      return day;
    },
    companies: {
      count: world.companies.length,
      ids: () => world.companies.map((c) => c.id),
      findByName: (name) => (world.index.exact.get(normName(name)) ?? []).map((i) => nth(world.companies, i).id),
      withStatus: (s) => world.companies.filter((c) => world.status(c) === s).map((c) => c.id),
      duplicateNames(limit = 20) {
        const out: { name: string; ids: string[] }[] = [];
        for (const [, list] of world.index.exact) {
          if (list.length > 1)
            out.push({
              name: nth(world.companies, nth(list, 0)).name,
              ids: list.map((i) => nth(world.companies, i).id),
            });
          if (out.length >= limit) break;
        }
        return out;
      },
      upcoming: (days, kind) => world.clock.preview(days).filter((e) => !kind || e.kind === kind),
      sharedPersonId() {
        const p = world.people;
        for (let k = 0; k < p.count; k++) {
          if (nth(p.personStart, k + 1) - nth(p.personStart, k) > 1)
            return (
              world
                .peopleView(nth(world.companies, nth(p.personCompany, nth(p.personStart, k))), "en")
                .find((x) => x.personId && world.personCompanies(x.personId)!.companies.length > 1)?.personId ?? null
            );
        }
        return null;
      },
    },
    openapi: () => (doc ??= openapiDocument(emu.companies.sharedPersonId() ?? undefined)),
    world,
    accounts,
  };
  return emu;

  function handle(req: HttpRequest): EmulatorResponse {
    const lang = langOf(req.headers ?? {});
    try {
      return route(req, lang);
    } catch (e) {
      if (e instanceof ApiError) return errorResponse(e, lang);
      // A bug must cost one answer, never the server.
      return errorResponse(new ApiError("SERVER_ERROR", "serverError"), lang);
    }
  }

  function route(req: HttpRequest, lang: Lang): EmulatorResponse {
    let url: URL;
    try {
      url = new URL(req.url, "http://emulator.invalid");
    } catch {
      throw new ApiError("INVALID_INPUT", "invalidField", { what: "url" }, "url");
    }
    const method = String(req.method).toUpperCase();
    const path = url.pathname;
    if (method === "OPTIONS") return { status: 204, headers: {}, body: "" };
    if (req.body !== undefined && req.body.length > maxBody / 3 && Buffer.byteLength(req.body, "utf8") > maxBody)
      throw new ApiError("PAYLOAD_TOO_LARGE", "payloadTooLarge", { max: maxBody }, "body");
    if (path === "/_emulator" || path.startsWith("/_emulator/"))
      return control(emu, method, path, url.searchParams, req.body);
    if (method === "GET" && (path === "/v2/openapi.json" || path === "/openapi.json")) return json(200, emu.openapi());
    if (method === "GET" && (path === "/v2/docs" || path === "/v2/docs/")) {
      return {
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8" },
        body: docsPage(emu.openapi(), lang),
      };
    }

    // The one path table (shared/api/routes.ts), as the team server's proxy reads requests.
    const found = matchRoute(method, path);
    if (typeof found === "string") {
      if (found === "no-method")
        throw new ApiError("METHOD_NOT_ALLOWED", "methodNotAllowed", { what: method }, "method");
      if (/^\/(v2\/)?suggest\/?$/.test(path)) throw invalid("prefix", rule.atLeast(1, "string"));
      throw new ApiError("NOT_FOUND", "noRoute", { what: path }, "path");
    }
    const ep = found.route.ep;
    const key = authenticate(req.headers ?? {}, ep.version === "v1");
    const delayMs = faults.delay();
    const withDelay = (r: EmulatorResponse): EmulatorResponse => (delayMs > 0 ? { ...r, delayMs } : r);

    const fault = faults.decide();
    if (fault.kind === "drop")
      return {
        status: 0,
        headers: {},
        body: "",
        networkError: "connection",
        drop: true,
        ...(delayMs ? { delayMs } : {}),
      };
    if (fault.kind === "status")
      return withDelay(
        errorResponse(
          new ApiError(
            fault.status === 500 ? "SERVER_ERROR" : "UNAVAILABLE",
            fault.status === 500 ? "serverError" : "unavailable",
          ),
          lang,
        ),
      );
    if (fault.kind === "burst")
      return withDelay(
        errorResponse(
          new ApiError("RATE_LIMITED", "rateLimited", { seconds: fault.retryAfter }, undefined, fault.retryAfter),
          lang,
        ),
      );

    try {
      const params: Record<string, string> = {};
      found.route.names.forEach((n, k) => {
        try {
          params[n] = decodeURIComponent(found.values[k] ?? ""); // every name is a group of the route's pattern
        } catch {
          throw new ApiError("INVALID_INPUT", "invalidField", { what: n }, n);
        }
      });
      checkQuery(url.searchParams, ep.query);
      if (ep.rateBucket) {
        const wait = limiter.take(key, ep.rateBucket);
        if (wait > 0) throw new ApiError("RATE_LIMITED", "rateLimited", { seconds: wait }, undefined, wait);
      }
      let body: unknown;
      let costInput;
      if (ep.id === "account") {
        body = accountView(key);
      } else {
        const result = HANDLERS[ep.id]!({ world, lang, key, ep, params, query: url.searchParams, body: req.body });
        body = result.body;
        costInput = result.cost;
      }
      const cost = ep.cost(costInput);
      const available = Math.min(accounts.balance(key), faults.remaining());
      if (cost > 0 && cost > available) {
        throw new ApiError(
          "INSUFFICIENT_CREDITS",
          "insufficientCredits",
          { cost, balance: Math.max(0, available) },
          undefined,
        );
      }
      accounts.charge(key, ep.id, cost, world.today());
      faults.charged += cost;
      if (ep.id === "account") body = accountView(key);
      return withDelay(
        json(200, body, {
          "x-credits-charged": String(cost),
          "x-credits-remaining": String(Math.min(accounts.balance(key), faults.remaining())),
        }),
      );
    } catch (e) {
      if (e instanceof ApiError) return withDelay(errorResponse(e, lang));
      throw e;
    }
  }

  function accountView(key: string) {
    const u = accounts.usage(key);
    const today = world.today();
    const month = today.slice(0, 7);
    let monthTotal = 0;
    for (const [d, n] of Object.entries(u.byDay)) if (d.startsWith(month)) monthTotal += n;
    const remaining = faults.remaining();
    return {
      credits: Math.min(accounts.balance(key), remaining),
      usage: { today: u.byDay[today] ?? 0, month: monthTotal, total: u.total, byEndpoint: u.credits },
      plan: key === demoKey ? "demo" : "self-service",
    };
  }

  function authenticate(headers: Record<string, string>, allowBasic: boolean): string {
    let auth = "";
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === "authorization") auth = v.trim();
    let key = "";
    const bearer = /^Bearer\s+(\S+)$/i.exec(auth);
    if (bearer) key = bearer[1] ?? "";
    const basic = /^Basic\s+(\S+)$/i.exec(auth);
    if (basic && allowBasic) {
      // The older listing's Basic form: the key as user name or as password.
      const decoded = Buffer.from(basic[1] ?? "", "base64").toString("utf8");
      const i = decoded.indexOf(":");
      const user = i >= 0 ? decoded.slice(0, i) : decoded;
      const pass = i >= 0 ? decoded.slice(i + 1) : "";
      key = accounts.has(user) ? user : pass;
    }
    if (!key || !accounts.has(key)) throw new ApiError("UNAUTHORIZED", "unauthorized");
    return key;
  }
}
