/** The workbook's identity: created by the task pane's start, only read by custom functions (host/identity.ts). */
import { describe, expect, it } from "vitest";
import { webcrypto } from "node:crypto";
import {
  awaitIdentity,
  CARD_LANGUAGE_SETTING,
  ensureIdentity,
  ID_SETTING,
  newWorkbookId,
  type SettingsBag,
} from "../../excel-addin/host/identity.ts";

function bag(initial: Record<string, unknown> = {}) {
  const data = new Map(Object.entries(initial));
  const log: string[] = [];
  const b: SettingsBag & { data: Map<string, unknown>; log: string[] } = {
    data,
    log,
    get: (k) => data.get(k) ?? null,
    set: (k, v) => void (log.push(`set ${k}`), data.set(k, v)),
    saveAsync: (cb) => void (log.push("save"), cb?.({ status: "succeeded" })),
  };
  return b;
}
let n = 0;
const newId = () => `id-${++n}`;

describe("workbook identity", () => {
  it("the pane creates the id and pins the card language once, saving the workbook; later starts change nothing", async () => {
    const b = bag();
    const scope = {};
    const first = await ensureIdentity(b, "de", newId, scope);
    expect(first.cardLanguage).toBe("de");
    expect(b.data.get(ID_SETTING)).toBe(first.id);
    expect(b.data.get(CARD_LANGUAGE_SETTING)).toBe("de");
    expect(b.log).toEqual([`set ${ID_SETTING}`, `set ${CARD_LANGUAGE_SETTING}`, "save"]);
    // Opened later in English Office: the same identity, nothing written.
    const again = await ensureIdentity(b, "en", newId, {});
    expect(again).toEqual(first);
    expect(b.log).toHaveLength(3);
  });

  it("an older workbook with an id but no card language keeps its id and gets the language", async () => {
    const b = bag({ [ID_SETTING]: "old-id" });
    expect(await ensureIdentity(b, "en", newId, {})).toEqual({ id: "old-id", cardLanguage: "en" });
  });

  it("functions read without writing; with nothing yet they wait for the pane, or after the wait use a session id written nowhere", async () => {
    const b = bag();
    const scope = {};
    const waiting = awaitIdentity(b, "en", newId, scope, 5_000);
    await new Promise((r) => setTimeout(r, 10));
    const made = await ensureIdentity(b, "de", newId, scope);
    expect(await waiting).toEqual(made);

    const lonely = bag();
    const s = await awaitIdentity(lonely, "en", newId, {}, 20);
    expect(s.id).toMatch(/^session-/);
    expect(s.cardLanguage).toBe("en");
    expect(lonely.log).toEqual([]);
    // Complete settings answer at once.
    expect(
      await awaitIdentity(bag({ [ID_SETTING]: "x", [CARD_LANGUAGE_SETTING]: "de" }), "en", newId, {}, 10_000),
    ).toEqual({ id: "x", cardLanguage: "de" });
  });

  it("a failed save (a read-only or co-authored file) keeps the identity for the session (the next start, finding none in the file, creates and saves one)", async () => {
    const b = bag();
    b.saveAsync = (cb) => void (b.log.push("save failed"), cb?.({ status: "failed" }));
    const s = await ensureIdentity(b, "en", newId, {});
    expect(s.id).toBeTruthy();
    expect(b.data.get(ID_SETTING)).toBe(s.id); // Office's in-memory settings hold it for this session
    expect(b.log).toContain("save failed");
  });
});

describe("newWorkbookId", () => {
  const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  it("uses crypto.randomUUID where the webview has it", () => {
    expect(newWorkbookId({ randomUUID: () => "from-randomUUID", getRandomValues: (a) => a })).toBe("from-randomUUID");
  });
  it("an older webview without randomUUID gets a version-4 UUID from getRandomValues, different each time", () => {
    const old = { getRandomValues: <T extends Uint8Array>(a: T) => webcrypto.getRandomValues(a) };
    const ids = new Set(Array.from({ length: 200 }, () => newWorkbookId(old)));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(UUID4);
    // All bits set or none: the version and variant bits are forced, nothing else is touched.
    expect(newWorkbookId({ getRandomValues: (a) => a.fill(0xff) })).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
    expect(newWorkbookId({ getRandomValues: (a) => a.fill(0) })).toBe("00000000-0000-4000-8000-000000000000");
  });
});
