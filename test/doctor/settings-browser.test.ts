/**
 * Settings → Test connection in the playground (the one UI of Sheets, Excel
 * and the playground, shared/ui/), in Chromium: against the emulator it
 * shows "safe to spend" and the proof that nothing was spent; against the
 * drifted emulator "not safe" and the findings with the columns they empty.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { playgroundWorld, screenshot, skipWithoutChromium, type PlaygroundWorld } from "../browser/browser.ts";

const worlds: PlaygroundWorld[] = [];
/** The doctor's three provoked error answers (an unknown id, two malformed bodies): Chromium logs each; nothing else may fail. */
const unexpected = (errors: string[]) =>
  errors.filter((e) => !/^Failed to load resource: the server responded with a status of (400|404) /.test(e));
afterAll(async () => {
  for (const w of worlds) await w.close();
});

async function testConnection(drift: boolean, rebuild: boolean) {
  const emu = createEmulator({ companies: 500, startDate: "2026-01-15", drift });
  const w = await playgroundWorld(emu, { rebuild });
  worlds.push(w);
  const before = emu.balance(emu.demoKey);
  await w.page.click("#cd-tab-settings");
  await w.page.waitForSelector("#settings-test");
  await w.page.click("#settings-test");
  await w.page.waitForSelector("#settings-doctor-verdict");
  return { w, emu, before };
}

describe.skipIf(skipWithoutChromium())("Settings → Test connection runs the doctor", () => {
  it("against the emulator: safe to spend, 0 credits spent", async () => {
    const { w, emu, before } = await testConnection(false, true);
    const verdict = await w.page.textContent("#settings-doctor-verdict");
    expect(verdict).toMatch(
      /^(Ergebnis: alles wie erwartet\. Ausgeben ist sicher\.|Result: everything as expected\. Safe to spend\.)$/,
    );
    expect(await w.page.textContent("#settings-doctor-spent")).toMatch(/^(0 Credits ausgegeben|0 credits spent)/);
    expect(await w.page.$("#settings-doctor-findings")).toBeNull();
    expect(emu.balance(emu.demoKey)).toBe(before);
    expect(unexpected(w.errors)).toEqual([]);
  }, 180_000);

  it("against the drifted emulator: not safe, each finding with what it affects", async () => {
    const { w, emu, before } = await testConnection(true, false);
    expect(await w.page.textContent("#settings-doctor-verdict")).toMatch(/NICHT sicher|NOT safe/);
    const findings = await w.page.$$eval("#settings-doctor-findings li", (els) => els.map((e) => e.textContent ?? ""));
    expect(findings.some((f) => /`status`.*matchStatus/.test(f))).toBe(true);
    expect(findings.some((f) => /legalForm/.test(f) && /(Rechtsform|Legal form)/.test(f))).toBe(true);
    expect(findings.some((f) => /`error`/.test(f))).toBe(true);
    expect(emu.balance(emu.demoKey)).toBe(before);
    await screenshot(w.page, "settings-doctor-drift");
    expect(unexpected(w.errors)).toEqual([]);
  }, 180_000);
});
