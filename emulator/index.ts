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
import type { CompanyAccess, Emulator } from "./emulator.ts";
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
  const startDate = checkedStartDate(options.startDate ?? new Date().toISOString().slice(0, 10));
  const world = new World(seed, options.companies ?? DEFAULT_COMPANIES, startDate);
  const accounts = new Accounts(seed);
  const demoKey = accounts.create(
    DEMO_CREDITS,
    options.demoKey ?? makeId("demo_", seed, "demo-key", 16).toLowerCase(),
    startDate,
  );
  const limits = rateLimitsOf(options.rateLimits);
  const limiter = new RateLimiter(limits, options.now ?? Date.now);
  const faults = new Faults(seed, options.faults);
  let doc: unknown;
  const handle = (req: HttpRequest): EmulatorResponse => handleRequest(core, req);

  const emu: Emulator = {
    handle: options.drift ? drifted(handle) : handle,
    demoKey,
    createKey: (credits = SIGNUP_CREDITS) => accounts.create(credits, undefined, world.today()),
    balance: (key) => accounts.balance(key),
    setBalance: (key, n) => accounts.setBalance(key, n),
    ledger: (key) => accounts.usage(key),
    clock: clockAccess(world, startDate),
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
    companies: companyAccess(world),
    openapi: () => (doc ??= openapiDocument(emu.companies.sharedPersonId() ?? undefined)),
    world,
    accounts,
  };
  const core: Core = {
    emu,
    world,
    accounts,
    limiter,
    faults,
    demoKey,
    maxBody: options.maxBodyBytes ?? MAX_BODY_BYTES,
  };
  return emu;
}

/** What answering a request reads and changes: the emulator's parts, built once by createEmulator. */
interface Core {
  emu: Emulator;
  world: World;
  accounts: Accounts;
  limiter: RateLimiter;
  faults: Faults;
  demoKey: string;
  maxBody: number;
}

/** The start date as given, or a throw: a bad one would skew every date the clock derives from it. */
function checkedStartDate(startDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !Number.isFinite(Date.parse(startDate)))
    throw new Error(`startDate must be YYYY-MM-DD, got ${startDate}`);
  return startDate;
}

/** The default limits with the options' overrides, bucket by bucket (a copy: the defaults stay as they are). */
function rateLimitsOf(overrides: EmulatorOptions["rateLimits"]): RateLimits {
  const limits: RateLimits = structuredClone(DEFAULT_RATE_LIMITS);
  for (const [b, cfg] of Object.entries(overrides ?? {})) Object.assign(limits[b as BucketName], cfg);
  return limits;
}

function clockAccess(world: World, startDate: string): Emulator["clock"] {
  return {
    startDate,
    today: () => world.clock.today(),
    day: () => world.clock.dayNumber(),
    advance: (days) => world.clock.advance(days),
    setDate: (iso) => world.clock.setDate(iso),
    preview: (days) => world.clock.preview(days),
  };
}

function companyAccess(world: World): CompanyAccess {
  return {
    count: world.companies.length,
    ids: () => world.companies.map((c) => c.id),
    findByName: (name) => (world.index.exact.get(normName(name)) ?? []).map((i) => nth(world.companies, i).id),
    withStatus: (s) => world.companies.filter((c) => world.status(c) === s).map((c) => c.id),
    duplicateNames: (limit = 20) => duplicateNames(world, limit),
    upcoming: (days, kind) => world.clock.preview(days).filter((e) => !kind || e.kind === kind),
    sharedPersonId: () => sharedPersonId(world),
  };
}

function duplicateNames(world: World, limit: number): { name: string; ids: string[] }[] {
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
}

function sharedPersonId(world: World): string | null {
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
}

function handleRequest(core: Core, req: HttpRequest): EmulatorResponse {
  const lang = langOf(req.headers ?? {});
  try {
    return route(core, req, lang);
  } catch (e) {
    if (e instanceof ApiError) return errorResponse(e, lang);
    // A bug must cost one answer, never the server.
    return errorResponse(new ApiError("SERVER_ERROR", "serverError"), lang);
  }
}

