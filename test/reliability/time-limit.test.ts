/**
 * Time limit (issue 8, reliability 3): the Sheets enrichment (built Code.js
 * in the Apps Script harness, driven as the sidebar drives it) is killed at
 * random points, 20 times, and resumed; the final sheet equals an
 * uninterrupted run. The kill is V8's own termination (node:vm timeout):
 * like Apps Script at 6 minutes, it stops the script and runs no catch or
 * finally, so gathered writes and the lock are left as they are. It strikes
 * while the script waits for UrlFetchApp (where a real run spends its time),
 * at a random one of the step's fetches: a kill inside the fakes' own
 * multi-cell writes would tear a write that in Apps Script is one atomic
 * service call, which is a fault of the fake, not of the add-on.
 */
import { beforeAll, describe, expect, it } from "vitest";
import vm from "node:vm";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { benchList, rng } from "../support/lists.ts";
import { buildCodeJs, sheetsEnrich, type AppsScriptProject } from "../support/sheets-driver.ts";

let code: AppsScriptProject = { code: "", files: {} };
let emu: Emulator;

beforeAll(async () => {
  code = await buildCodeJs();
  emu = createEmulator({ companies: 3000, startDate: "2026-06-01" });
}, 60_000);

describe("the Sheets job under the time limit", () => {
  it("cut at 20 random points and resumed, the sheet equals an uninterrupted run", () => {
    const list = benchList(emu, { total: 240, distinct: 150, duplicates: 25, unknown: 15, seed: 21 });
    const names = list.rows.map((r) => r.name);

    const ref = sheetsEnrich(code, emu, emu.createKey(100_000), names);
    const t0 = performance.now();
    let p = ref.call("enrichStart", ref.config);
    for (let i = 0; i < 50 && !p.finished; i++) p = ref.call("enrichStep", { jobId: p.jobId });
    expect(p.finished).toBe(true);
    const fullMs = performance.now() - t0;
    const expected = ref.fake.grids.get("Liste");
    const fetchesPerRun = ref.fake.fetches.length;
    expect(fetchesPerRun).toBeGreaterThan(5);

    const random = rng(77);
    let cuts = 0;
    const cutAt: number[] = [];
    let killAtFetch = -1;
    const onFetch = () => {
      if (killAtFetch < 0 || killAtFetch-- > 0) return;
      for (;;) {
        /* the platform's limit ends this execution here */
      }
    };
    for (let trial = 0; trial < 20; trial++) {
      const run = sheetsEnrich(code, emu, emu.createKey(100_000), names, { onFetch });
      const start = run.call("enrichStart", run.config);
      // One or two kills at random points of a step, each followed by the sidebar calling again.
      const kills = 1 + Math.floor(random() * 2);
      for (let k = 0; k < kills; k++) {
        // A point drawn past the end of the step at hand (a step does one phase's part of the run) does not
        // cut it: the step just runs whole, and a new point is drawn for the same kill, until one cuts.
        for (let attempt = 0, cut = false, finished = false; attempt < 8 && !cut && !finished; attempt++) {
          // A run waiting after its matching (a large list asks again) is continued as the sidebar does: the
          // confirmation runs the first buying step itself (firstStep), so the kill may meet that step too.
          const status = JSON.parse(String(run.fake.call("uiCall", "enrichStatus", "{}"))) as {
            value?: { afterMatching?: unknown } | null;
          };
          killAtFetch = Math.floor(random() * fetchesPerRun);
          const timeout = Math.ceil(fullMs * 2 + 20);
          run.fake.context.__args = status.value?.afterMatching
            ? ["enrichConfirm", JSON.stringify({ jobId: start.jobId, proceed: true, firstStep: true })]
            : ["enrichStep", JSON.stringify({ jobId: start.jobId })];
          try {
            const out = JSON.parse(
              String(vm.runInContext("uiCall.apply(null, __args)", run.fake.context, { timeout })),
            ) as { value?: { finished?: boolean } };
            finished = out.value?.finished === true;
          } catch (e) {
            expect(String((e as Error).message)).toMatch(/timed out/);
            cuts++;
            cut = true;
            cutAt.push(killAtFetch);
          }
          killAtFetch = -1;
          // Apps Script releases a dead execution's lock.
          vm.runInContext("LockService.getDocumentLock().releaseLock()", run.fake.context);
        }
      }
      let q = run.call("enrichStep", { jobId: start.jobId });
      for (let i = 0; i < 50 && !q.finished; i++) q = run.call("enrichStep", { jobId: start.jobId });
      expect(q.finished).toBe(true);
      expect(run.fake.grids.get("Liste"), `trial ${trial}, cut at fetches ${cutAt.join(",")}`).toEqual(expected);
    }
    expect(cuts).toBeGreaterThanOrEqual(20);
    // Each kill spins for up to twice a whole run; a list this size runs in two phases (match, then buy), so a run is longer.
  }, 240_000);
});
