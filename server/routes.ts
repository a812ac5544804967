/**
 * The extension point: modules add routes, background services, health
 * checks and paid gates to the team server without editing its core. Each
 * exports a ServerExtension; the server's entry passes the list to
 * startTeamServer (server/extensions.ts, TEAM_SERVER_EXTENSIONS), so what a
 * server runs is what its caller named, never what happened to be imported.
 *
 *   export const schedules: ServerExtension = {
 *     name: "schedules",
 *     routes: [{ method: "*", prefix: "/schedules", auth: true, handler }],
 *     services: [{ name: "schedules", start: async (ctx) => async () => { … stop … } }],
 *     healthChecks: { schedules: async (ctx) => ({ ok: true }) },
 *   };
 *
 * (Migrations stay registered by their modules, db/migrations.ts: every command that opens the database
 * needs them, not only a serving one.) A route matches when the method is equal (or "*")
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
import type { PaidGate } from "./gates.ts";
import type { Logger } from "./log.ts";
import type { OutboundPolicy } from "./net/outbound.ts";
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
  /**
   * Where this server may send to user-given addresses (server/net/outbound.ts): check a URL with
   * registrationRefusal when it is registered, send with outboundFetch. Absent: STRICT_OUTBOUND.
   */
  outbound?: OutboundPolicy;
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
  /**
   * With `auth`: the requests that need no token all the same (a manifest, a preflight), told from the
   * method and the URL alone, since the token is checked before the body is read.
   */
  anonymous?: (method: string, url: URL) => boolean;
  /** Largest body this route reads (default: the server's, 1 MB; GET, HEAD and DELETE at most 16 KB). */
  maxBodyBytes?: number;
  handler: RouteHandler;
}

export interface Service {
  name: string;
  /** Start it; the function returned stops it (graceful shutdown awaits it). */
  start(ctx: ServiceContext): Promise<() => Promise<void>>;
}

export type HealthCheck = (ctx: ServiceContext) => Promise<{ ok: boolean; detail?: unknown }>;

/** What one module adds to the team server. */
export interface ServerExtension {
  name: string;
  routes?: readonly ExtraRoute[];
  services?: readonly Service[];
  /** Deep checks, run by GET /health?deep=1 for an admin (the plain /health stays cheap). */
  healthChecks?: Readonly<Record<string, HealthCheck>>;
  /** Checks that may refuse a paid request before anything is reserved (gates.ts). */
  paidGates?: readonly PaidGate[];
}

/** The extensions' routes, longest prefix first; a prefix of the core's or a malformed one is refused at start. */
export interface RouteTable {
  find(method: string, path: string): ExtraRoute | undefined;
}

function checkPrefix(route: ExtraRoute): void {
  if (!route.prefix.startsWith("/") || (route.prefix.length > 1 && route.prefix.endsWith("/")))
    throw new Error(`route prefix must start with / and not end with one: ${route.prefix}`);
  if (route.prefix === "/v2" || route.prefix.startsWith("/v2/") || route.prefix === "/health")
    throw new Error(`route prefix ${route.prefix} belongs to the server core`);
}

export function routeTable(extensions: readonly ServerExtension[]): RouteTable {
  const routes = extensions.flatMap((e) => e.routes ?? []);
  routes.forEach(checkPrefix);
  routes.sort((a, b) => b.prefix.length - a.prefix.length);
  return {
    find: (method, path) =>
      routes.find(
        (r) =>
          (r.method === "*" || r.method === method) &&
          (path === r.prefix || path.startsWith(r.prefix === "/" ? "/" : r.prefix + "/")),
      ),
  };
}

/** The extensions' deep health checks by name (a later extension's check of the same name wins, as before). */
export const healthChecksOf = (extensions: readonly ServerExtension[]): ReadonlyMap<string, HealthCheck> =>
  new Map(extensions.flatMap((e) => Object.entries(e.healthChecks ?? {})));
