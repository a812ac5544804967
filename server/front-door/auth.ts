/**
 * Who is calling, decided from the request line and the headers before any
 * body is read (issue 36, item 4): a route that needs no token admits anyone;
 * otherwise the personal token is checked (401 without a valid one), and an
 * admin route wants an admin token (403 with another).
 */
import type { Language } from "../../shared/i18n/index.ts";
import type { AuthUser } from "../auth/tokens.ts";
import { checkTokenCached } from "../auth/token-cache.ts";
import { errorAnswer, type ErrorAnswer } from "../errors.ts";
import { msg } from "../i18n.ts";
import type { ExtraRoute } from "../routes.ts";
import type { FrontDoor } from "./context.ts";

export type Admission = { admitted: true; user: AuthUser | null } | { admitted: false; refusal: ErrorAnswer };

/** The caller of `route` (undefined: the API proxy, which always wants a token), or the refusal to answer. */
export async function admit(
  front: FrontDoor,
  route: ExtraRoute | undefined,
  method: string,
  url: URL,
  authorization: string | undefined,
  lang: Language,
): Promise<Admission> {
  const log = front.opts.log;
  const anonymous = route !== undefined && (!route.auth || route.anonymous?.(method, url) === true);
  const check = anonymous ? null : await checkTokenCached(front.opts.db, authorization);
  const user = check && "user" in check ? check.user : null;
  if (!anonymous && !user) {
    log.info("refused.token", { path: url.pathname, expired: check?.refused === "expired" || undefined });
    const text = check?.refused === "expired" ? msg.tokenExpired[lang](check.expiredAt) : msg.unauthorized[lang];
    return { admitted: false, refusal: errorAnswer("UNAUTHORIZED", text) };
  }
  if (route?.auth === "admin" && !user?.admin) {
    log.info("refused.admin", { user: user?.name, path: url.pathname });
    return { admitted: false, refusal: errorAnswer("FORBIDDEN", msg.adminOnly[lang]) };
  }
  return { admitted: true, user };
}
