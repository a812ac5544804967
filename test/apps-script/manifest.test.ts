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

const OUT = mkdtempSync(join(tmpdir(), "apps-script-manifest-"));
let manifest: Record<string, unknown> = {};

beforeAll(async () => {
  await buildWithReport(OUT);
  manifest = JSON.parse(readFileSync(join(OUT, "appsscript.json"), "utf8")) as Record<string, unknown>;
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
