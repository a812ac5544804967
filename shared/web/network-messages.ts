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

/**
 * The same causes, said short enough for a cell (Excel shows a custom function's error message in the
 * cell's error callout; kept under CELL_MESSAGE_MAX characters with an address of up to 80), for the
 * custom functions (excel-addin/functions/network.ts). Every cause has one, "down" too: a cell has no
 * other place to say which address did not answer.
 */
export const CELL_MESSAGE_MAX = 255;

export function networkCellMessage(d: Diagnosis, c: FailureContext): Bilingual {
  const where = SPACE[d.target];
  if (d.cause === "lna-denied" || d.cause === "lna-not-granted") {
    const probably = d.cause === "lna-not-granted";
    return {
      de: `${probably ? "Wohl vom Browser blockiert" : "Vom Browser blockiert"} (Local Network Access): ${c.url} liegt ${where.de}. Abhilfe: Team-Server mit öffentlichem https-Namen oder „Lokales Netzwerk“ erlauben.`,
      en: `${probably ? "Likely blocked by the browser" : "Blocked by the browser"} (Local Network Access): ${c.url} is ${where.en}. Fix: a team server with a public https name, or allow "Local network".`,
    };
  }
  if (d.cause === "cors" && c.mode === "direct")
    return {
      de: `${c.url} antwortet, erlaubt aber keine Aufrufe aus Excel (CORS). Abhilfe: ein Team-Server (Einstellungen › Verbindung).`,
      en: `${c.url} answers but allows no calls from Excel (CORS). Fix: a team server (Settings › Connection).`,
    };
  if (d.cause === "cors")
    return {
      de: `Der Team-Server ${c.url} erlaubt dieses Add-in nicht (CORS): Der Administrator startet ihn mit --allow-origin ${c.origin}.`,
      en: `The team server ${c.url} does not allow this add-in (CORS): the administrator starts it with --allow-origin ${c.origin}.`,
    };
  return c.mode === "server"
    ? {
        de: `Keine Verbindung zum Team-Server ${c.url}: Dort antwortet nichts. Läuft er, stimmen Adresse und Port?`,
        en: `No connection to the team server ${c.url}: nothing answers there. Is it running, are address and port right?`,
      }
    : {
        de: `Keine Verbindung zu ${c.url}: Dort antwortet nichts. Bitte Netzwerk und Basis-URL prüfen.`,
        en: `No connection to ${c.url}: nothing answers there. Please check the network and the base URL.`,
      };
}
