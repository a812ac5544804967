/**
 * What the team server's front door (the route modules in this folder and
 * the dispatcher) shares: the server's options, the context its extensions
 * see, their routes and health checks, and whether it is closing.
 */
import type { OutboundPolicy } from "../net/outbound.ts";
import type { PurchaseContext } from "../purchase.ts";
import type { HealthCheck, RouteTable, ServerExtension, ServiceContext } from "../routes.ts";

export interface TeamServerOptions extends PurchaseContext {
  port: number;
  host: string;
  /** Browser origins allowed to call (exact scheme://host[:port]); any other Origin is refused. */
  allowOrigins: string[];
  maxBodyBytes?: number;
  /** The admin channel's Unix socket (PGlite: <data>/admin.sock; admin/channel.ts), or none. */
  adminSocket?: string;
  /** User-given addresses (webhooks): what the admin allowed beyond the public internet (--allow-webhook-host). */
  outbound?: OutboundPolicy;
  /**
   * The modules that extend this server (routes, services, health checks, paid gates), in the order their
   * services start: the server's entry passes server/extensions.ts's TEAM_SERVER_EXTENSIONS; a test passes
   * what it needs. Nothing is added to a server by importing a module.
   */
  extensions: readonly ServerExtension[];
}

export interface FrontDoor {
  /** The options, with the reachability watch and the extensions' paid gates filled in. */
  opts: TeamServerOptions;
  /** What the extensions' routes and services see (ctx.call: the way to the API, billed to a user). */
  service: ServiceContext;
  /** The allowed browser origins, normalised. */
  allowed: ReadonlySet<string>;
  /** The largest body a route reads unless it says otherwise. */
  maxBody: number;
  routes: RouteTable;
  checks: ReadonlyMap<string, HealthCheck>;
  /** True once close() began: new requests are refused with 503. */
  closing(): boolean;
}
