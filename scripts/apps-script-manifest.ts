/**
 * The deployed appsscript.json: manifests/appsscript.json, plus a team's
 * server when the add-on is built for one (`npm run build -- --team-server URL`,
 * `npm run sheets:push -- --team-server URL`). UrlFetchApp fetches only URLs
 * under a prefix of `urlFetchWhitelist`, and Google's rules for a prefix
 * (https://developers.google.com/apps-script/manifest/allowlist-url,
 * "Adding prefixes to your allowlist"): "Each prefix must be a valid URL",
 * "must use https://, not http://", "must have a full domain", "must have a
 * non-empty path. For example, https://www.google.com/ is valid but
 * https://www.google.com is not"; a URL matches when it "is the same as or a
 * child of the prefix", paths case-sensitive. A team server's prefix is its
 * address ending with a slash, so it admits exactly the server's paths.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const MANIFEST_SOURCE = join(ROOT, "manifests", "appsscript.json");

export interface AppsScriptManifest {
  urlFetchWhitelist: string[];
  [field: string]: unknown;
}

/** What is wrong with a team server's allowlist prefix (English: an admin's build message), or null. */
export function teamServerProblem(url: string): string | null {
  const rule = "see https://developers.google.com/apps-script/manifest/allowlist-url";
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `--team-server ${url}: not a URL (${rule}).`;
  }
  if (u.protocol !== "https:") return `--team-server ${url}: Apps Script fetches only https:// prefixes (${rule}).`;
  if (u.username || u.password) return `--team-server ${url}: no user name or password in the address.`;
  if (u.search || u.hash || /[?#]/.test(url)) return `--team-server ${url}: no query or fragment in a prefix.`;
  if (u.hostname.includes("*")) return `--team-server ${url}: name the server's own host, no wildcard.`;
  // A "full domain": a public name Google's servers resolve; loopback, an IP literal or a single label is not one.
  if (!u.hostname.includes(".") || /^[\d.]+$/.test(u.hostname) || u.hostname.startsWith("["))
    return `--team-server ${url}: the prefix needs a full domain name that Google's servers can reach (${rule}).`;
  if (!url.endsWith("/"))
    return `--team-server ${url}: a prefix must have a non-empty path and end with a slash, e.g. ${url}/ (${rule}).`;
  return null;
}

/** The manifest to deploy: the shipped one, with the team server's prefix added when given. */
export function deployedManifest(teamServer?: string): AppsScriptManifest {
  const manifest = JSON.parse(readFileSync(MANIFEST_SOURCE, "utf8")) as AppsScriptManifest;
  if (teamServer === undefined) return manifest;
  const problem = teamServerProblem(teamServer);
  if (problem) throw new Error(problem);
  if (!manifest.urlFetchWhitelist.includes(teamServer)) manifest.urlFetchWhitelist.push(teamServer);
  return manifest;
}

/** `--team-server URL` from a command line, and the arguments without it (for clasp). */
export function teamServerOption(argv: string[]): { teamServer?: string; rest: string[] } {
  const rest: string[] = [];
  let teamServer: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--team-server") {
      teamServer = argv[++i];
      if (!teamServer)
        throw new Error(
          "--team-server needs the server's address, e.g. --team-server https://company-data.example.com/",
        );
    } else if (a.startsWith("--team-server=")) teamServer = a.slice("--team-server=".length);
    else rest.push(a);
  }
  return { teamServer, rest };
}
