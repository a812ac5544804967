/**
 * The sidebar's language while the user has saved none: the Google
 * account's (Session.getActiveUserLocale), by the one rule (de… German,
 * anything else English), not the settings' fixed German default, which
 * switched an English user's sidebar to German once the settings answered.
 * A saved language wins.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { createSheetsFake } from "./harness.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-language-"));
let code = "";
let emulator: Emulator;

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
  emulator = createEmulator({ companies: 200, startDate: "2026-01-15" });
}, 120_000);

function languageWith(locale: string, saved?: string): string {
  const f = createSheetsFake({ emulator, dist: OUT, locale });
  f.load(code);
  if (saved) f.setUser("language", saved);
  const r = JSON.parse(f.call("uiCall", "getSettings", "{}") as string) as { ok: boolean; value: { language: string } };
  expect(r.ok).toBe(true);
  return r.value.language;
}

describe("Sheets: the language before the user saves one", () => {
  it("follows the Google account's language: en → English, de → German, fr or unknown → English", () => {
    expect(languageWith("en")).toBe("en");
    expect(languageWith("de")).toBe("de");
    expect(languageWith("fr")).toBe("en");
    expect(languageWith("")).toBe("en");
  });

  it("a saved language wins over the account's", () => {
    expect(languageWith("en", "de")).toBe("de");
    expect(languageWith("de", "en")).toBe("en");
  });
});
