/**
 * test/support/bench-results.ts (issue 43, item 5): a run of a subset replaces its
 * modules' figures in bench/results.json and keeps the others with the run
 * that measured them; docs/performance.md's generated section is replaced,
 * the hand-written text around it kept.
 */
import { describe, expect, it } from "vitest";
import { BEGIN, END, mergeResults, performanceDoc, spliceSection, type RunMeta } from "../support/bench-results.ts";

const meta = (started: string): RunMeta => ({ started, node: "v20", cpus: 2, memoryGb: 24, loadAverage: [1, 2, 3] });
const fig = (group: string, figure: string, value: number) => ({ group, figure, value, unit: "s" });

describe("bench results", () => {
  it("a subset replaces its modules' groups and keeps the rest with their run", () => {
    const first = mergeResults(
      null,
      meta("r1"),
      new Map([
        ["server", [fig("server", "cached answer", 1)]],
        ["concurrency", [fig("4b kill -9", "extra credits (default)", 32)]],
      ]),
    );
    const second = mergeResults(first, meta("r2"), new Map([["server", [fig("server", "cached answer", 2)]]]));
    expect(second.figures.map((f) => [f.group, f.value, f.run])).toEqual([
      ["4b kill -9", 32, "r1"],
      ["server", 2, "r2"],
    ]);
    expect(Object.keys(second.meta.runs ?? {})).toEqual(["r1", "r2"]);
    const doc = performanceDoc(second);
    expect(doc).toContain("| kill -9 extra credits, default | 32 s |");
    expect(doc).toContain("| team server, 2,000 concurrent cached (PGlite): p50 | not measured |");
  });

  it("rewrites only the generated section of the page", () => {
    const page = `# Performance\n\nhand-written\n\n${BEGIN}\nold\n${END}\n\nfootnotes\n`;
    const out = spliceSection(page, `${BEGIN}\nnew\n${END}\n`);
    expect(out).toBe(`# Performance\n\nhand-written\n\n${BEGIN}\nnew\n${END}\n\nfootnotes\n`);
    expect(spliceSection("# Performance\n", "S\n")).toBe("# Performance\n\nS\n");
  });
});
