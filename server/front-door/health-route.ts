/**
 * GET /health at the front door: no body is read; liveness for anyone, the
 * deep checks of the extensions for an admin credential (admin/health.ts).
 */
import type * as http from "node:http";
import type { Language } from "../../shared/i18n/index.ts";
import { healthAnswer } from "../admin/health.ts";
import type { FrontDoor } from "./context.ts";
import type { CorsHeaders } from "./cors.ts";

export const isHealthRequest = (method: string, url: URL) => url.pathname === "/health" && method === "GET";

export async function serveHealth(
  front: FrontDoor,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  lang: Language,
  cors: CorsHeaders,
): Promise<void> {
  const a = await healthAnswer({
    db: front.opts.db,
    service: front.service,
    url,
    authorization: req.headers.authorization,
    lang,
    process: front.opts.process,
    checks: front.checks,
  });
  res.writeHead(a.status, { ...a.headers, ...cors }).end(a.body);
}
