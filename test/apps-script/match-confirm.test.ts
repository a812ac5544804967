/**
 * Issue 12 item 2 in the built Code.js (the Sheets sidebar's server calls):
 * a list of 1,000 names is matched first, across the 6-minute limit, then
 * waits for the second confirmation; continued, it is charged the shown price
 * and no more, without matching again.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { createSheetsFake } from "./harness.ts";
import { uniqueNames } from "../helpers/names.ts";
import type { EnrichProgressView } from "../../shared/app/protocol.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-confirm-"));
let code = "";
let emulator: Emulator;

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
  emulator = createEmulator({ companies: 3000, startDate: "2026-01-15" });
}, 120_000);

describe("Sheets: a large list asks again after matching", () => {
  it("matching survives the time limit, the step waits for the answer, and the rest costs exactly the price shown", () => {
    const names = uniqueNames(emulator, 1000);
    const table = [["Firma"], ...names.map((n) => [n])];
    let t = Date.UTC(2026, 0, 15, 10);
    let batches = 0;
    const f = createSheetsFake({
      emulator,
      dist: OUT,
      sheets: { Daten: table },
      now: () => t,
      onFetch: (reqs) => {
        batches += reqs.filter((r) => r.url.endsWith("/batch/resolve")).length;
        // Halfway through the matching the step's time runs out (the 6-minute limit, a closed sidebar).
        if (batches === 25) t += 10 * 60_000;
      },
    });
    f.load(code);
    f.setClock(() => t);
    const key = emulator.createKey(100_000);
    for (const [k, v] of Object.entries({ apiKey: key, baseUrl: "https://api.implisense.com", language: "de" }))
      f.setUser(k, v);
    const call = (method: string, input: unknown) => {
      const r = JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as {
        ok: boolean;
        value: EnrichProgressView;
      };
      expect(r.ok).toBe(true);
      return r.value;
    };
    const config = {
      sheet: "Daten",
      headerRow: 1,
      col: 1,
      rows: 1000,
      cols: 1,
      mapping: { name: 0, city: null, zip: null, register: null, id: null },
      fields: ["id", "name", "address"],
      mode: "batch",
      rerun: { kind: "newOrFailed" },
    };
    const before = emulator.balance(key);
    const start = call("enrichStart", config);
    const first = call("enrichStep", { jobId: start.jobId });
    expect(first.finished).toBe(false);
    expect(first.afterMatching ?? null).toBeNull();
    expect(first.processed).toBeLessThan(1000);
    // A sidebar opened later continues the matching where it stopped.
    expect(call("enrichStatus", {})).toMatchObject({ jobId: start.jobId });
    f.resetCounts();
    const second = call("enrichStep", { jobId: start.jobId });
    const a = second.afterMatching!;
    expect(a).toMatchObject({ rows: 1000, found: 1000, companies: 1000, credits: 1000, ceiling: 1000 });
    // The matching paid each name once, in whole tens, across the two steps; no profile yet.
    expect(before - emulator.balance(key)).toBe(100);
    expect(f.calls.filter((c) => !c.startsWith("state:")).length).toBeLessThanOrEqual(20);
    // Waiting: a step does nothing.
    const fetches = f.fetches.length;
    call("enrichStep", { jobId: start.jobId });
    expect(f.fetches.length).toBe(fetches);

    let p = call("enrichConfirm", { jobId: start.jobId, proceed: true });
    const mid = emulator.balance(key);
    for (let i = 0; i < 5 && !p.finished; i++) p = call("enrichStep", { jobId: start.jobId });
    expect(p.finished).toBe(true);
    expect(p.matched).toBe(1000);
    expect(mid - emulator.balance(key)).toBe(a.credits);
    expect(p.creditsSpent).toBe(before - emulator.balance(key));
    const out = f.grids.get("Daten")!;
    expect(out.slice(1, 1001).every((r) => r[1] === "gefunden")).toBe(true);
  }, 300_000);
});
