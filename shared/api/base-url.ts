/**
 * The one rule for the API base URL, shared by every host (settings, CLI):
 * the key travels in a header of every request, so it must never go over
 * plain HTTP to another machine. https:// is required; http:// only for this
 * machine (127.0.0.0/8, localhost, [::1]), where the emulator runs. No
 * credentials, query or fragment: the base is joined with endpoint paths.
 * Parsed by hand: Apps Script has no URL class.
 */
import { CompanyDataError } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";

const PROBLEM = {
  form: {
    de: "erwartet wird eine Adresse der Form https://host[:port][/pfad]",
    en: "expected an address of the form https://host[:port][/path]",
  },
  insecure: {
    de: "http:// nur für dieses Gerät (127.0.0.1, localhost, [::1]); sonst https:// verwenden, damit der API-Schlüssel nicht unverschlüsselt übertragen wird",
    en: "http:// only for this machine (127.0.0.1, localhost, [::1]); otherwise use https:// so the API key is not sent unencrypted",
  },
  credentials: { de: "ohne Benutzername oder Passwort in der Adresse", en: "no user name or password in the address" },
  query: { de: "ohne ?Abfrage oder #Fragment", en: "no ?query or #fragment" },
  host: { de: "kein gültiger Hostname", en: "not a valid host name" },
  port: { de: "Port muss zwischen 1 und 65535 liegen", en: "port must be between 1 and 65535" },
} satisfies Record<string, Bilingual>;

export type BaseUrlProblem = keyof typeof PROBLEM;

/**
 * INVALID_INPUT naming the field and the rule broken. `label` is how the user
 * knows the field where it is not the settings' "base URL" (the CLI's
 * COMPANY_DATA_BASE_URL).
 */
function reject(field: string, problem: BaseUrlProblem, label?: Bilingual): CompanyDataError {
  return new CompanyDataError(
    "INVALID_INPUT",
    label ? { field, detail: PROBLEM[problem], label } : { field, detail: PROBLEM[problem] },
  );
}

const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`, "i");
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** True for the loopback addresses http:// is allowed to. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "localhost" || h === "[::1]") return true;
  const m = IPV4.exec(h);
  return !!m && m.slice(1).every((o) => Number(o) <= 255) && m[1] === "127";
}

/**
 * The base URL, normalised (scheme and host lower case, no trailing slash),
 * or a CompanyDataError INVALID_INPUT naming `field` and the rule broken.
 */
export function checkBaseUrl(url: string, field = "baseUrl", label?: Bilingual): string {
  const fail = (p: BaseUrlProblem) => reject(field, p, label);
  const v = typeof url === "string" ? url.trim() : "";
  if (!v || /[\s\\]/.test(v) || /[\u0000-\u001f\u007f]/.test(v)) throw fail("form");
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)([?#].*)?$/i.exec(v);
  if (!m) throw fail("form");
  // Groups 1–3 always take part in a match (possibly empty); only group 4 is optional.
  const [, scheme0 = "", authority = "", path = "", rest] = m;
  const scheme = scheme0.toLowerCase();
  if (scheme !== "https" && scheme !== "http") throw fail("form");
  if (authority.includes("@")) throw fail("credentials");
  if (rest !== undefined) throw fail("query");
  const hp = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d*))?$/i.exec(authority);
  if (!hp) throw fail("host");
  const host = (hp[1] ?? "").toLowerCase();
  if (!host.startsWith("[") && !HOSTNAME.test(host)) throw fail("host");
  if (
    IPV4.test(host) &&
    !IPV4.exec(host)!
      .slice(1)
      .every((o) => Number(o) <= 255)
  )
    throw fail("host");
  const port = hp[2];
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)) throw fail("port");
  if (scheme === "http" && !isLoopbackHost(host)) throw fail("insecure");
  return `${scheme}://${host}${port !== undefined ? ":" + port : ""}${path.replace(/\/+$/, "")}`;
}
