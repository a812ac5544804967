/**
 * dist/apps-script/appsscript.json for an editor add-on. Google's
 * "Manifests for Editor add-ons": the manifest has no properties specific to
 * editor add-ons; the `addOns` section (`addOns.common`, `useLocaleFromApp`)
 * configures Google Workspace add-ons, and `useLocaleFromApp` would also need
 * the script.locale scope. The add-on reads the locale through Session.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
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
    expect(Object.keys(manifest).sort()).toEqual(["exceptionLogging", "oauthScopes", "runtimeVersion", "timeZone", "urlFetchWhitelist"]);
    expect(manifest).not.toHaveProperty("addOns");
    expect(manifest).toMatchObject({ timeZone: "Europe/Berlin", runtimeVersion: "V8" });
  });

  it("asks for the five minimal scopes and may fetch only the production base and the alert webhooks", () => {
    expect(manifest.oauthScopes).toEqual([
      "https://www.googleapis.com/auth/spreadsheets.currentonly",
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
