/**
 * Saved searches through the app service against the emulator: saved per
 * document, re-run to list only companies founded since the last run
 * (1 credit a run), replaced by name, deleted, and checked like a search.
 */
import { describe, expect, it } from "vitest";
import { harness } from "../app/harness.ts";

const DAY = 24 * 3600 * 1000;

async function ready() {
  const h = harness();
  await h.call("saveSettings", { apiKey: h.key, baseUrl: "https://emulator.test", language: "de" });
  return h;
}

describe("saved searches", () => {
  it("the first run lists everything; a re-run lists only companies founded since the last run; each run costs 1 credit", async () => {
    const h = await ready();
    // Saved and first run a year ago (the fake clock), re-run today.
    h.advance(-365 * DAY);
    await h.call("saveSearch", { name: "IT Bayern", query: "", filters: { industry: "J62", state: "DE-BY" } });
    const before = h.emu.balance(h.key);
    const first = await h.call("runSavedSearch", { name: "IT Bayern" });
    expect(first.since).toBeNull();
    expect(first.total).toBeGreaterThan(5);
    h.advance(365 * DAY);
    const again = await h.call("runSavedSearch", { name: "IT Bayern" });
    expect(again.since).toBe("2024-06-02");
    expect(again.total).toBeLessThan(first.total);
    for (const c of again.companies) {
      const p = h.emu.world.profile(h.emu.world.byId(c.id)!, "de") as Record<string, any>;
      expect(p.industry.code).toMatch(/^J62/);
      expect(p.state).toBe("DE-BY");
      // Founded within the year (the age bound has month precision).
      expect(p.foundingDate >= "2024-05").toBe(true);
    }
    expect(before - h.emu.balance(h.key)).toBe(2);
    const list = await h.call("listSavedSearches");
    expect(list).toEqual([
      { name: "IT Bayern", input: { query: "", filters: { industry: "J62", state: "DE-BY" } }, lastRun: "2025-06-02" },
    ]);
  });

  it("saving under the same name replaces; delete removes; a bad filter is refused before anything is stored; unknown names are named", async () => {
    const h = await ready();
    await h.call("saveSearch", { name: "A", query: "Software" });
    await h.call("saveSearch", { name: "B", query: "Logistik", place: "Hamburg", radiusKm: 20 });
    const replaced = await h.call("saveSearch", { name: "A", query: "Bau" });
    expect(replaced.map((s: any) => [s.name, s.input.query])).toEqual([
      ["B", "Logistik"],
      ["A", "Bau"],
    ]);
    const bad = await h.raw("saveSearch", { name: "C", query: "", filters: { state: "Texas" } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.field).toBe("state");
      expect(bad.error.message.de).toContain("kein Bundesland");
    }
    expect((await h.call("deleteSavedSearch", { name: "B" })).map((s: any) => s.name)).toEqual(["A"]);
    const missing = await h.raw("runSavedSearch", { name: "B" });
    expect(!missing.ok && missing.error.message.en).toContain('no saved search "B"');
  });
});
