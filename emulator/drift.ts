/**
 * The drifted emulator (`--drift`, `createEmulator({ drift: true })`): the
 * same data, answered by a service that differs from the project's
 * assumptions the way a real v2 could (issue 31). Every v2 field name, error
 * body and header the client reads is an assumption (shared/api/schemas.ts);
 * this variant breaks a few of each kind so the doctor (shared/doctor/) and
 * the hosts' tolerance are tested against a service that is not the one the
 * schemas describe:
 *
 * - renamed fields: a company's `zip` is `postcode`; a resolve result's
 *   `status` is `matchStatus` (single and batch); the account's `plan` is `tier`;
 * - a missing field: a company's `legalForm` is gone;
 * - another type: a company's `register` is one string ("Amtsgericht
 *   Mannheim HRB 3024") instead of {court, type, number};
 * - another error shape: RFC 9457 problem details
 *   (`application/problem+json`: type, title, status, detail) instead of
 *   `{ error: { code, message, field } }`;
 * - no rate-limit or credit headers: no Retry-After on 429 and 503, no
 *   X-Credits-Charged / X-Credits-Remaining.
 *
 * Billing, rate limits and the data are the normal emulator's: a wrapper
 * around `handle`, nothing inside it changes.
 */
import type { HttpRequest } from "../shared/core/index.ts";
import type { EmulatorResponse } from "./respond.ts";

/** Headers the drifted service does not send (rate limits and the project's credit headers). */
const DROPPED_HEADERS = /^(retry-after|x-credits-charged|x-credits-remaining|(x-)?rate-?limit.*)$/i;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A company in any answer: an object with a company id and a name (availability answers have no name and stay). */
const isCompany = (o: Json) => typeof o.id === "string" && /^DE[A-Z0-9]{10}$/.test(o.id) && "name" in o;

function driftCompany(o: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === "legalForm") continue;
    if (k === "zip") out.postcode = v;
    else if (k === "register" && isObject(v))
      out.register = [v.court, v.type, v.number].filter((p) => typeof p === "string" && p).join(" ");
    else out[k] = v;
  }
  return out;
}

/** Rewrite every company, wherever it sits in the answer. */
function walk(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(walk);
  if (!isObject(v)) return v;
  const o: Json = {};
  for (const [k, x] of Object.entries(v)) o[k] = walk(x);
  return isCompany(o) ? driftCompany(o) : o;
}

function rename(o: Json, from: string, to: string): Json {
  if (!(from in o)) return o;
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) out[k === from ? to : k] = v;
  return out;
}

function driftBody(path: string, body: unknown): unknown {
  const walked = walk(body);
  if (!isObject(walked)) return walked;
  let out: Json = walked;
  if (path === "/v2/resolve") out = rename(out, "status", "matchStatus");
  if (path === "/v2/companies/batch/resolve" && Array.isArray(out.results)) {
    out = {
      ...out,
      results: (out.results as unknown[]).map((r) => (isObject(r) ? rename(r, "status", "matchStatus") : r)),
    };
  }
  if (path === "/v2/account") out = rename(out, "plan", "tier");
  return out;
}

/** `{ error: { code, message } }` → problem details (RFC 9457), the other common error shape. */
function problem(status: number, body: unknown): string {
  const e = isObject(body) && isObject(body.error) ? body.error : {};
  return JSON.stringify({
    type: "about:blank",
    title: typeof e.code === "string" ? e.code : "Error",
    status,
    detail: typeof e.message === "string" ? e.message : "",
  });
}

/** The emulator's handle, answering as the drifted service. */
export function drifted(handle: (req: HttpRequest) => EmulatorResponse): (req: HttpRequest) => EmulatorResponse {
  return (req) => {
    const res = handle(req);
    const path = /^[^?#]*/.exec(req.url.replace(/^[a-z]+:\/\/[^/]+/i, ""))?.[0] ?? "";
    // Control routes, docs and dropped connections stay as they are: the drift is the API's.
    if (res.drop || path.startsWith("/_emulator") || !/json/.test(res.headers["content-type"] ?? "")) return res;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (!DROPPED_HEADERS.test(k)) headers[k] = v;
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      return { ...res, headers };
    }
    if (res.status >= 400)
      return {
        ...res,
        headers: { ...headers, "content-type": "application/problem+json" },
        body: problem(res.status, parsed),
      };
    if (path.endsWith("/openapi.json")) return res;
    return { ...res, headers, body: JSON.stringify(driftBody(path, parsed)) };
  };
}
