/**
 * Plain-data HTTP messages. The core builds requests and reads responses;
 * hosts (UrlFetchApp, fetch, node:http) do the sending. Keeping these as
 * plain data is what lets one operation run under a sync and an async driver.
 */
export type HttpMethod = "GET" | "POST";

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  /** JSON text for POST; absent for GET. */
  body?: string;
  /**
   * "manual": a 3xx is the answer, never followed (a webhook: the address
   * checked is the only one the message may go to). Absent: the driver's
   * default (a browser's fetch follows; UrlFetchApp never does, apps-script/http.ts;
   * nor does the Node hosts' node:http, node/send-http.ts).
   */
  redirect?: "manual";
  /**
   * What the request costs, set by the API client when it builds it
   * (shared/api/client.ts, from the endpoint catalogue's one price table).
   * Every consumer (the formula budget, the credits in flight, the CLI's
   * spend journal, the MCP budget check) reads the price here instead of
   * working it out again from the URL and body. Absent: not a call of the
   * API (a webhook), which costs no credits.
   */
  price?: RequestPrice;
}

/** The priced endpoint a request goes to and the credits a successful answer costs. */
export interface RequestPrice {
  /** The catalogue's endpoint id (shared/api/endpoints.ts). */
  endpoint: string;
  /** Credits charged for a 2xx answer (0: a free or rate-limited endpoint). */
  credits: number;
}

/** The credits a request costs if it succeeds, as its builder priced it (0 for a request that is no API call). */
export const creditsOf = (req: HttpRequest): number => req.price?.credits ?? 0;

export interface HttpResponse {
  /** HTTP status; 0 when no answer arrived (see `networkError`). */
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Set by a driver when the request failed before an answer: refused, reset, DNS, timeout. */
  networkError?: "timeout" | "connection";
  /**
   * With `networkError`, from a driver that knows: not one byte of the request left this process (the
   * connection was refused, the name did not resolve, TLS failed, connecting timed out), so it cannot have
   * been charged (node/send-http.ts `left`). Absent: it may have left.
   */
  unsent?: true;
  /**
   * A request sent with redirect "manual" was answered by a redirect the
   * runtime does not show (a browser's opaque redirect: status 0, no
   * Location; https://fetch.spec.whatwg.org/#concept-filtered-response-opaque-redirect).
   */
  opaqueRedirect?: true;
}

/**
 * What an answer cost: the one source for "spent" in every host. The
 * service's `X-Credits-Charged` when the answer carries one (the team server
 * sets it on every answer, 0 for a shared answer, and the API sends it on
 * its 2xx; the emulator models it, emulator/README.md), else the price the
 * request carried for a 2xx answer and nothing for any other (the
 * specification does not say what an error costs: the assumption
 * cli/ledger.ts and the formula budget share). A header that is no whole
 * number ≥ 0 is not believed: the carried price stands.
 */
export function chargedOf(req: HttpRequest, res: HttpResponse): number {
  const said = header(res, "x-credits-charged");
  if (said !== undefined && /^\s*\d{1,15}\s*$/.test(said)) return Number(said);
  return res.status >= 200 && res.status < 300 ? creditsOf(req) : 0;
}

/** Case-insensitive header lookup, in a request or in a response whose driver did not lower-case names. */
export function header(msg: { headers: Record<string, string> }, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const k of Object.keys(msg.headers)) if (k.toLowerCase() === wanted) return msg.headers[k];
  return undefined;
}
