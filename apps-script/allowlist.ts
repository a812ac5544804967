/**
 * The URL prefixes this deployment may fetch: the built appsscript.json's
 * `urlFetchWhitelist`, injected by the build (scripts/build-apps-script.ts
 * defines URL_FETCH_ALLOWLIST), so Settings can refuse a team server that
 * the deployed copy does not list. UrlFetchApp fetches only URLs under one of
 * these prefixes (https://developers.google.com/apps-script/manifest/allowlist-url:
 * "script projects can't access URLs that have not been added to the
 * allowlist"); without the check, every request to such a server would fail
 * later with Google's "not allowlisted" error.
 */
import { invalid } from "../shared/core/index.ts";
import { underPrefix } from "../shared/monitor/index.ts";

declare const URL_FETCH_ALLOWLIST: readonly string[] | undefined;

/** The allowlist the build injected; null when the bundle was built without one (then nothing is refused here). */
export function deployedAllowlist(): readonly string[] | null {
  return typeof URL_FETCH_ALLOWLIST === "undefined" ? null : URL_FETCH_ALLOWLIST;
}

/** The command an admin runs to deploy the add-on for a team server (scripts/sheets-push.ts). */
export const teamServerCommand = (prefix: string) => `npm run sheets:push -- --team-server ${prefix}`;

/** The allowlist prefix a server address needs: its origin and path, ending with a slash. */
export const prefixOf = (url: string) => url.replace(/[?#].*$/, "").replace(/\/*$/, "/");

/**
 * Refuse a team server this deployment may not fetch, naming the command
 * that deploys a copy which lists it. `url` is the address as saved
 * (checkBaseUrl's form: no trailing slash); requests go to paths under it.
 */
export function checkTeamServerAllowed(url: string, allowlist = deployedAllowlist()): void {
  if (!allowlist || !url) return;
  const prefix = prefixOf(url);
  if (allowlist.some((p) => underPrefix(prefix, p))) return;
  const command = teamServerCommand(prefix);
  throw invalid(
    "serverUrl",
    {
      de: `Diese Installation des Add-ons darf ${prefix} nicht abrufen: Google Sheets ruft nur Adressen aus der Liste „urlFetchWhitelist“ der Installation ab. Ihr Administrator installiert das Add-on für diesen Server mit: ${command}`,
      en: `This deployment of the add-on may not fetch ${prefix}: Google Sheets fetches only addresses in the deployment's "urlFetchWhitelist". Your admin deploys the add-on for this server with: ${command}`,
    },
    { de: "Team-Server", en: "team server" },
  );
}
