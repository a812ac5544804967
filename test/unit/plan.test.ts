import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { batchCredits, chunk, chunkSizes, planBatches, scatter } from "../../shared/batch/plan.ts";
import { normaliseKey } from "../../shared/batch/normalise.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as CompanyDataError).code + ":" + (e as CompanyDataError).details.field;
  }
  return "ok";
};

describe("planBatches", () => {
  test("dedupes by normalised key, keeps first spelling, maps rows back", () => {
    const p = planBatches(
      [
        { name: "Siemens AG" },
        { name: "BASF SE" },
        { name: "SIEMENS Aktiengesellschaft" },
        { name: " " },
        { name: "basf se" },
      ],
      10,
    );
    expect(p.distinct.map((d) => d.query.name)).toEqual(["Siemens AG", "BASF SE"]);
    expect(p.distinct.map((d) => d.rows)).toEqual([
      [0, 2],
      [1, 4],
    ]);
    expect(p.rowToDistinct).toEqual([0, 1, 0, -1, 1]);
    expect(p.invalid.map((x) => [x.row, x.error.code, x.error.details.field])).toEqual([
      [3, "INVALID_INPUT", "rows[3].name"],
    ]);
    expect(p.chunks).toEqual([[0, 1]]);
    expect(p.credits).toBe(1);
  });
  test("chunks are maxBatch each, the last partial", () => {
    expect(chunkSizes(0, 100)).toEqual([]);
    expect(chunkSizes(235, 100)).toEqual([100, 100, 35]);
    expect(chunkSizes(30, 10)).toEqual([10, 10, 10]);
    expect(chunk([1, 2, 3, 4, 5], 10)).toEqual([[1, 2, 3, 4, 5]]);
    expect(batchCredits(235, 100)).toBe(24);
    expect(batchCredits(235, 50)).toBe(24);
  });
  test("bad input: typed errors naming the problem", () => {
    expect(code(() => planBatches([], 15))).toBe("INVALID_INPUT:maxBatch");
    expect(code(() => planBatches([], 0))).toBe("INVALID_INPUT:maxBatch");
    expect(code(() => planBatches([], 110))).toBe("INVALID_INPUT:maxBatch");
    expect(code(() => planBatches("x" as never, 10))).toBe("INVALID_INPUT:rows");
    expect(code(() => chunkSizes(-1, 10))).toBe("INVALID_INPUT:count");
    expect(code(() => chunkSizes(1.5, 10))).toBe("INVALID_INPUT:count");
    const p = planBatches([null, 5, { city: "Berlin" }, { name: "x".repeat(501) }], 10);
    expect(p.invalid.map((x) => x.error.details.field)).toEqual(["rows[0]", "rows[1]", "rows[2].name", "rows[3].name"]);
  });
});

// Names from a small alphabet with case, space, umlaut and legal-form variants, so duplicates are common.
const base = fc.constantFrom("Siemens", "Müller", "Mueller", "BASF", "Bäcker", "Baecker", "Zeiss", "");
const form = fc.constantFrom(
  "",
  " AG",
  " Aktiengesellschaft",
  " GmbH",
  " Gesellschaft mit beschränkter Haftung",
  " GmbH & Co. KG",
  " ug (haftungsbeschränkt)",
);
const caseOf = fc.constantFrom(
  (s: string) => s,
  (s: string) => s.toUpperCase(),
  (s: string) => s.toLowerCase(),
  (s: string) => `  ${s.replace(/ /g, "   ")} `,
);
const row = fc.record({
  name: fc.tuple(base, form, caseOf).map(([b, f, c]) => c(b + f)),
  city: fc.option(fc.constantFrom("Berlin", "BERLIN", "München", "Muenchen"), { nil: undefined }),
});
const maxBatch = fc.integer({ min: 1, max: 10 }).map((n) => n * 10);

describe("planner properties", () => {
  test("every input row gets exactly one answer, in order", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 300 }), maxBatch, (rows, mb) => {
        const p = planBatches(rows, mb);
        // Answer each distinct query with its own index; every row must see its own key's answer.
        const answers = p.distinct.map((d) => d.key);
        const out = scatter(p, answers, (e) => `error:${e.code}`);
        expect(out).toHaveLength(rows.length);
        rows.forEach((r, i) => {
          if (r.name.trim() === "") expect(out[i]).toBe("error:INVALID_INPUT");
          else expect(out[i]).toBe(normaliseKey({ ...r, name: r.name.trim(), city: r.city?.trim() }));
        });
      }),
    );
  });
  test("each distinct key is asked once; chunks partition the distinct queries in order", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 300 }), maxBatch, (rows, mb) => {
        const p = planBatches(rows, mb);
        expect(new Set(p.distinct.map((d) => d.key)).size).toBe(p.distinct.length);
        expect(p.chunks.flat()).toEqual(p.distinct.map((_, i) => i));
        p.chunks.forEach((c, i) => {
          expect(c.length).toBeGreaterThan(0);
          expect(c.length).toBeLessThanOrEqual(mb);
          if (i < p.chunks.length - 1) expect(c.length % 10).toBe(0);
        });
        const rowsCovered = p.distinct
          .flatMap((d) => d.rows)
          .concat(p.invalid.map((x) => x.row))
          .sort((a, b) => a - b);
        expect(rowsCovered).toEqual(rows.map((_, i) => i));
      }),
    );
  });
  test("plan cost equals the spec's table: sum of ceil(size/10) per call = ceil(distinct/10)", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 300 }), maxBatch, (rows, mb) => {
        const p = planBatches(rows, mb);
        expect(p.credits).toBe(p.chunks.reduce((s, c) => s + Math.ceil(c.length / 10), 0));
        expect(p.credits).toBe(Math.ceil(p.distinct.length / 10));
      }),
    );
  });
});
