/**
 * The extension point: modules add routes, background services, health
 * checks and migrations to the team server without editing its core.
 *
 *   registerRoute({ method: "GET", prefix: "/schedules", auth: true, handler })
 *   registerService({ name: "schedules", start: async (ctx) => async () => { … stop … } })
 *   registerHealthCheck("reconcile", async (ctx) => ({ ok: true }))
 *   registerMigration({ id: 100, name: "…", sql: "…" })   // db/migrations.ts, numbers by owner
 *
 * A module calls these at import time; server/extensions.ts imports every
 * module (one line each). A route matches when the method is equal (or "*")
 * and the path is the prefix or starts with prefix + "/"; the longest prefix
 * wins, and extension routes are tried before the /v2 proxy. With `auth`
 * the request carries a valid personal token (401 otherwise) and ctx.user is
 * that user; with `auth: "admin"` the token must also be an admin token
 * (`token create --admin`; 403 otherwise). ctx.call() is the way to the API: the same path as a /v2
 * request (shared answers, budgets, ledger, the team's pacer), billed to the
 * given user.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallSpec } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { AuthUser } from "./auth/tokens.ts";
import type { Db } from "./db/db.ts";
import type { Logger } from "./log.ts";
import type { Answer, CallOptions } from "./purchase.ts";
import type { Upstream } from "./upstream.ts";

export interface ServiceContext {
  db: Db;
  log: Logger;
  /** This process's name (host:pid:start), as in the ledger and in claims. */
  process: string;
  /** One call to the API for `user`, through the shared answers, budgets and ledger. */
  call(user: AuthUser, spec: CallSpec, lang: Language, opts?: CallOptions): Promise<Answer>;
  /** Run a sans-IO operation with the team's key and pacer (free calls only: the doctor's; see Upstream.operate). */
  operate: Upstream["operate"];
}

export interface ServerContext extends ServiceContext {
  /** The authenticated user (routes with auth: true or "admin"), else null. */
  user: AuthUser | null;
  /** The user's language: ?lang=, else Accept-Language, else German. */
  lang: Language;
  url: URL;
  /** The request body as text ("" for none); already read, at most the server's body limit. */
  body: string;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, ctx: ServerContext) => Promise<void>;

export interface ExtraRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "*";
  prefix: string;
  /** false: anyone; true: a valid personal token (401); "admin": an admin token (401 without a token, 403 with another). */
  auth: boolean | "admin";
  handler: RouteHandler;
}

export interface Service {
  name: string;
  /** Start it; the function returned stops it (graceful shutdown awaits it). */
  start(ctx: ServiceContext): Promise<() => Promise<void>>;
}

export type HealthCheck = (ctx: ServiceContext) => Promise<{ ok: boolean; detail?: unknown }>;

const routes: ExtraRoute[] = [];
const services: Service[] = [];
const checks = new Map<string, HealthCheck>();

export function registerRoute(route: ExtraRoute): void {
  if (!route.prefix.startsWith("/") || (route.prefix.length > 1 && route.prefix.endsWith("/")))
    throw new Error(`route prefix must start with / and not end with one: ${route.prefix}`);
  if (route.prefix === "/v2" || route.prefix.startsWith("/v2/") || route.prefix === "/health")
    throw new Error(`route prefix ${route.prefix} belongs to the server core`);
  routes.push(route);
  routes.sort((a, b) => b.prefix.length - a.prefix.length);
}

export function registerService(service: Service): void {
  services.push(service);
}

/** Deep checks, run by GET /health?deep=1 (the plain /health stays cheap). */
export function registerHealthCheck(name: string, check: HealthCheck): void {
  checks.set(name, check);
}

export function routeFor(method: string, path: string): ExtraRoute | undefined {
  return routes.find(
    (r) =>
      (r.method === "*" || r.method === method) &&
      (path === r.prefix || path.startsWith(r.prefix === "/" ? "/" : r.prefix + "/")),
  );
}

export const registeredServices = (): readonly Service[] => services;
export const healthChecks = (): ReadonlyMap<string, HealthCheck> => checks;
