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
}

export interface HttpResponse {
  /** HTTP status; 0 when no answer arrived (see `networkError`). */
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Set by a driver when the request failed before an answer: refused, reset, DNS, timeout. */
  networkError?: "timeout" | "connection";
}

/** Case-insensitive header lookup for responses whose drivers did not lower-case names. */
export function header(res: HttpResponse, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const k of Object.keys(res.headers)) if (k.toLowerCase() === wanted) return res.headers[k];
  return undefined;
}
