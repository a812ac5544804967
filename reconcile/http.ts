/**
 * `company-data reconcile --http PORT`: the service of ./service.ts on
 * node:http at /reconcile. One user, the API key from the environment.
 *
 * Bound to 127.0.0.1 unless --host says otherwise. On loopback the Host
 * header must name this port on 127.0.0.1, localhost or [::1] (a web page
 * cannot reach the service through a hostname of its own: DNS rebinding).
 * Beyond loopback every request but the manifest must carry the service's
 * token (`Authorization: Bearer <token>`, the 0.2 "Authentication" security
 * scheme the manifest declares); a wrong or missing one is 401, as 0.2 says.
 */
import { timingSafeEqual, createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isLoopback } from "../node/index.ts";
import type { ReconcileRequest, ReconcileService } from "./service.ts";

export const RECONCILE_PATH = "/reconcile";
/** Largest request body: a batch of 1,000 queries with properties is well below. */
const MAX_BODY = 4 * 1024 * 1024;

export interface RunningReconcile {
  url: string;
  port: number;
  close(): Promise<void>;
}

class TooLarge extends Error {}

/** The body, refused past MAX_BODY without holding more of it. */
async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY) throw new TooLarge();
    parts.push(part);
  }
  return Buffer.concat(parts).toString("utf8");
}

/**
 * What needs no token: the manifest (a GET of the service URL without queries
 * or extend, the one request 0.2 "Authentication" leaves open), the pages it
 * names for people (documentation, logo, what a matching feature means:
 * static, free, no data; a browser loads them without headers), and CORS
 * preflights.
 */
export function isManifestRequest(method: string | undefined, path: string, params: URLSearchParams): boolean {
  return (
    method === "OPTIONS" ||
    (method === "GET" && /^(\/(de|en))?\/?$/.test(path) && !params.has("queries") && !params.has("extend")) ||
    (method === "GET" && /^(\/(de|en))?\/(docs|logo\.svg|feature)$/.test(path))
  );
}

const digest = (s: string) => createHash("sha256").update(s).digest();
/** Constant time, whatever the lengths: both sides hashed first. */
export const sameToken = (given: string, token: string) => timingSafeEqual(digest(given), digest(token));

/** "Bearer <token>" or the bare token (0.2's apiKey scheme in a header names no prefix). */
export function tokenOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return (m?.[1] ?? header).trim() || undefined;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string) {
  res.writeHead(status, { ...headers, "Content-Length": String(Buffer.byteLength(body)) }).end(body);
}

const plain = (res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}) =>
  send(
    res,
    status,
    { "Content-Type": "application/json; charset=utf-8", "Access-Control-Allow-Origin": "*", ...extra },
    JSON.stringify({ error: { code: String(status), message: text } }),
  );

export async function startReconcileHttp(
  service: ReconcileService,
  opts: { port: number; host: string; token?: string; log: (line: string) => void },
): Promise<RunningReconcile> {
  let allowedHosts: string[] | undefined;
  let actual = 0;
  const shownHost = opts.host.includes(":") && !opts.host.startsWith("[") ? `[${opts.host}]` : opts.host;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname !== RECONCILE_PATH && !url.pathname.startsWith(RECONCILE_PATH + "/"))
      return plain(res, 404, `Not found: the reconciliation service is at ${RECONCILE_PATH}`);
    const hostHeader = req.headers.host ?? "";
    if (allowedHosts && !allowedHosts.includes(hostHeader.toLowerCase()))
      return plain(res, 403, "Forbidden: Host is not this machine");
    const path = url.pathname.slice(RECONCILE_PATH.length);
    if (opts.token && !isManifestRequest(req.method, path, url.searchParams)) {
      const given = tokenOf(req.headers.authorization);
      if (!given || !sameToken(given, opts.token))
        return plain(res, 401, "Unauthorized: Authorization: Bearer <token> required", {
          "WWW-Authenticate": 'Bearer realm="reconcile"',
        });
    }
    let body: string | undefined;
    if (req.method === "POST") {
      try {
        body = await readBody(req);
      } catch (e) {
        if (e instanceof TooLarge) return plain(res, 413, "Payload too large");
        throw e;
      }
    }
    const headers: Record<string, string | undefined> = {};
    for (const name of ["origin", "sec-fetch-site", "content-type"]) {
      const v = req.headers[name];
      headers[name] = Array.isArray(v) ? v[0] : v;
    }
    const r: ReconcileRequest = { method: req.method ?? "GET", path, query: url.searchParams, body, headers };
    // On loopback the checked Host is how this client reached us (localhost or 127.0.0.1); else the bound address.
    const origin = allowedHosts ? `http://${hostHeader}` : `http://${shownHost}:${actual}`;
    const out = await service.handle(r, origin + RECONCILE_PATH);
    send(res, out.status, out.headers, out.body);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      opts.log("reconcile http: request failed");
      if (!res.headersSent) plain(res, 500, "Internal error");
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  actual = (server.address() as AddressInfo).port;
  if (isLoopback(opts.host))
    allowedHosts = [...new Set(["127.0.0.1", "localhost", "[::1]", shownHost.toLowerCase()])].map(
      (h) => `${h}:${actual}`,
    );
  return {
    url: `http://${shownHost}:${actual}${RECONCILE_PATH}`,
    port: actual,
    close: async () => {
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections?.();
      });
    },
  };
}
