/**
 * The team server on node:http: the front door (front-door/: CORS, /health,
 * the caller's admission, the extensions' routes, the API proxy → purchase.ts)
 * for the extensions its caller passes, their services, and a graceful
 * shutdown: requests in flight are counted, so each finishes (and settles its
 * ledger row) before the process ends.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { startAdminChannel } from "./admin/channel.ts";
import { requestHandler } from "./front-door/dispatch.ts";
import type { FrontDoor, TeamServerOptions } from "./front-door/context.ts";
import { MAX_BODY_BYTES, normaliseOrigin } from "./front-door/request.ts";
import { startHeartbeat } from "./heartbeat.ts";
import { STRICT_OUTBOUND } from "./net/outbound.ts";
import { answerFor } from "./purchase.ts";
import { startReachability } from "./reachability.ts";
import { healthChecksOf, routeTable, type ServiceContext } from "./routes.ts";

export type { TeamServerOptions } from "./front-door/context.ts";
export { BODYLESS_MAX_BYTES, MAX_BODY_BYTES, languageOf, normaliseOrigin, sameOrigin } from "./front-door/request.ts";

export interface RunningTeamServer {
  url: string;
  port: number;
  /** The listener (tests read its sockets' bytesRead: a refused body is not read). */
  listener: http.Server;
  /** Stop accepting, let requests in flight finish (at most `graceMs`), stop services. */
  close(graceMs?: number): Promise<void>;
}

/** The front door's shared state for these options: the context extensions see, their routes and checks. */
function frontDoor(opts: TeamServerOptions, closing: () => boolean): FrontDoor {
  const service: ServiceContext = {
    db: opts.db,
    log: opts.log,
    process: opts.process,
    call: (user, spec, lang, callOpts) => answerFor(opts, user, spec, lang, callOpts),
    operate: (op, signal) => opts.upstream.operate(op, signal),
    outbound: opts.outbound ?? STRICT_OUTBOUND,
  };
  return {
    opts,
    service,
    allowed: new Set(opts.allowOrigins.map(normaliseOrigin)),
    maxBody: opts.maxBodyBytes ?? MAX_BODY_BYTES,
    routes: routeTable(opts.extensions),
    checks: healthChecksOf(opts.extensions),
    closing,
  };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
}

/** Neither the listener nor a module's service may keep a stopping server alive past a few seconds. */
const bounded = (p: Promise<unknown>) => Promise.race([p, new Promise((r) => setTimeout(r, 5_000).unref())]);

export async function startTeamServer(options: TeamServerOptions): Promise<RunningTeamServer> {
  // This process beats in the database before it serves (heartbeat.ts), and says which API and whether it answers.
  const heartbeat = await startHeartbeat(options.db, options.process, options.log);
  const reachability = await startReachability(options.upstream, options.upstream.baseUrl, options.log);
  const paidGates = options.extensions.flatMap((e) => e.paidGates ?? []);
  const opts: TeamServerOptions = { ...options, reachability, paidGates };
  const inFlight = new Set<Promise<void>>();
  let closing = false;
  const front = frontDoor(opts, () => closing);
  const server = http.createServer(requestHandler(front, inFlight));
  server.on("clientError", (_e, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  await listen(server, opts.port, opts.host).catch(async (e: unknown) => {
    reachability.stop();
    await heartbeat.stop();
    throw e;
  });
  const stops: (() => Promise<void>)[] = [];
  const channel = opts.adminSocket ? await startAdminChannel(opts.adminSocket, front.service) : null;
  if (channel) stops.push(() => channel.close());
  for (const s of opts.extensions.flatMap((e) => e.services ?? [])) stops.push(await s.start(front.service));
  const port = (server.address() as AddressInfo).port;
  const shownHost = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    listener: server,
    async close(graceMs = 30_000) {
      if (closing) return;
      closing = true;
      const stopped = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())]);
      server.closeAllConnections();
      await bounded(stopped);
      for (const stop of stops.reverse()) await bounded(stop().catch(() => undefined));
      reachability.stop();
      await bounded(heartbeat.stop());
    },
  };
}
