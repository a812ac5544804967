/**
 * HTTP through UrlFetchApp.fetchAll: all requests of one effect in parallel,
 * HTTP errors as answers (muteHttpExceptions), header names lower-cased. A
 * network failure makes fetchAll throw for the whole batch, so the batch is
 * then retried one by one to learn which request failed (status 0).
 */
import type { HttpRequest, HttpResponse } from "../shared/core/http.ts";

type Params = GoogleAppsScript.URL_Fetch.URLFetchRequest;
type Reply = GoogleAppsScript.URL_Fetch.HTTPResponse;

function toParams(req: HttpRequest): Params {
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  for (const [k, v] of Object.entries(req.headers)) {
    // UrlFetchApp takes the content type as its own option.
    if (k.toLowerCase() === "content-type") contentType = v;
    else headers[k] = v;
  }
  const p: Params = { url: req.url, method: req.method === "POST" ? "post" : "get", headers, muteHttpExceptions: true, followRedirects: false };
  if (req.body !== undefined) {
    p.payload = req.body;
    p.contentType = contentType ?? "application/json";
  }
  return p;
}

function fromReply(r: Reply): HttpResponse {
  const headers: Record<string, string> = {};
  const all = r.getAllHeaders() as Record<string, string | string[]>;
  for (const k of Object.keys(all)) {
    const v = all[k];
    headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : String(v);
  }
  return { status: r.getResponseCode(), headers, body: r.getContentText() };
}

function failure(e: unknown): HttpResponse {
  const text = e instanceof Error ? e.message : String(e);
  return { status: 0, headers: {}, body: "", networkError: /timeout|timed out|zeitüberschreitung/i.test(text) ? "timeout" : "connection" };
}

export function fetchAll(fetcher: GoogleAppsScript.URL_Fetch.UrlFetchApp, requests: HttpRequest[]): HttpResponse[] {
  if (requests.length === 0) return [];
  const params = requests.map(toParams);
  try {
    return fetcher.fetchAll(params).map(fromReply);
  } catch {
    return params.map((p) => {
      try {
        return fromReply(fetcher.fetch(p.url, p));
      } catch (e) {
        return failure(e);
      }
    });
  }
}
