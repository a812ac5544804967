/**
 * Tell a CORS refusal apart from a network failure, for hosts that call the
 * API from a web page (the Excel task pane and functions, the playground).
 * To the page both look the same: fetch rejects with a TypeError and no
 * detail (the Fetch standard hides why a cross-origin request failed). A
 * second request in `no-cors` mode needs no permission from the server: it
 * is sent without the Authorization header (so no preflight) and resolves
 * with an opaque answer whenever the server answers at all. So: it resolves
 * → the service is there and refused this origin (CORS); it rejects too →
 * the service cannot be reached (network, DNS, a wrong base URL).
 * Nothing is read from the opaque answer and no key is sent.
 */
import type { Bilingual } from "../i18n/language.ts";

export type NoCorsFetch = (url: string, init: { mode: "no-cors"; method: "GET"; credentials: "omit"; signal?: AbortSignal }) => Promise<unknown>;

/** "cors" when `url` answers a no-cors request, "network" when it does not (or not within `timeoutMs`). */
export async function probeCors(url: string, fetchFn: NoCorsFetch = (u, i) => fetch(u, i), timeoutMs = 5000): Promise<"cors" | "network"> {
  const ctl = typeof AbortController !== "undefined" ? new AbortController() : undefined;
  const timer = setTimeout(() => ctl?.abort(), timeoutMs);
  try {
    await fetchFn(url, { mode: "no-cors", method: "GET", credentials: "omit", signal: ctl?.signal });
    return "cors";
  } catch {
    return "network";
  } finally {
    clearTimeout(timer);
  }
}

/** The message for a refusal: what happened and the two ways out (excel-addin/README.md, "Calling the API from the add-in"). */
export function corsRefusedMessage(baseUrl: string, origin: string): Bilingual {
  return {
    de: `Der Datendienst unter ${baseUrl} antwortet, lehnt aber Aufrufe von der Adresse dieses Add-ins (${origin}) ab (CORS). Abhilfe: Der Dienst erlaubt diese Herkunft, oder der Server des Add-ins leitet die Aufrufe weiter (Proxy auf derselben Herkunft, dann dessen Adresse als Basis-URL eintragen).`,
    en: `The data service at ${baseUrl} answers, but refuses calls from this add-in's address (${origin}) (CORS). To fix: the service allows this origin, or the add-in's server forwards the calls (a proxy on the same origin; then enter its address as the base URL).`,
  };
}
