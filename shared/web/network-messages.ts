/**
 * What Test connection says when a page could not reach the API or the team
 * server (the cause from local-network.ts), in the user's words, each with
 * what to do: the way that works in every host is a team server under a
 * public https name (server/README.md, "Where the team server can live").
 */
import type { Bilingual } from "../i18n/index.ts";
import { corsRefusedMessage } from "./cors-probe.ts";
import type { AddressSpace, Diagnosis } from "./local-network.ts";

/** Where the deployment that works in every host is explained. */
export const SERVER_PLACEMENT_DOCS = "server/README.md#where-the-team-server-can-live";

export interface FailureContext {
  /** The address typed or saved (the API's base URL or the team server's). */
  url: string;
  /** This page's origin (location.origin). */
  origin: string;
  mode: "direct" | "server";
  from: "excel" | "page";
}

const SPACE: Record<AddressSpace, Bilingual> = {
  loopback: { de: "auf diesem Rechner (localhost)", en: "on this computer (localhost)" },
  local: { de: "im lokalen Netz", en: "on the local network" },
  unknown: { de: "im lokalen Netz", en: "on the local network" },
  public: { de: "im Internet", en: "on the internet" },
};

const WAY_OUT: Bilingual = {
  de: `Was hilft: den Team-Server unter einem öffentlichen https-Namen betreiben (TLS davor, diese Seite mit --allow-origin erlaubt; ${SERVER_PLACEMENT_DOCS}). Übergangsweise: in den Website-Einstellungen des Browsers für diese Seite „Lokales Netzwerk“ erlauben; in Firmen per Richtlinie LocalNetworkAccessAllowedForUrls.`,
  en: `What helps: run the team server under a public https name (TLS in front, this page allowed with --allow-origin; ${SERVER_PLACEMENT_DOCS}). Meanwhile: allow "Local network" for this page in the browser's site settings; in a company, by the policy LocalNetworkAccessAllowedForUrls.`,
};

function lnaMessage(d: Diagnosis, c: FailureContext): Bilingual {
  const where = SPACE[d.target];
  const head: Bilingual =
    d.cause === "lna-denied"
      ? {
          de: `Der Browser hat die Verbindung zu ${c.url} blockiert: Die Adresse liegt ${where.de}, und diese Seite (${c.origin}) darf dorthin nicht zugreifen (Local Network Access, Chrome und Edge ab Version 142; die Erlaubnis ist abgelehnt).`,
          en: `The browser blocked the connection to ${c.url}: the address is ${where.en}, and this page (${c.origin}) may not reach it (Local Network Access, Chrome and Edge from version 142; the permission is denied).`,
        }
      : {
          de: `Keine Verbindung zu ${c.url}. Die Adresse liegt ${where.de}; der Browser lässt diese Seite (${c.origin}) dorthin nur mit Erlaubnis zugreifen (Local Network Access), und sie ist nicht erteilt. Wahrscheinlich blockiert er deshalb – sonst läuft der Server nicht.`,
          en: `No connection to ${c.url}. The address is ${where.en}; the browser lets this page (${c.origin}) reach it only with permission (Local Network Access), which is not granted. That is the likely block – otherwise the server is not running.`,
        };
  return { de: `${head.de} ${WAY_OUT.de}`, en: `${head.en} ${WAY_OUT.en}` };
}

/** The message for a cause; null for "down" in direct mode (the error's own "no connection" says it). */
export function networkFailureMessage(d: Diagnosis, c: FailureContext): Bilingual | null {
  if (d.cause === "lna-denied" || d.cause === "lna-not-granted") return lnaMessage(d, c);
  if (d.cause === "cors" && c.mode === "direct") return corsRefusedMessage(c.url, c.origin, c.from);
  if (d.cause === "cors")
    return {
      de: `Der Team-Server unter ${c.url} antwortet, erlaubt aber keine Aufrufe von dieser Seite (${c.origin}; CORS). Der Administrator startet ihn mit --allow-origin ${c.origin} (server/README.md).`,
      en: `The team server at ${c.url} answers, but does not allow calls from this page (${c.origin}; CORS). The administrator starts it with --allow-origin ${c.origin} (server/README.md).`,
    };
  if (c.mode === "direct") return null;
  return {
    de: `Keine Verbindung zum Team-Server unter ${c.url}: Dort antwortet nichts. Läuft der Server, stimmen Adresse und Port? Im Browser zeigt ${c.url}/health, ob er erreichbar ist.`,
    en: `No connection to the team server at ${c.url}: nothing answers there. Is the server running, are the address and port right? In the browser, ${c.url}/health shows whether it can be reached.`,
  };
}
