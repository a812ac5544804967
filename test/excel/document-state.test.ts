/**
 * The workbook's state in the workbook (issue 42, item 1;
 * excel-addin/host/document-state.ts, file-store.ts) against the fake of
 * Office.Settings over one shared file (excel-addin/sim/file-settings.ts:
 * in-memory copies, the whole bag saved by saveAsync, last writer wins,
 * refreshAsync, the 2 MB limit, failing saves).
 */
import { describe, expect, it } from "vitest";
import { createExcelDriver } from "../../excel-addin/host/driver.ts";
import { memoryStorage } from "../../excel-addin/host/storage.ts";
import { documentState, FILE_STATE_CAP_CHARS, belongsToFile } from "../../excel-addin/host/document-state.ts";
import {
  giveBackLease,
  moveStateIntoFile,
  renewLease,
  takeLease,
  withDocumentState,
} from "../../excel-addin/host/file-store.ts";
import { fakeSettings, sharedFile, type SharedFile } from "../../excel-addin/sim/file-settings.ts";

const DOC = "wb-1";

/** One device with the file open: its own OfficeRuntime.storage, its own copy of the settings. */
function device(file: SharedFile, storage = memoryStorage()) {
  const settings = fakeSettings(file);
  const state = documentState(settings);
  const base = createExcelDriver({ fetch: async () => new Response(""), storage, docId: async () => DOC });
  return { storage, settings, state, store: withDocumentState(base, state) };
}

const fileText = (file: SharedFile) => JSON.stringify(Object.fromEntries(file.bag));

