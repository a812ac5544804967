/**
 * dist/apps-script/appsscript.json for an editor add-on. Google's
 * "Manifests for Editor add-ons": the manifest has no properties specific to
 * editor add-ons; the `addOns` section (`addOns.common`, `useLocaleFromApp`)
 * configures Google Workspace add-ons, and `useLocaleFromApp` would also need
 * the script.locale scope. The add-on reads the locale through Session.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { SHEETS_WEBHOOK_PREFIXES } from "../../shared/monitor/alert-settings.ts";
import { teamServerOption, teamServerProblem } from "../../scripts/apps-script-manifest.ts";
import { createEmulator } from "../../emulator/index.ts";
import { createSheetsFake } from "./harness.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-manifest-"));
/** The same build for a team's server (`--team-server`). */
const TEAM_OUT = mkdtempSync(join(tmpdir(), "apps-script-team-"));
const TEAM = "https://company-data.example.com/";
let manifest: Record<string, unknown> = {};
let teamManifest: Record<string, unknown> = {};
const readManifest = (dir: string) =>
  JSON.parse(readFileSync(join(dir, "appsscript.json"), "utf8")) as Record<string, unknown>;

beforeAll(async () => {
  await Promise.all([buildWithReport(OUT), buildWithReport(TEAM_OUT, { teamServer: TEAM })]);
  manifest = readManifest(OUT);
  teamManifest = readManifest(TEAM_OUT);
});

describe("appsscript.json", () => {
  it("is an editor add-on's manifest: general properties only, no Workspace add-on section", () => {
    expect(Object.keys(manifest).sort()).toEqual([
      "exceptionLogging",
      "oauthScopes",
      "runtimeVersion",
      "timeZone",
      "urlFetchWhitelist",
    ]);
    expect(manifest).not.toHaveProperty("addOns");
    expect(manifest).toMatchObject({ timeZone: "Europe/Berlin", runtimeVersion: "V8" });
  });

  // The scheduled check opens its spreadsheet by id (SpreadsheetApp.openById), as a time-driven
  // trigger has no active document; spreadsheets.currentonly does not allow that
  // (https://developers.google.com/apps-script/concepts/scopes; trade-off in apps-script/README.md).
  it("asks for the five scopes it needs and may fetch only the production base and the alert webhooks", () => {
    expect(manifest.oauthScopes).toEqual([
      "https://www.googleapis.com/auth/spreadsheets",
      "https://www.googleapis.com/auth/script.external_request",
      "https://www.googleapis.com/auth/script.container.ui",
      "https://www.googleapis.com/auth/script.scriptapp",
      // MailApp for the alert digest: send only, no mailbox access (apps-script/mail.ts).
      "https://www.googleapis.com/auth/script.send_mail",
    ]);
    // The production API, and the webhook prefixes the alert settings accept on Sheets (SHEETS_WEBHOOK_PREFIXES).
    expect(manifest.urlFetchWhitelist).toEqual(["https://api.implisense.com/", ...SHEETS_WEBHOOK_PREFIXES]);
  });
});

