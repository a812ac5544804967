/**
 * CORS at the front door: a browser's cross-origin call is answered only for
 * the configured origins (--allow-origin); a page this server served itself
 * needs none. A preflight is answered here.
 */
import type * as http from "node:http";
import type { Language } from "../../shared/i18n/index.ts";
import { errorAnswer } from "../errors.ts";
import { msg } from "../i18n.ts";
import type { FrontDoor } from "./context.ts";
import { refuse, sameOrigin } from "./request.ts";

const ALLOW_HEADERS = "Authorization, Content-Type, Accept-Language";
const EXPOSE_HEADERS = "Retry-After, X-Credits-Charged, X-Cache";

export type CorsHeaders = Record<string, string>;

/** The CORS headers every answer to this request carries, or null when it was answered here (refused, preflight). */
export function corsOf(
  front: FrontDoor,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  method: string,
  lang: Language,
): CorsHeaders | null {
  const origin = req.headers.origin;
  const cors: CorsHeaders = {};
  if (origin === undefined || sameOrigin(origin, req.headers.host)) return cors;
  if (!front.allowed.has(origin)) {
    front.opts.log.warn("refused.origin", { origin: origin.slice(0, 200), path: url.pathname });
    refuse(res, errorAnswer("FORBIDDEN", msg.originRefused[lang]), { vary: "Origin" });
    return null;
  }
  cors["access-control-allow-origin"] = origin;
  cors["vary"] = "Origin";
  cors["access-control-expose-headers"] = EXPOSE_HEADERS;
  if (method !== "OPTIONS") return cors;
  res
    .writeHead(204, {
      ...cors,
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "access-control-allow-headers": ALLOW_HEADERS,
      "access-control-max-age": "600",
    })
    .end();
  return null;
}
