/**
 * Random user edits interleaved with the steps of an enrichment, on each
 * sheet adapter. After every step: every id in an output row belongs to
 * that row's input now, or the row says it must be redone; nothing outside
 * the table's output cells changed; nothing was paid twice. At the end the
 * job finishes and every known company has its own data.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { ADAPTERS } from "./adapters.ts";
import { COMPANIES, companyRow, open, paidTwice, table, unfinished, wrongRows, type Session } from "./kit.ts";
import { nth } from "../helpers/indexed.ts";

type Edit =
  | { kind: "sort"; seed: number; inputOnly: boolean }
  | { kind: "insert"; at: number; company: number }
  | { kind: "delete"; at: number }
  | { kind: "edit"; at: number; company: number };

type Action = { kind: "step"; during: Edit | null } | { kind: "between"; edit: Edit };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant("sort" as const), seed: fc.integer({ min: 1, max: 1e9 }), inputOnly: fc.boolean() }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), company: fc.nat({ max: COMPANIES.length - 1 }) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), company: fc.nat({ max: COMPANIES.length - 1 }) }),
);
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("step" as const), during: fc.option(edit, { nil: null }) }),
  fc.record({ kind: fc.constant("between" as const), edit }),
);

/** Shuffle with a small LCG, so a failing case replays exactly. */
function shuffle<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [nth(out, j), nth(out, i)];
  }
  return out;
}

function apply(s: Session, e: Edit): void {
  const width = (rows: Cell[][]) => Math.max(2, ...rows.map((r) => r.length));
  switch (e.kind) {
    case "sort":
      return s.user((rows) => shuffle(rows, e.seed), { inputOnly: e.inputOnly });
    case "insert":
      return s.user((rows) => {
        const next = [...rows];
        next.splice(e.at % (rows.length + 1), 0, [...companyRow(e.company), ...new Array(width(rows) - 2).fill("")]);
        return next;
      });
    case "delete":
      // The table keeps at least one row (deleting the whole table ends the story).
      return s.user((rows) => (rows.length > 1 ? rows.filter((_, i) => i !== e.at % rows.length) : rows));
    case "edit":
      return s.user((rows) =>
        rows.map((r, i) => (i === e.at % rows.length ? [...companyRow(e.company), ...r.slice(2)] : r)),
      );
  }
}

const figures = { trials: 0, edits: 0, editsDuringStep: 0, steps: 0 };

afterAll(() => {
  // The figures of the property test, for the closing note.
  console.log(
    `property test: ${figures.trials} trials, ${figures.edits} edits (${figures.editsDuringStep} during a step), ${figures.steps} steps`,
  );
});

describe.each(ADAPTERS)("random edits between and during steps: $name", (adapter) => {
  it("every id belongs to its row or the row says so; nothing outside changes; nothing paid twice; the job finishes", async () => {
    // The job starts first (the user selected the table and pressed Start); edits may fall into that first step.
    const first: fc.Arbitrary<Action> = fc.record({
      kind: fc.constant("step" as const),
      during: fc.option(edit, { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 8, max: 30 }),
        first,
        fc.array(action, { maxLength: 10 }),
        async (rows, start, rest) => {
          const actions: Action[] = [start, ...rest];
          figures.trials++;
          const s = open(adapter, table(0, rows), { fields: ["name", "url"] });
          for (const a of actions) {
            let before = s.outside();
            if (a.kind === "between") {
              apply(s, a.edit);
              figures.edits++;
              continue;
            }
            let ran = false;
            await s.step({
              oneChunk: true,
              during: a.during
                ? () => {
                    ran = true;
                    apply(s, a.during!);
                    before = s.outside();
                  }
                : undefined,
            });
            figures.steps++;
            if (ran) {
              figures.edits++;
              figures.editsDuringStep++;
            } else if (a.during) {
              apply(s, a.during);
              figures.edits++;
              before = s.outside();
              continue;
            }
            expect(wrongRows(s)).toEqual([]);
            expect(s.outside()).toBe(before);
            expect(paidTwice(s)).toEqual([]);
          }
          const before = s.outside();
          for (let i = 0; i < 40; i++) {
            figures.steps++;
            const r = await s.step({ oneChunk: true });
            expect(wrongRows(s)).toEqual([]);
            if (r.complete) break;
          }
          expect(s.outside()).toBe(before);
          expect(unfinished(s)).toEqual([]);
          expect(paidTwice(s)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
