/**
 * The team server's batched statements (server/hot-answers.ts, issue 43 item 4): what arrives while a
 * statement is out goes in the next, one statement out at a time, every item answered; with a gap (PGlite's
 * hit inserts) statements leave at most once per gap while a burst lasts, so a steady stream goes in a few
 * large ones, and an item alone leaves at once.
 */
import { describe, expect, it } from "vitest";
import { batched } from "../../server/hot-answers.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `n` items, one a millisecond, through a batcher with `gapMs` whose statement takes `takesMs`. */
async function stream(n: number, gapMs: number, takesMs: number, burst = 1) {
  const starts: number[] = [];
  const sizes: number[] = [];
  let out = 0;
  let most = 0;
  const run = batched(
    async (items: number[]) => {
      starts.push(Date.now());
      sizes.push(items.length);
      most = Math.max(most, ++out);
      await sleep(takesMs);
      out--;
      return items.map((i) => i * 2);
    },
    { ms: gapMs, burst },
  );
  const answers: Promise<number>[] = [];
  for (let i = 0; i < n; i++) {
    answers.push(run(i));
    await sleep(1);
  }
  return { results: await Promise.all(answers), starts, sizes, most };
}

describe("batched statements", () => {
  it("answers every item with its own result, one statement out at a time", async () => {
    const { results, sizes, most } = await stream(60, 0, 5);
    expect(results).toEqual(Array.from({ length: 60 }, (_, i) => i * 2));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(60);
    expect(most).toBe(1);
    expect(sizes.length).toBeLessThan(60); // what arrived while one was out went together
  });

  it("with a gap, statements leave at most once per gap and carry more each", async () => {
    const gap = 25;
    const { results, starts, sizes } = await stream(100, gap, 1);
    expect(results).toEqual(Array.from({ length: 100 }, (_, i) => i * 2));
    // Timers may fire a millisecond early; never a statement per item, as without the gap.
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(gap - 2);
    expect(sizes.length).toBeLessThan(100 / 4);
  });

  it("with a gap, an item alone (the statement before carried fewer than a burst) leaves at once", async () => {
    const starts: number[] = [];
    const run = batched(
      async (items: number[]) => {
        starts.push(Date.now());
        return items;
      },
      { ms: 200, burst: 8 },
    );
    const asked = Date.now();
    for (let i = 0; i < 5; i++) await run(i); // one at a time, as one user's requests
    expect(Date.now() - asked).toBeLessThan(200);
    expect(starts.length).toBe(5);
  });
});
