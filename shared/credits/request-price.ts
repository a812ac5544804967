/**
 * What one HTTP request will cost if the service answers it, read from the
 * request itself with the one price table (shared/api/endpoints.ts). The
 * async drivers use it to bound the credits in flight: what a hard kill can
 * lose is exactly the paid requests out at that instant.
 */
import { ENDPOINTS, INCLUDES, type Endpoint, type Include } from "../api/endpoints.ts";
import type { HttpRequest } from "../core/http.ts";

interface Route { ep: Endpoint; re: RegExp }

const ROUTES: Route[] = ENDPOINTS.map((e) => ({
  ep: e as Endpoint,
  re: new RegExp("^(?:/[^?#]*)?" + e.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/?#]+") + "$"),
}));

/** The catalogue entry a request is for, or null (control endpoints, unknown paths). */
function routeOf(req: HttpRequest): Endpoint | null {
  let url: URL;
  try {
    url = new URL(req.url, "http://base.invalid");
  } catch {
    return null;
  }
  const method = String(req.method).toUpperCase();
  // v2 entries come first in the catalogue, so a v2 path is never taken for the older listing behind a base path.
  for (const r of ROUTES) if (r.ep.method === method && r.re.test(url.pathname)) return r.ep;
  return null;
}

/** Companies named in a many-company body (batch resolve: `companies`; older listing: `ids`). */
function countIn(body: string | undefined): number {
  if (!body) return 0;
  try {
    const o = JSON.parse(body) as Record<string, unknown>;
    const list = Array.isArray(o.companies) ? o.companies : Array.isArray(o.ids) ? o.ids : [];
    return list.length;
  } catch {
    return 0;
  }
}

/**
 * Credits the request costs when answered: 0 for free and unknown requests.
 * Never throws (a malformed include is priced as if absent: the service
 * refuses such a request without charging).
 */
export function requestCredits(req: HttpRequest): number {
  const ep = routeOf(req);
  if (!ep || ep.billing !== "credits") return 0;
  try {
    if (ep.id === "profile") {
      const raw = new URL(req.url, "http://base.invalid").searchParams.get("include") ?? "";
      const include = raw.split(",").map((s) => s.trim()).filter((s): s is Include => (INCLUDES as readonly string[]).includes(s));
      return ep.cost({ include });
    }
    return ep.cost({ count: countIn(req.body) });
  } catch {
    return 0;
  }
}
