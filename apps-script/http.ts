/**
 * HTTP through UrlFetchApp.fetchAll: all requests of one effect in parallel,
 * HTTP errors as answers (muteHttpExceptions), header names lower-cased.
 *
 * A network failure makes fetchAll throw for the whole batch
 * (https://developers.google.com/apps-script/reference/url-fetch/url-fetch-app#fetchAll(Object):
 * it answers every request or throws), and which requests reached the
 * service (and were charged) is unknown. The batch is one unknown outcome:
 * every request gets status 0, and the core's retry policy decides, with
 * its back-off and attempts, for the batch together. Sending the batch
 * again one by one at once would pay twice for every request that was
 * answered before the failure, without any back-off.
 */
import type { HttpRequest, HttpResponse } from "../shared/core/index.ts";

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
  // followRedirects false: a 3xx is the answer, never followed, for every request (a webhook's message must go
  // only to the address that was checked; the API does not redirect). "followRedirects: false to not
  // automatically follow HTTP redirects; it returns the original HTTP response":
  // https://developers.google.com/apps-script/reference/url-fetch/url-fetch-app#fetch(String,Object)
  const p: Params = {
    url: req.url,
    method: req.method === "POST" ? "post" : "get",
    headers,
    muteHttpExceptions: true,
    followRedirects: false,
  };
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

/** No answer. Apps Script's exception texts are localised, so they are not read: "connection" (retried as the policy says). */
function failure(_e: unknown): HttpResponse {
  return { status: 0, headers: {}, body: "", networkError: "connection" };
}

export function fetchAll(fetcher: GoogleAppsScript.URL_Fetch.UrlFetchApp, requests: HttpRequest[]): HttpResponse[] {
  if (requests.length === 0) return [];
  const params = requests.map(toParams);
  try {
    return fetcher.fetchAll(params).map(fromReply);
  } catch (e) {
    const unknown = failure(e);
    return params.map(() => ({ ...unknown, headers: {} }));
  }
}
