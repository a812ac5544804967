/**
 * The API's surface on the server: a request to /v2/… (or the older
 * listing's paths) becomes the catalogue's CallSpec (endpoint, path
 * parameters, query, body, what its price depends on), exactly as the
 * shared client would have built it, and its answer comes back as the API
 * gave it. Bodies are checked against the catalogue's request schemas first:
 * a request the API would refuse is refused here, before anything is reserved.
 */
import type { CallSpec } from "../shared/api/index.ts";
import { canonicalQuestion, ENDPOINT_ROUTES, INCLUDES, matchRoute } from "../shared/api/index.ts";
import type { Endpoint, Include } from "../shared/api/index.ts";
import { CompanyDataError, invalid, toCompanyDataError } from "../shared/core/index.ts";
import { formatPath, ruleOfIssue, rule, type IssueLike } from "../shared/i18n/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { errorAnswer, type ErrorAnswer } from "./errors.ts";
import { msg } from "./i18n.ts";

/** Query parameters that are the server's, not the API's: never forwarded. */
const OWN_PARAMS = new Set(["lang"]);

/** Whether a path is the API's (so the proxy answers it, with 404/405 of its own when it is no endpoint). */
export const isApiPath = (path: string) => path.startsWith("/v2/") || ENDPOINT_ROUTES.some((r) => r.re.test(path));

/** The endpoint a request to the API is for (its path below the base URL), or undefined. */
export function endpointOfRequest(method: string, path: string): Endpoint | undefined {
  const hit = matchRoute(method.toUpperCase(), path);
  return typeof hit === "string" ? undefined : hit.route.ep;
}

const invalidAnswer = (e: CompanyDataError, lang: Language): ErrorAnswer =>
  errorAnswer("INVALID_INPUT", e.text(lang), e.details.field !== undefined ? { field: e.details.field } : {});

/** The CallSpec of a request, or the answer refusing it. */
export function specOf(
  method: string,
  url: URL,
  body: string,
  lang: Language,
): { ok: true; spec: CallSpec } | { ok: false; answer: ErrorAnswer } {
  const hit = matchRoute(method, url.pathname);
  if (hit === "no-path") return { ok: false, answer: errorAnswer("NOT_FOUND", msg.notFound[lang]) };
  if (hit === "no-method") return { ok: false, answer: errorAnswer("METHOD_NOT_ALLOWED", msg.methodNotAllowed[lang]) };
  const { ep, names } = hit.route;
  try {
    // The caller's names as keys (a query parameter `__proto__` or `constructor`): maps without a prototype.
    const path = Object.create(null) as Record<string, string>;
    names.forEach((n, i) => {
      path[n] = decodeURIComponent(hit.values[i] ?? "");
    });
    const query = Object.create(null) as Record<string, string>;
    for (const [k, v] of url.searchParams) {
      if (OWN_PARAMS.has(k)) continue;
      // A parameter the endpoint does not take is refused, as the API refuses it, before anything is reserved.
      if (!ep.query.includes(k)) throw invalid(k, rule.oneOf(ep.query.length ? ep.query : ["-"]));
      // A repeated parameter (include=a&include=b) is one list, as the API reads it.
      query[k] = query[k] !== undefined ? `${query[k]},${v}` : v;
    }
    const spec: CallSpec = { endpoint: ep.id as CallSpec["endpoint"], path, query };
    if (query.include !== undefined) {
      const include = query.include
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      for (const inc of include) if (!INCLUDES.includes(inc as Include)) throw invalid("include", rule.oneOf(INCLUDES));
      spec.cost = { include: include as Include[] };
    }
    if (ep.method === "POST") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return { ok: false, answer: errorAnswer("INVALID_INPUT", msg.badJson[lang], { field: "body" }) };
      }
      // Ids in their canonical case and defaults filled before the check: what is checked is what is sent.
      parsed = canonicalQuestion({ endpoint: ep.id as CallSpec["endpoint"], body: parsed }).body;
      if (ep.request) {
        const r = ep.request.safeParse(parsed);
        if (!r.success) {
          const issue = r.error.issues[0] as IssueLike;
          const at = formatPath(issue.path) || "body";
          throw invalid(at, ruleOfIssue(issue, ep.request, parsed) ?? rule.type("object"));
        }
      }
      spec.body = parsed;
      const b = parsed as { companies?: unknown[]; ids?: unknown[] };
      const count = Array.isArray(b.companies)
        ? b.companies.length
        : Array.isArray(b.ids)
          ? new Set(b.ids).size
          : undefined;
      if (count !== undefined) spec.cost = { ...spec.cost, count };
    }
    return { ok: true, spec: canonicalQuestion(spec) };
  } catch (e) {
    return { ok: false, answer: invalidAnswer(toCompanyDataError(e), lang) };
  }
}