function route(core: Core, req: HttpRequest, lang: Lang): EmulatorResponse {
  const url = parseUrl(req.url);
  const method = String(req.method).toUpperCase();
  const special = routeOutsideTable(core, req, url, method, lang);
  if (special) return special;
  const found = matchEndpoint(method, url.pathname);
  const key = authenticate(core.accounts, req.headers ?? {}, found.route.ep.version === "v1");
  // The delay is drawn before the fault, so a seed gives the same sequence of both as before.
  const delayMs = core.faults.delay();
  const withDelay = (r: EmulatorResponse): EmulatorResponse => (delayMs > 0 ? { ...r, delayMs } : r);
  const faulted = injectedFault(core.faults, delayMs, withDelay, lang);
  if (faulted) return faulted;
  try {
    return withDelay(serveEndpoint(core, req, url, found, key, lang));
  } catch (e) {
    if (e instanceof ApiError) return withDelay(errorResponse(e, lang));
    throw e;
  }
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw, "http://emulator.invalid");
  } catch {
    throw new ApiError("INVALID_INPUT", "invalidField", { what: "url" }, "url");
  }
}

/** The answers that come before the path table: preflight, size limit, control routes and the API's documents. */
function routeOutsideTable(
  core: Core,
  req: HttpRequest,
  url: URL,
  method: string,
  lang: Lang,
): EmulatorResponse | undefined {
  const path = url.pathname;
  const { emu, maxBody } = core;
  if (method === "OPTIONS") return { status: 204, headers: {}, body: "" };
  // The length check first: counting bytes is only worth it for a body that could be too large.
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
  return undefined;
}

type Matched = Exclude<ReturnType<typeof matchRoute>, string>;

/** The one path table (shared/api/routes.ts), as the team server's proxy reads requests; a miss throws. */
function matchEndpoint(method: string, path: string): Matched {
  const found = matchRoute(method, path);
  if (typeof found !== "string") return found;
  if (found === "no-method") throw new ApiError("METHOD_NOT_ALLOWED", "methodNotAllowed", { what: method }, "method");
  if (/^\/(v2\/)?suggest\/?$/.test(path)) throw invalid("prefix", rule.atLeast(1, "string"));
  throw new ApiError("NOT_FOUND", "noRoute", { what: path }, "path");
}

/** The configured fault for this request, if one fires: a dropped connection, an error status or a burst limit. */
function injectedFault(
  faults: Faults,
  delayMs: number,
  withDelay: (r: EmulatorResponse) => EmulatorResponse,
  lang: Lang,
): EmulatorResponse | undefined {
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
  return undefined;
}

/** A matched endpoint's answer: its inputs checked, its rate bucket taken, its handler run and its credits charged. */
function serveEndpoint(
  core: Core,
  req: HttpRequest,
  url: URL,
  found: Matched,
  key: string,
  lang: Lang,
): EmulatorResponse {
  const { world, accounts, limiter, faults } = core;
  const ep = found.route.ep;
  const params = pathParams(found);
  checkQuery(url.searchParams, ep.query);
  if (ep.rateBucket) {
    const wait = limiter.take(key, ep.rateBucket);
    if (wait > 0) throw new ApiError("RATE_LIMITED", "rateLimited", { seconds: wait }, undefined, wait);
  }
  let body: unknown;
  let costInput;
  if (ep.id === "account") {
    body = accountView(core, key);
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
  // The account view again after the charge, so it counts the request that asked for it.
  if (ep.id === "account") body = accountView(core, key);
  return json(200, body, {
    "x-credits-charged": String(cost),
    "x-credits-remaining": String(Math.min(accounts.balance(key), faults.remaining())),
  });
}

/** The route's named path segments, decoded; a segment that does not decode is an invalid field. */
function pathParams(found: Matched): Record<string, string> {
  const params: Record<string, string> = {};
  found.route.names.forEach((n, k) => {
    try {
      params[n] = decodeURIComponent(found.values[k] ?? ""); // every name is a group of the route's pattern
    } catch {
      throw new ApiError("INVALID_INPUT", "invalidField", { what: n }, n);
    }
  });
  return params;
}

function accountView(core: Core, key: string) {
  const { accounts, world, faults, demoKey } = core;
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

function authenticate(accounts: Accounts, headers: Record<string, string>, allowBasic: boolean): string {
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
