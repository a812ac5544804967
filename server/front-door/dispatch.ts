/**
 * The team server's front door: one request through CORS, /health, the
 * caller's admission, the body, and then an extension's route or the API
 * proxy. Who before what: the route and the caller are decided from the
 * request line and the headers; only a caller the route admits has its body
 * read, and only up to the route's limit (issue 36, item 4).
 */
import type * as http from "node:http";
import { errorAnswer, send } from "../errors.ts";
import { errorMessage } from "../error-text.ts";
import { msg } from "../i18n.ts";
import { isApiPath } from "../proxy.ts";
import { serveApi } from "./api-proxy.ts";
import { admit } from "./auth.ts";
import type { FrontDoor } from "./context.ts";
import { corsOf } from "./cors.ts";
import { serveExtension } from "./extension-route.ts";
import { isHealthRequest, serveHealth } from "./health-route.ts";
import { bodyLimit, bodyOf, languageOf, refuse } from "./request.ts";

export async function dispatch(front: FrontDoor, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const started = Date.now();
  const url = new URL(req.url ?? "/", "http://server.invalid");
  const lang = languageOf(url, req.headers["accept-language"]);
  const method = (req.method ?? "GET").toUpperCase();
  const cors = corsOf(front, req, res, url, method, lang);
  if (cors === null) return;
  if (front.closing())
    return refuse(res, errorAnswer("UNAVAILABLE", msg.shuttingDown[lang], { retryAfterSeconds: 2 }), cors);
  if (isHealthRequest(method, url)) return serveHealth(front, req, res, url, lang, cors);

  const route = front.routes.find(method, url.pathname);
  if (!route && !isApiPath(url.pathname)) return refuse(res, errorAnswer("NOT_FOUND", msg.notFound[lang]), cors);
  const admission = await admit(front, route, method, url, req.headers.authorization, lang);
  if (!admission.admitted) return refuse(res, admission.refusal, cors);
  const body = await bodyOf(req, bodyLimit(method, route?.maxBodyBytes, front.maxBody));
  if (body === null) return refuse(res, errorAnswer("PAYLOAD_TOO_LARGE", msg.tooLarge[lang], { field: "body" }), cors);

  const { user } = admission;
  if (route) return serveExtension(front, { route, req, res, user, lang, url, body, cors, started });
  return serveApi(front, res, { method, url, body, lang, user: user!, cors, started });
}

/** The request handler node:http calls: a failure is logged by kind and answered 500 without its text. */
export function requestHandler(
  front: FrontDoor,
  inFlight: Set<Promise<void>>,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    const p = dispatch(front, req, res)
      .catch((e: unknown) => {
        // Never the error's text to the user (it could name internals); its kind to the log.
        front.opts.log.error("request.failed", {
          path: (req.url ?? "").split("?")[0],
          error: (e as Error)?.name ?? "Error",
          message: errorMessage(e).slice(0, 300),
        });
        const lang = languageOf(new URL(req.url ?? "/", "http://x"), req.headers["accept-language"]);
        send(res, errorAnswer("SERVER_ERROR", msg.internal[lang]));
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
}
