/**
 * One HTTP request through a fetch function, as plain data, for the hosts
 * that have fetch (Excel, the browser playground, the Node CLI). This folder
 * is the one place in shared/ allowed to use fetch, timers and
 * AbortController; the Apps Script bundle never imports it (UrlFetchApp is
 * synchronous and has neither; test/unit/platform-free.test.ts checks the
 * built Code.js).
 */
import type { HttpRequest, HttpResponse } from "../core/index.ts";

/** The part of fetch this uses; injectable so tests can fake the network. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; redirect?: "manual" },
) => Promise<{
  status: number;
  /** "opaqueredirect" in a browser for a redirect not followed (redirect "manual"). */
  type?: string;
  headers: { forEach(cb: (value: string, key: string) => void): void };
  text(): Promise<string>;
}>;

/**
 * Send `req`, aborting after `timeoutMs`. Header names come back lower-cased.
 * A failure never throws: it is status 0 with networkError "timeout" (our
 * abort, or the runtime's own TimeoutError) or "connection" (anything else),
 * which the client's retry logic interprets.
 */
export async function fetchHttp(fetchFn: FetchLike, req: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
  // Guarded: an older Office runtime may lack AbortController; the timeout then only labels the failure.
  const ctl = typeof AbortController !== "undefined" ? new AbortController() : undefined;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl?.abort();
  }, timeoutMs);
  try {
    // redirect "manual" (a webhook): Node's fetch hands back the 3xx with its Location, a browser an opaque
    // redirect (https://fetch.spec.whatwg.org/#concept-request-redirect-mode); neither follows it.
    const res = await fetchFn(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: ctl?.signal,
      ...(req.redirect ? { redirect: req.redirect } : {}),
    });
    if (res.type === "opaqueredirect") return { status: 0, headers: {}, body: "", opaqueRedirect: true };
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => {
      headers[key.toLowerCase()] = value;
    });
    return { status: res.status, headers, body: await res.text() };
  } catch (e) {
    const timeout = timedOut || (e as Error)?.name === "TimeoutError";
    return { status: 0, headers: {}, body: "", networkError: timeout ? "timeout" : "connection" };
  } finally {
    clearTimeout(timer);
  }
}
