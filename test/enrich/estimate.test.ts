import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { runSync } from "../../shared/core/drivers.ts";
import { computeRows } from "../support/enrich-rows.ts";
import { coreDeps } from "../../shared/enrich/run.ts";
import { estimateEnrichment, EnrichEstimator, DEFAULT_RATES } from "../../shared/enrich/estimate.ts";
import { estimate } from "../../shared/app/estimate.ts";
import { taskFromRow } from "../../shared/enrich/chunk.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { makeCompanies, world } from "./world.ts";
import { nth } from "../helpers/indexed.ts";

const companies = makeCompanies(300).map((c) => ({ ...c, financials: true, people: true }));
const mapping = { name: 0, city: 1, id: 2 };

/**
 * Rows where each spelling names its own company (duplicates repeat the same
 * spelling), id rows from a disjoint set of companies, and blank rows.
 */
function rows(picks: number[], idEvery: number): Cell[][] {
  return picks.map((p, i) => {
    if (i % idEvery === 0) return ["", "", nth(companies, 150 + (p % 150)).id];
    const c = nth(companies, p % 150);
    return p % 11 === 0 ? ["", "", ""] : [c.name, c.city, ""];
  });
}

describe("estimate", () => {
  it("equals what the job spends (all rows match, all data exists), for any mix, chunk size, mode and cache", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 299 }), { minLength: 1, maxLength: 160 }),
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 1, max: 70 }),
        fc.constantFrom("batch" as const, "free" as const),
        fc.boolean(),
        fc.constantFrom(["name"], ["name", "url"], ["revenue", "management"], ["city", "lastAnnouncementDate"]),
        (picks, idEvery, chunkSize, mode, cache, fieldList) => {
          const fields = [...fieldList];
          const input = rows(picks, idEvery);
          const w = world(companies);
          const ctx = { ...w.ctx, cacheTtlSeconds: cache ? 3600 : 0, maxBatch: 20 };
          const est = estimateEnrichment(input, { mapping, fields, mode, maxBatch: 20, cache, chunkSize });
          let paid = 0;
          let sent = 0;
          const counting = {
            ...w.sync,
            http: (r: Parameters<typeof w.sync.http>[0]) => {
              sent += r.length;
              return w.sync.http(r);
            },
          };
          const res = runSync(
            computeRows(
              coreDeps,
              {
                ...ctx,
                client: {
                  ...ctx.client,
                  onSpend: (_e, c) => {
                    paid += c;
                  },
                },
              },
              "j",
              { rows: input, mapping, fields, options: { mode, chunkSize } },
            ),
            counting,
          );
          expect(res.complete).toBe(true);
          expect(paid).toBe(est.credits);
          expect(w.spent()).toBe(est.credits);
          expect(sent).toBe(est.requests);
          expect(res.stats.credits).toBe(est.credits);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("is an upper bound when data is missing or names are not found", () => {
    const sparse = makeCompanies(50);
    const w = world(sparse);
    const input: Cell[][] = sparse.map((c) => [c.name, "", ""]);
    input.push(["Nobody GmbH", "", ""]);
    const est = estimateEnrichment(input, { mapping, fields: ["revenue", "management"] });
    runSync(computeRows(coreDeps, w.ctx, "j", { rows: input, mapping, fields: ["revenue", "management"] }), w.sync);
    expect(w.spent()).toBeLessThan(est.credits);
    expect(est.credits).toBe(51 * 6 + 6);
  });

  it("is reachable from the core estimator as kind enrich", () => {
    const input: Cell[][] = [
      ["A GmbH", "", ""],
      ["B GmbH", "", ""],
      ["a  gmbh", "", ""],
    ];
    const e = estimate({ kind: "enrich", rows: input, mapping, fields: ["url"] });
    expect(e.credits).toBe(1 + 2);
    expect(e.requests).toBe(3);
  });

  it("tells free single resolves from the batch by time", () => {
    const input: Cell[][] = companies.slice(0, 200).map((c) => [c.name, c.city, ""]);
    const free = estimateEnrichment(input, { mapping, fields: ["name"], mode: "free" });
    const batch = estimateEnrichment(input, { mapping, fields: ["name"], mode: "batch" });
    expect(free.credits).toBe(0);
    expect(free.seconds).toBe(200 / DEFAULT_RATES.resolvePerSecond);
    expect(batch.credits).toBe(20);
    expect(batch.seconds).toBeLessThan(free.seconds);
  });

  it("streams: chunks fed one by one give the same figure", () => {
    const input = rows(
      Array.from({ length: 120 }, (_, i) => (i * 7) % 300),
      5,
    );
    const est = new EnrichEstimator({ mapping, fields: ["url"] });
    const tasks = input.map((r, i) => taskFromRow(i, r, mapping)).filter((t) => t.query || t.id);
    for (let at = 0; at < tasks.length; at += 50) est.addChunk(tasks.slice(at, at + 50));
    expect(est.result().credits).toBe(estimateEnrichment(input, { mapping, fields: ["url"] }).credits);
  });
});
