/**
 * The team server's log on stdout (server/log.ts batchedLines): the lines of one turn of the event loop
 * leave in one write, in order; a later turn's in the next; flush writes what waits at once (on exit).
 */
import { describe, expect, it } from "vitest";
import { batchedLines, jsonLogger } from "../../server/log.ts";

const turn = () => new Promise((r) => setImmediate(r));

describe("batched log lines", () => {
  it("one write per turn, lines in order, each ended by a newline", async () => {
    const writes: string[] = [];
    const out = batchedLines((c) => writes.push(c));
    const log = jsonLogger(out.line, () => 0);
    for (let i = 0; i < 500; i++) log.info("request", { n: i });
    expect(writes).toEqual([]); // not yet: the turn is not over
    await turn();
    expect(writes.length).toBe(1);
    const lines = writes[0]!.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((l) => (JSON.parse(l) as { n: number }).n)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    out.line("later");
    await turn();
    expect(writes).toEqual([writes[0], "later\n"]);
  });

  it("flush writes what waits at once, and nothing when nothing waits", () => {
    const writes: string[] = [];
    const out = batchedLines((c) => writes.push(c));
    out.flush();
    expect(writes).toEqual([]);
    out.line("a");
    out.line("b");
    out.flush();
    expect(writes).toEqual(["a\nb\n"]);
  });
});
