/**
 * PropertiesService's 500 KB per store, through the built Code.js. The
 * document's store holds monitor state (about 435 bytes a company), the
 * durable answer cache (up to 200 KB), the ledger, budget and job entries.
 * The durable cache must give way before monitor state fails, and a write
 * that still cannot fit must be a clear message, never Apps Script's text.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { DURABLE_PREFIX } from "../../apps-script/cache.ts";
import { FakeProperties, PROPERTY_STORE_LIMIT, QUOTA_MESSAGE } from "./harness.ts";
import { portfolioSheet } from "./portfolio.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-quota-"));
let code = "";
const HOUR = 3_600_000;
const portfolioWorld = (n: number, opts: { language?: "de" | "en" } = {}) => portfolioSheet(code, OUT, n, opts);

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
});

/** Durable cache entries as the answer cache writes them (`cache:<key>` → {e, v}), `total` characters in all. */
function fillDurableCache(props: FakeProperties, total: number, expires: number) {
  for (let i = 0; i * 2900 < total; i++)
    props.setProperty(`${DURABLE_PREFIX}filler-${i}`, JSON.stringify({ e: expires, v: "x".repeat(2850) }));
}
const cacheKeys = (props: FakeProperties) => [...props.map.keys()].filter((k) => k.startsWith(DURABLE_PREFIX));
const monitorBytes = (props: FakeProperties) =>
  [...props.map]
    .filter(([k]) => k.includes(":mon:"))
    .reduce((s, [k, v]) => s + Buffer.byteLength(k) + Buffer.byteLength(v), 0);

describe("the PropertiesService fake", () => {
  it("refuses a write that would take a store over 500 KB, all or nothing, and a value over 9 KB", () => {
    const p = new FakeProperties();
    for (let i = 0; i < 62; i++) p.setProperty(`k${String(i).padStart(3, "0")}`, "v".repeat(8 * 1024));
    expect(p.bytes()).toBeLessThanOrEqual(PROPERTY_STORE_LIMIT);
    const before = new Map(p.map);
    expect(() => p.setProperties({ a: "1", b: "v".repeat(8 * 1024) })).toThrow(QUOTA_MESSAGE);
    expect(p.map).toEqual(before);
    // Replacing a value counts only the difference; deleting makes room.
    p.setProperty("k000", "short");
    p.setProperties({ b: "v".repeat(8 * 1024) });
    expect(() => p.setProperty("big", "v".repeat(9 * 1024))).toThrow(/Argument too large/);
  });
});

// 500 KB per property store, 9 KB per value (https://developers.google.com/apps-script/guides/services/quotas, "Properties");
// the refusal's text is localised (the fake throws German), so the add-on measures before writing.
describe("a full document store", () => {
  // Before issue 25 the monitor's state filled the document's properties (about 1,350 companies of the
  // emulator fit, 1,400 did not). Now it lives in the add-on's hidden state sheet (doc-state.ts).
  it("monitor state for 1,400 companies (more than the document's properties held) lives in the state sheet; the properties keep none of it", () => {
    const n = 1400;
    const w = portfolioWorld(n);
    fillDurableCache(w.f.docProps, 200_000, w.clock.t + 40 * HOUR);
    const cached = cacheKeys(w.f.docProps).length;
    const r = w.check();
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.value).toMatchObject({ status: "done" });
    expect([...w.f.state().keys()].filter((k) => k.includes(":mon:") && k.includes(":c:"))).toHaveLength(n);
    expect(monitorBytes(w.f.docProps)).toBe(0);
    // The durable answer cache no longer has to make room for it.
    expect(cacheKeys(w.f.docProps).length).toBe(cached);
    expect(w.f.docProps.refused).toBe(0);
    // A second check (state rewritten in place) works as well.
    w.clock.t += 24 * HOUR;
    w.emu.clock.advance(1);
    expect(w.check().ok).toBe(true);
    expect(w.f.hidden.has("Company data (add-on)")).toBe(true);
  }, 180_000);

  it("formulas keep answering when the store is full: the durable cache is skipped, never an exception in a cell", () => {
    const w = portfolioWorld(5);
    // Monitor state of a large portfolio fills the store to its last few hundred bytes.
    let i = 0;
    while (w.f.docProps.bytes() < PROPERTY_STORE_LIMIT - 800)
      w.f.docProps.setProperty(
        `doc:mon:x:c:DEFILL${String(i++).padStart(6, "0")}`,
        "s".repeat(Math.min(400, PROPERTY_STORE_LIMIT - 800 - w.f.docProps.bytes())),
      );
    const out = w.f.call("COMPANY_PROFILE", w.ids[0], "id") as unknown[][];
    expect(out).toEqual([[w.ids[0]]]);
    expect(cacheKeys(w.f.docProps)).toEqual([]);
    expect(w.f.docProps.bytes()).toBeLessThanOrEqual(PROPERTY_STORE_LIMIT);
    // Monitor state is untouched by the cache.
    expect(monitorBytes(w.f.docProps)).toBeGreaterThan(PROPERTY_STORE_LIMIT - 2000);
  });
});