describe("the workbook's state in the workbook", () => {
  it("puts the document's keys into the file and keeps secrets, the formula budget and the webhook on the device", async () => {
    const file = sharedFile();
    const a = device(file);
    await a.store.storePut({
      "user:apiKey": "cd_live_SECRET_1234567890",
      "user:serverToken": "cdt_TOKEN_abcdef",
      "doc:mon:schedule": '{"v":1,"enabled":true}',
      "doc:mon:server": '{"v":1,"name":"wb-abc"}',
      "savedSearches|s1": '{"v":1,"searches":[]}',
      "doc:budget:s1": '{"v":1,"day":"2026-11-27","spent":3}',
      "doc:ledger:s1": "{}",
      "doc:mon:alerts": '{"v":1,"webhook":"https://hooks.slack.com/services/T/B/X"}',
    });
    const text = fileText(file);
    expect(text).toContain("wb-abc");
    expect(text).toContain("savedSearches|s1");
    expect(text).not.toMatch(/SECRET|TOKEN|hooks\.slack|spent/);
    expect([...a.storage.data.keys()].sort()).toEqual([
      `cd:doc:${DOC}:budget:s1`,
      `cd:doc:${DOC}:ledger:s1`,
      `cd:doc:${DOC}:mon:alerts`,
      "cd:user:apiKey",
      "cd:user:serverToken",
    ]);
    // Another device opening the file reads the document's state, not the first device's secrets.
    const b = device(file);
    expect(await b.store.storeGet(["doc:mon:schedule", "savedSearches|s1", "user:apiKey", "doc:budget:s1"])).toEqual([
      '{"v":1,"enabled":true}',
      '{"v":1,"searches":[]}',
      null,
      null,
    ]);
    expect(belongsToFile("doc:mon:x1:c:C-1")).toBe(true);
    expect(belongsToFile("doc:audit:index")).toBe(false);
  });

  it("moves a workbook made before the change into the file the first time it opens (once; the file's newer value wins)", async () => {
    const file = sharedFile();
    const legacy = memoryStorage();
    await legacy.setItems({
      [`cd:doc:${DOC}:mon:schedule`]: '{"v":1,"enabled":true,"hour":9}',
      [`cd:doc:${DOC}:mon:server`]: '{"v":1,"name":"wb-old","cursor":4}',
      [`cd:doc:${DOC}:savedSearches|s1`]: '{"v":1,"searches":[{"name":"Bäcker"}]}',
      [`cd:doc:${DOC}:budget:s1`]: '{"v":1,"spent":2}',
      [`cd:doc:other:mon:schedule`]: '{"v":1,"other":true}',
      "cd:user:apiKey": "cd_live_SECRET",
    });
    const a = device(file, legacy);
    expect(await moveStateIntoFile(legacy, DOC, a.state)).toBe(3);
    expect([...legacy.data.keys()].sort()).toEqual(
      ["cd:doc:other:mon:schedule", `cd:doc:${DOC}:budget:s1`, "cd:user:apiKey"].sort(),
    );
    // A second device (no local state at all) sees the moved schedule, link and saved searches.
    const b = device(file);
    expect(await b.store.storeGet(["doc:mon:schedule", "doc:mon:server", "savedSearches|s1"])).toEqual([
      '{"v":1,"enabled":true,"hour":9}',
      '{"v":1,"name":"wb-old","cursor":4}',
      '{"v":1,"searches":[{"name":"Bäcker"}]}',
    ]);
    // Opened again: nothing left to move. A stale copy on a third device does not overwrite the file's value.
    expect(await moveStateIntoFile(legacy, DOC, a.state)).toBe(0);
    const stale = memoryStorage();
    await stale.setItems({ [`cd:doc:${DOC}:mon:server`]: '{"v":1,"name":"wb-old","cursor":1}' });
    const c = device(file, stale);
    expect(await moveStateIntoFile(stale, DOC, c.state)).toBe(0);
    expect(stale.data.size).toBe(0);
    expect(await c.store.storeGet(["doc:mon:server"])).toEqual(['{"v":1,"name":"wb-old","cursor":4}']);
  });

  it("a save the file refuses keeps everything on the device (read back from there), and the move deletes nothing", async () => {
    const file = sharedFile();
    const legacy = memoryStorage();
    await legacy.setItems({ [`cd:doc:${DOC}:mon:schedule`]: '{"v":1,"enabled":true}' });
    const a = device(file, legacy);
    a.settings.failSaves = true;
    expect(await moveStateIntoFile(legacy, DOC, a.state)).toBe(0);
    expect(legacy.data.has(`cd:doc:${DOC}:mon:schedule`)).toBe(true);
    await a.store.storePut({ "doc:mon:server": '{"v":1,"cursor":7}' });
    expect(file.saves).toBe(0);
    expect(legacy.data.get(`cd:doc:${DOC}:mon:server`)).toBe('{"v":1,"cursor":7}');
    expect(await a.store.storeGet(["doc:mon:server", "doc:mon:schedule"])).toEqual([
      '{"v":1,"cursor":7}',
      '{"v":1,"enabled":true}',
    ]);
    // A removal removes the device's copy too: nothing comes back from there.
    a.settings.failSaves = false;
    await a.store.storePut({ "doc:mon:server": null });
    expect(await a.store.storeGet(["doc:mon:server"])).toEqual([null]);
  });

  it("state larger than the file may take stays on the device; the file keeps no older value of it", async () => {
    const file = sharedFile();
    const a = device(file);
    await a.store.storePut({ "doc:enrich:s1:job": '"small"' });
    expect(fileText(file)).toContain("small");
    const big = JSON.stringify("x".repeat(FILE_STATE_CAP_CHARS));
    await a.store.storePut({ "doc:enrich:s1:job": big });
    expect(fileText(file)).not.toContain("small");
    expect(fileText(file).length).toBeLessThan(FILE_STATE_CAP_CHARS);
    expect(await a.store.storeGet(["doc:enrich:s1:job"])).toEqual([big]);
  });

  it("two devices writing different keys keep both (each write reads the file first: saveAsync saves the whole bag)", async () => {
    const file = sharedFile();
    const a = device(file);
    const b = device(file);
    await a.store.storePut({ "doc:mon:schedule": '"A"' });
    await b.store.storePut({ "savedSearches|s1": '"B"' });
    const c = device(file);
    expect(await c.store.storeGet(["doc:mon:schedule", "savedSearches|s1"])).toEqual(['"A"', '"B"']);
    // Without that read, B's save of its stale copy would have dropped A's schedule: the fake models it.
    const stale = fakeSettings(file);
    stale.set("companyData.state.mon:schedule", null);
    stale.remove("companyData.state.mon:schedule");
    await new Promise<void>((r) => stale.saveAsync(() => r()));
    expect(file.bag.has("companyData.state.mon:schedule")).toBe(false);
  });

  it("of two copies taking one lease at the same moment exactly one gets it; given back, the other may take it", async () => {
    const file = sharedFile();
    const a = device(file);
    const b = device(file);
    const opts = (owner: string) => ({ owner, settleMs: 30 });
    const [ga, gb] = await Promise.all([
      takeLease(a.state, "portfolio", opts("A")),
      takeLease(b.state, "portfolio", opts("B")),
    ]);
    expect([ga, gb].filter((x) => x === null)).toHaveLength(1);
    const winner = ga === null ? "A" : "B";
    const loser = winner === "A" ? b : a;
    expect((ga ?? gb)!.owner).toBe(winner);
    expect(await takeLease(loser.state, "portfolio", opts(winner === "A" ? "B" : "A"))).not.toBeNull();
    // The holder renews it while it runs; the other cannot. Its own device, opened again after a crash, takes it back.
    expect(await renewLease(loser.state, "portfolio", opts(winner === "A" ? "B" : "A"))).toBe(false);
    expect(await renewLease(device(file).state, "portfolio", opts(winner))).toBe(true);
    expect(await takeLease(device(file).state, "portfolio", opts(winner))).toBeNull();
    await giveBackLease(winner === "A" ? a.state : b.state, "portfolio", winner);
    expect(await takeLease(loser.state, "portfolio", opts(winner === "A" ? "B" : "A"))).toBeNull();
    // A lease whose holder vanished (its page closed mid-run) frees itself after its time.
    const later = { owner: "C", settleMs: 1, now: () => Date.now() + 4 * 60_000 };
    expect(await takeLease(device(file).state, "portfolio", later)).toBeNull();
  });
});
