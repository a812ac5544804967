/**
 * server/recent.ts (issue 43, item 4): what many requests ask at once is
 * asked once and kept `ms` from the moment it was asked; a failure or an
 * unwanted value is not kept. On a fake clock.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { recent } from "../../server/recent.ts";

afterEach(() => vi.useRealTimers());

describe("recent", () => {
  it("asks once for requests at once, again once `ms` have passed since it asked", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const r = recent<number>(1000);
    let asked = 0;
    const ask = () => new Promise<number>((done) => setTimeout(() => done(++asked), 5));
    expect(await Promise.all([r.get("k", ask), r.get("k", ask), r.get("k", ask)])).toEqual([1, 1, 1]);
    vi.setSystemTime(Date.now() + 999);
    expect(await r.get("k", ask)).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect(await r.get("k", ask)).toBe(2);
    expect(await r.get("other", ask)).toBe(3);
  });

  it("keeps neither a failure nor a value `keep` refuses, and forgets on drop", async () => {
    const r = recent<string>(60_000, { keep: (v) => v !== "refused" });
    await expect(r.get("a", () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await r.get("a", async () => "fine")).toBe("fine");
    expect(await r.get("a", async () => "not asked")).toBe("fine");
    r.drop("a");
    expect(await r.get("a", async () => "again")).toBe("again");
    expect(await r.get("b", async () => "refused")).toBe("refused");
    await Promise.resolve();
    expect(await r.get("b", async () => "asked again")).toBe("asked again");
  });

  it("stays within `max` keys", async () => {
    const r = recent<number>(60_000, { max: 3 });
    for (let i = 0; i < 10; i++) await r.get(`k${i}`, async () => i);
    expect(await r.get("k9", async () => -1)).toBe(9);
    expect(await r.get("k0", async () => -1)).toBe(-1); // the oldest went first
  });
});