describe("a deployment for a team server (--team-server)", () => {
  it("lists the server's prefix in the built urlFetchWhitelist, after the shipped ones; nothing else changes", () => {
    expect(teamManifest.urlFetchWhitelist).toEqual([...(manifest.urlFetchWhitelist as string[]), TEAM]);
    expect({ ...teamManifest, urlFetchWhitelist: null }).toEqual({ ...manifest, urlFetchWhitelist: null });
  });

  it("refuses a prefix Apps Script's allowlist rules do not take: https, a full domain, a path ending with a slash", () => {
    expect(teamServerProblem(TEAM)).toBeNull();
    expect(teamServerProblem("https://cd.example.com/team/")).toBeNull();
    expect(teamServerProblem("http://cd.example.com/")).toMatch(/only https/);
    expect(teamServerProblem("https://cd.example.com")).toMatch(
      /end with a slash, e\.g\. https:\/\/cd\.example\.com\//,
    );
    expect(teamServerProblem("https://cd.example.com/team")).toMatch(/end with a slash/);
    expect(teamServerProblem("https://intranet/")).toMatch(/full domain/);
    expect(teamServerProblem("https://10.0.0.5/")).toMatch(/full domain/);
    expect(teamServerProblem("https://cd.example.com/?x=1")).toMatch(/query/);
    expect(teamServerProblem("https://u:p@cd.example.com/")).toMatch(/password/);
    expect(teamServerProblem("not a url")).toMatch(/not a URL/);
    expect(() => teamServerOption(["--team-server"])).toThrow(/needs the server's address/);
    expect(teamServerOption(["--team-server", TEAM, "--force"])).toEqual({ teamServer: TEAM, rest: ["--force"] });
    expect(teamServerOption([`--team-server=${TEAM}`])).toEqual({ teamServer: TEAM, rest: [] });
  });

  it("a bad --team-server stops the build before anything is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "apps-script-bad-"));
    writeFileSync(join(dir, "keep.txt"), "x");
    await expect(buildWithReport(dir, { teamServer: "http://cd.example.com/" })).rejects.toThrow(/only https/);
    expect(readFileSync(join(dir, "keep.txt"), "utf8")).toBe("x");
  });

  /** Settings of the add-on built into `dir`: saveSettings with a team server address, as the sidebar sends it. */
  function saveServer(dir: string, serverUrl: string, language: "de" | "en") {
    const emulator = createEmulator({ startDate: "2026-01-15" });
    const f = createSheetsFake({ emulator, dist: dir });
    f.load(readFileSync(join(dir, "Code.js"), "utf8"));
    f.setUser("language", language);
    return () => f.call("saveSettings", { connection: "server", serverUrl, serverToken: "tok-123" });
  }

  it("Settings refuses a server outside the deployed allowlist, in the user's language, naming the admin's command", () => {
    for (const [language, words] of [
      ["en", /may not fetch https:\/\/other\.example\.org\/[\s\S]*admin deploys[\s\S]*/],
      ["de", /darf https:\/\/other\.example\.org\/ nicht abrufen[\s\S]*Administrator/],
    ] as const) {
      const save = saveServer(OUT, "https://other.example.org", language);
      expect(save).toThrow(words);
      expect(save).toThrow(/npm run sheets:push -- --team-server https:\/\/other\.example\.org\//);
    }
    // The shipped deployment does not list the team's server either; the team's own build does.
    expect(saveServer(OUT, TEAM, "en")).toThrow(/--team-server https:\/\/company-data\.example\.com\//);
    expect(saveServer(TEAM_OUT, "https://company-data.example.com", "en")()).toMatchObject({ connection: "server" });
    expect(saveServer(TEAM_OUT, "https://company-data.example.com/v2-proxy", "en")()).toMatchObject({
      connection: "server",
    });
  });
});

describe("apps-script/README.md says what the built appsscript.json holds", () => {
  const readme = readFileSync(join(import.meta.dirname, "..", "..", "apps-script", "README.md"), "utf8");
  const NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

  it("the files table's appsscript.json row: the number of scopes and every allowlist prefix", () => {
    const row = readme.split("\n").find((l) => l.startsWith("| `appsscript.json` |")) ?? "";
    const scopes = manifest.oauthScopes as string[];
    expect(row).toContain(`${NUMBERS[scopes.length]} scopes`);
    const prefixes = [...row.matchAll(/`(https:\/\/[^`]+)`/g)].map((m) => m[1]);
    expect(prefixes).toEqual(manifest.urlFetchWhitelist);
    expect(row).toContain("--team-server");
  });

  it("the OAuth scopes table lists exactly the manifest's scopes", () => {
    const section = readme.slice(readme.indexOf("## OAuth scopes"), readme.indexOf("## Whose key"));
    const listed = [...section.matchAll(/^\| `([a-z._]+)` \|/gm)].map((m) => `https://www.googleapis.com/auth/${m[1]}`);
    expect(listed).toEqual(manifest.oauthScopes);
  });

  it("tells the team to deploy with --team-server, not to edit the manifest by hand", () => {
    expect(readme).toContain("npm run sheets:push -- --team-server https://");
    expect(readme).toMatch(/## Deploying for a team[\s\S]*private \(your Workspace domain\)[\s\S]*public listing/);
    expect(readme).not.toMatch(/adds its server's prefix to its copy/);
  });
});

describe("npm run sheets:push", () => {
  it("says what to do when .clasp.json is missing or still the example, and accepts a real one", async () => {
    const { claspConfigProblem } = await import("../../scripts/sheets-push.ts");
    const dir = mkdtempSync(join(tmpdir(), "clasp-"));
    expect(claspConfigProblem(join(dir, ".clasp.json"))).toMatch(
      /\.clasp\.json is missing[\s\S]*cp \.clasp\.json\.example \.clasp\.json[\s\S]*Script ID/,
    );
    writeFileSync(join(dir, ".clasp.json"), readFileSync(join(import.meta.dirname, "..", "..", ".clasp.json.example")));
    expect(claspConfigProblem(join(dir, ".clasp.json"))).toMatch(/no Script ID yet/);
    writeFileSync(join(dir, ".clasp.json"), JSON.stringify({ scriptId: "1AbCdEf", rootDir: "dist/apps-script" }));
    expect(claspConfigProblem(join(dir, ".clasp.json"))).toBeNull();
  });

  it("uses the clasp pinned in devDependencies (3.x, exact), never one npx would fetch", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8")) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies["@google/clasp"]).toMatch(/^3\.\d+\.\d+$/);
    expect(pkg.scripts["sheets:push"]).toBe("tsx scripts/sheets-push.ts");
    expect(Object.values(pkg.scripts).join(" ")).not.toMatch(/npx --yes @google\/clasp/);
  });
});
