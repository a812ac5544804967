/**
 * An extension's route at the front door (schedules, reconcile, console,
 * admin, …): the handler gets the caller, the language, the body already
 * read, and a way to the API that adds up what its calls cost; the answer
 * says that sum in X-Credits-Charged, and the request is logged.
 */
import type * as http from "node:http";
import type { Language } from "../../shared/i18n/index.ts";
import type { AuthUser } from "../auth/tokens.ts";
import type { ExtraRoute, ServerContext, ServiceContext } from "../routes.ts";
import type { FrontDoor } from "./context.ts";
import type { CorsHeaders } from "./cors.ts";

/**
 * An extension route's way to the API that adds up what its calls cost the
 * user, and says the sum in X-Credits-Charged on the route's answer (unless
 * the route set it itself): every answer of the server carries its charge.
 */
function chargedCalls(service: ServiceContext, res: http.ServerResponse): ServiceContext["call"] {
  let charged = 0;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.writeHead = (...args: unknown[]) => {
    if (!res.hasHeader("x-credits-charged")) {
      const headers = args.find((a, i) => i > 0 && a !== null && typeof a === "object" && !Array.isArray(a)) as
        Record<string, unknown> | undefined;
      const said = headers && Object.keys(headers).some((k) => k.toLowerCase() === "x-credits-charged");
      if (!said) res.setHeader("x-credits-charged", String(charged));
    }
    return writeHead(...args);
  };
  return async (user, spec, lang, callOpts) => {
    const a = await service.call(user, spec, lang, callOpts);
    charged += Number(a.headers["x-credits-charged"] ?? 0) || 0;
    return a;
  };
}

export interface ExtensionRequest {
  route: ExtraRoute;
  req: http.IncomingMessage;
  res: http.ServerResponse;
  user: AuthUser | null;
  lang: Language;
  url: URL;
  body: string;
  cors: CorsHeaders;
  started: number;
}

export async function serveExtension(front: FrontDoor, r: ExtensionRequest): Promise<void> {
  const { res, user } = r;
  const ctx: ServerContext = {
    ...front.service,
    user,
    lang: r.lang,
    url: r.url,
    body: r.body,
    call: chargedCalls(front.service, res),
  };
  for (const [k, v] of Object.entries(r.cors)) res.setHeader(k, v);
  await r.route.handler(r.req, res, ctx);
  front.opts.log.info("request", {
    user: user?.name,
    method: (r.req.method ?? "GET").toUpperCase(),
    path: r.route.prefix,
    status: res.statusCode,
    ms: Date.now() - r.started,
  });
}
