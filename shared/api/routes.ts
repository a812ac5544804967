/**
 * The one table from a request's path to its endpoint, built from the
 * catalogue (ENDPOINTS, ./endpoints.ts: a path like /v2/companies/{id}
 * becomes a pattern with one group per parameter). The emulator routes its
 * requests by it, the team server's proxy reads a client's requests by it.
 */
import { ENDPOINTS, type Endpoint } from "./endpoints.ts";

export interface EndpointRoute {
  readonly ep: Endpoint;
  readonly re: RegExp;
  /** The path parameters' names, in the order of the pattern's groups. */
  readonly names: readonly string[];
}

export const ENDPOINT_ROUTES: readonly EndpointRoute[] = ENDPOINTS.map((ep) => {
  const names: string[] = [];
  const re = new RegExp(
    "^" +
      ep.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, n: string) => (names.push(n), "([^/]+)")) +
      "$",
  );
  return { ep, re, names };
});

/** A route and its path parameters' values as they stand in the path (not decoded: each reader decodes and refuses its own way). */
export interface RouteMatch {
  route: EndpointRoute;
  values: string[];
}

/**
 * The route of a method (as the catalogue writes it: upper case) and a path,
 * or why there is none: "no-path" (no endpoint lives there) or "no-method"
 * (one does, for another method).
 */
export function matchRoute(method: string, path: string): RouteMatch | "no-path" | "no-method" {
  let known = false;
  for (const route of ENDPOINT_ROUTES) {
    const m = route.re.exec(path);
    if (!m) continue;
    known = true;
    if (route.ep.method === method) return { route, values: route.names.map((_, i) => m[i + 1] ?? "") };
  }
  return known ? "no-method" : "no-path";
}
