/**
 * The team server's batched statements (server/hot-answers.ts, issue 43 item 4: token-free answer reads and
 * hit inserts): what arrives while a statement is out goes in the next, one statement out at a time, and
 * every item gets its own result.
 */
import { describe, expect, it } from "vitest";
import { batched } from "../../server/hot-answers.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `n` items, one a millisecond, through a batcher whose statement takes `takesMs` (its items, doubled). */
async function stream(n: number, takesMs: number) {
  const sizes: number[] = [];
  let out = 0;
  let most = 0;
  const run = batched(async (items: number[]) => {
    sizes.push(items.length);
    most = Math.max(most, ++out);
    await sleep(takesMs);
    out--;
    return items.map((i) => i * 2);
  });
  const answers: Promise<number>[] = [];
  for (let i = 0; i < n; i++) {
    answers.push(run(i));
    await sleep(1);
  }
  return { results: await Promise.all(answers), sizes, most };
}

describe("batched statements", () => {
  it("answers every item with its own result, one statement out at a time", async () => {
    const { results, sizes, most } = await stream(60, 5);
    expect(results).toEqual(Array.from({ length: 60 }, (_, i) => i * 2));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(60);
    expect(most).toBe(1);
    expect(sizes.length).toBeLessThan(60); // what arrived while one was out went together
  });
});
