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
import type { Bilingual } from "../i18n/index.ts";

export type NoCorsFetch = (
  url: string,
  init: { mode: "no-cors"; method: "GET"; credentials: "omit"; signal?: AbortSignal },
) => Promise<unknown>;

/** "cors" when `url` answers a no-cors request, "network" when it does not (or not within `timeoutMs`). */
export async function probeCors(
  url: string,
  fetchFn: NoCorsFetch = (u, i) => fetch(u, i),
  timeoutMs = 5000,
): Promise<"cors" | "network"> {
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

/** Where the team server is explained: the Excel add-in's README, section "Team server". */
export const TEAM_SERVER_DOCS = "excel-addin/README.md#team-server";

/**
 * The message for a refusal: what happened (this API does not allow calls
 * from Excel, or from this page) and the way out, a team server, with where
 * it is explained. A service that allows the origin later needs no change here.
 */
export function corsRefusedMessage(baseUrl: string, origin: string, from: "excel" | "page" = "page"): Bilingual {
  const where =
    from === "excel"
      ? { de: "aus Excel (Add-in-Adresse", en: "from Excel (add-in address" }
      : { de: "von dieser Seite (Adresse", en: "from this page (address" };
  return {
    de: `Der Datendienst unter ${baseUrl} antwortet, erlaubt aber keine Aufrufe ${where.de} ${origin}; CORS). Der Weg: ein Team-Server (company-data server, ein Proxy auf der Seite Ihres Teams, der den API-Schlüssel hält). Unter Einstellungen › Verbindung „Team-Server“ wählen und dessen Adresse und Ihr persönliches Token eintragen. Anleitung: ${TEAM_SERVER_DOCS}`,
    en: `The data service at ${baseUrl} answers, but does not allow calls ${where.en} ${origin}; CORS). The way: a team server (company-data server, a proxy on your team's side that holds the API key). Under Settings › Connection choose "Team server" and enter its address and your personal token. How: ${TEAM_SERVER_DOCS}`,
  };
}
