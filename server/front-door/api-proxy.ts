/**
 * The API's surface at the front door (/v2/… and the older listing's paths):
 * the request becomes the catalogue's CallSpec (proxy.ts), and its answer is
 * bought for the caller or served from the team's answers (purchase.ts;
 * account.ts for the user's own account). Every answer says what it cost
 * this user, 0 where the server answered without buying.
 */
import type * as http from "node:http";
import type { CallSpec } from "../../shared/api/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import { accountAnswer } from "../account.ts";
import type { AuthUser } from "../auth/tokens.ts";
import { send, writeAnswer } from "../errors.ts";
import { specOf } from "../proxy.ts";
import { answerFor, type Answer } from "../purchase.ts";
import type { FrontDoor } from "./context.ts";
import type { CorsHeaders } from "./cors.ts";

export interface ApiRequest {
  method: string;
  url: URL;
  body: string;
  lang: Language;
  user: AuthUser;
  cors: CorsHeaders;
  started: number;
}

/** The purchase step: one call for `user`, the account from the team's ledger, any other endpoint bought or shared. */
export function purchase(front: FrontDoor, user: AuthUser, spec: CallSpec, lang: Language): Promise<Answer> {
  return spec.endpoint === "account"
    ? accountAnswer(front.opts, user, spec, lang)
    : answerFor(front.opts, user, spec, lang);
}

export async function serveApi(front: FrontDoor, res: http.ServerResponse, r: ApiRequest): Promise<void> {
  const parsed = specOf(r.method, r.url, r.body, r.lang);
  if (!parsed.ok) return send(res, parsed.answer, r.cors);
  const answer = await purchase(front, r.user, parsed.spec, r.lang);
  // Every answer says what it cost this user (0 where the server answered without buying).
  writeAnswer(res, answer.status, { "x-credits-charged": "0", ...answer.headers, ...r.cors }, answer.body);
  front.opts.log.info("request", {
    user: r.user.name,
    endpoint: parsed.spec.endpoint,
    company: parsed.spec.path?.id,
    status: answer.status,
    credits: Number(answer.headers["x-credits-charged"] ?? 0),
    cache: answer.headers["x-cache"],
    ms: Date.now() - r.started,
  });
}
