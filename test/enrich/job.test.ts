import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { runSync } from "../../shared/core/drivers.ts";
import { decodeRanges, encodeRanges } from "../../shared/enrich/job-checkpoint.ts";
import { computeRows } from "../support/enrich-rows.ts";
import { coreDeps } from "../../shared/enrich/run.ts";
import { normaliseKey } from "../../shared/batch/normalise.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { makeCompanies, world } from "./world.ts";
import { nth, take } from "../helpers/indexed.ts";

const companies = makeCompanies(120);
const FIELDS = ["name", "city", "url", "phone", "management", "revenue", "financialYear"];

/** Input rows: names (with duplicates, an ambiguous pair, unknowns, an id row, a blank row). */
function inputRows(n: number): Cell[][] {
  const rows: Cell[][] = [];
  for (let i = 0; i < n; i++) rows.push([`Firma ${i % 100} GmbH`, i % 7 === 0 ? "" : nth(companies, i % 100).city, ""]);
  rows.push(["Unbekannt AG", "", ""], ["", "", ""], ["", "", nth(companies, 110).id]);
  return rows;
}
const mapping = { name: 0, city: 1, id: 2 };

describe("computeRows", () => {
  it("matches, reviews, misses and enriches rows in input order", () => {
    const w = world([...companies, { ...nth(companies, 3), id: "DEAAAAAAAAAA", city: "Berlin" }]);
    const rows: Cell[][] = [
      ["Firma 1 GmbH", "München", ""],
      ["Firma 3 GmbH", "", ""],
      ["Nobody", "", ""],
      ["", "", ""],
      ["", "", nth(companies, 2).id],
      ["x", "", "DEBAD"],
    ];
    const r = runSync(computeRows(coreDeps, w.ctx, "j", { rows, mapping, fields: FIELDS }), w.sync);
    expect(r.complete).toBe(true);
    // The row without a name or id is skipped and says so: every row has a status.
    expect(r.results.map((x) => x?.outcome)).toEqual(["matched", "review", "not_found", "empty", "matched", "error"]);
    expect(nth(r.rows, 3)[0]).toBe("übersprungen: kein Name");
    expect(
      nth(r.rows, 3)
        .slice(1)
        .every((c) => c === ""),
    ).toBe(true);
    expect(r.header.slice(0, 3)).toEqual(["Status", "Trefferqualität", "Firmen-ID"]);
    const [first] = take(r.rows, 1);
    expect(first[0]).toBe("gefunden");
    expect(first[1]).toBe(0.93);
    expect(first[2]).toBe(nth(companies, 1).id);
    expect(first[first.length - 1]).toBe("2025-01-15");
    expect(nth(r.rows, 1)[0]).toMatch(/^prüfen: DE/);
    expect(nth(r.rows, 1)[2]).toBe("");
    expect(nth(r.rows, 5)[0]).toMatch(/^Fehler: Ungültige Eingabe \(Firmen-ID\)/);
    // Row 1 is in Munich, company 1 has financials and people: profile with both includes.
    expect(w.ledger.find((l) => l.key.startsWith(nth(companies, 1).id))!.key).toBe(
      `${nth(companies, 1).id}?people,financials`,
    );
    // Company 0 has neither financials nor people (availability said so): not paid for.
    expect(r.stats).toMatchObject({ matched: 2, review: 1, notFound: 1, error: 1, skipped: 1 });
  });

  it("does not pay for includes the availability says do not exist", () => {
    const w = world(companies);
    runSync(computeRows(coreDeps, w.ctx, "j", { rows: [["Firma 15 GmbH", "", ""]], mapping, fields: FIELDS }), w.sync);
    // 15: no financials (15 % 3 == 0), no people (15 % 5 == 0).
    expect(w.ledger.filter((l) => l.path.includes(nth(companies, 15).id)).map((l) => l.key)).toEqual([
      `${nth(companies, 15).id}?`,
    ]);
  });

  it("returns the stored rows without sending anything when run again", () => {
    const w = world(companies);
    const input = { rows: inputRows(30), mapping, fields: FIELDS };
    const a = runSync(computeRows(coreDeps, w.ctx, "j", input), w.sync);
    const sent = w.requests.length;
    const b = runSync(computeRows(coreDeps, w.ctx, "j", input), w.sync);
    expect(w.requests.length).toBe(sent);
    expect(b.rows).toEqual(a.rows);
  });

  it("stops at the deadline between chunks and resumes to the same rows, paying once (cache off)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 7, max: 40 }),
        (stops, chunkSize) => {
          const input = { rows: inputRows(130), mapping, fields: FIELDS };
          const ref = world(companies);
          const refCtx = { ...ref.ctx, cacheTtlSeconds: 0 };
          const full = runSync(computeRows(coreDeps, refCtx, "j", { ...input, options: { chunkSize } }), ref.sync);

          const w = world(companies);
          const ctx = { ...w.ctx, cacheTtlSeconds: 0 };
          let result: typeof full | null = null;
          let runs = 0;
          for (const s of [...stops, 1000]) {
            // A deadline `s` chunks' worth of clock away: each chunk moves the clock by one step.
            const deadline = w.now() + s * 10;
            const tick = { ...ctx, client: { ...ctx.client, now: () => w.now() } };
            // Only batch resolves move this clock (paced waits for availability do not), so a step is a chunk.
            const drv = {
              ...w.sync,
              sleep: () => {},
              http: (reqs: Parameters<typeof w.sync.http>[0]) => {
                w.advance(reqs.some((r) => r.url.includes("batch")) ? 10 : 0);
                return w.sync.http(reqs);
              },
            };
            result = runSync(computeRows(coreDeps, tick, "j", { ...input, options: { chunkSize, deadline } }), drv);
            runs++;
            if (result.complete) break;
            expect(result.stopped).toBe("deadline");
          }
          expect((result as typeof full).complete).toBe(true);
          expect((result as typeof full).rows).toEqual(full.rows);
          expect(w.spent()).toBe(ref.spent());
          // Without a cache too, a company met in two chunks (or on both sides of a stop) is bought once.
          const keys = (x: typeof w) => x.ledger.map((l) => l.key).sort();
          expect(keys(w)).toEqual(keys(ref));
          const profiles = w.ledger.filter((l) => !l.path.includes("batch")).map((l) => l.path);
          expect(new Set(profiles).size).toBe(profiles.length);
          // Whole tens of names per batch resolve: ceil(distinct names / 10) over all the runs.
          const queries = new Set(
            input.rows
              .filter((r) => r[0])
              .map((r) => normaliseKey({ name: String(r[0]), city: String(r[1]) || undefined })),
          );
          expect(w.ledger.filter((l) => l.path.includes("batch")).reduce((n, l) => n + l.credits, 0)).toBe(
            Math.ceil(queries.size / 10),
          );
          return runs >= 1;
        },
      ),
      { numRuns: 15 },
    );
  });

  it("survives a crash at any chunk boundary: the resume equals an uninterrupted run, no profile paid twice", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 10, max: 40 }), (crashAt, chunkSize) => {
        const input = { rows: inputRows(100), mapping, fields: FIELDS, options: { chunkSize } };
        const ref = world(companies);
        const full = runSync(computeRows(coreDeps, ref.ctx, "j", input), ref.sync);
        const w = world(companies);
        let puts = 0;
        const crashing = {
          ...w.sync,
          storePut: (e: Record<string, string | null>) => {
            if (++puts === crashAt) throw new Error("killed");
            w.sync.storePut(e);
          },
        };
        try {
          runSync(computeRows(coreDeps, w.ctx, "j", input), crashing);
        } catch (e) {
          expect(String(e)).toMatch(/killed/);
        }
        const resumed = runSync(computeRows(coreDeps, w.ctx, "j", input), w.sync);
        expect(resumed.rows).toEqual(full.rows);
        const profileKeys = w.ledger.filter((l) => !l.path.includes("batch")).map((l) => l.key);
        expect(new Set(profileKeys).size).toBe(profileKeys.length);
        expect(w.spent()).toBe(ref.spent());
      }),
      { numRuns: 20 },
    );
  });

  it("stops cleanly when credits run out and, after a top-up, finishes exactly the rest", () => {
    const input = { rows: inputRows(100), mapping, fields: FIELDS, options: { chunkSize: 20 } };
    const ref = world(companies);
    const full = runSync(computeRows(coreDeps, ref.ctx, "j", input), ref.sync);

    const w = world(companies, 150);
    const a = runSync(computeRows(coreDeps, w.ctx, "j", input), w.sync);
    expect(a.complete).toBe(false);
    expect(a.stopped).toBe("out_of_credits");
    expect(a.stats.outOfCredits).toBeGreaterThan(0);
    expect(a.stats.matched).toBeGreaterThan(0);
    expect(a.rows.find((r) => r[0] === "nicht angereichert: keine Credits")).toBeTruthy();
    const paidBefore = w.spent();
    expect(paidBefore).toBeLessThanOrEqual(150);

    w.setBalance(100_000);
    const b = runSync(computeRows(coreDeps, w.ctx, "j", input), w.sync);
    expect(b.complete).toBe(true);
    expect(b.rows).toEqual(full.rows);
    const profileKeys = w.ledger.filter((l) => !l.path.includes("batch")).map((l) => l.key);
    expect(new Set(profileKeys).size).toBe(profileKeys.length);
    // Each distinct name resolved once across both runs.
    const names = w.ledger.filter((l) => l.path.includes("batch")).flatMap((l) => l.key.split("|"));
    const refNames = ref.ledger.filter((l) => l.path.includes("batch")).flatMap((l) => l.key.split("|"));
    expect(new Set(names).size).toBe(new Set(refNames).size);
  });

  it("reruns: new-or-failed sends nothing for done rows; older-than re-fetches old rows; all redoes everything", () => {
    const w = world(companies);
    const input = { rows: inputRows(20), mapping, fields: ["name", "url"] };
    runSync(computeRows(coreDeps, { ...w.ctx, cacheTtlSeconds: 0 }, "j", input), w.sync);
    const after1 = w.spent();
    runSync(
      computeRows(coreDeps, { ...w.ctx, cacheTtlSeconds: 0 }, "j", {
        ...input,
        options: { rerun: { olderThanDays: 30 } },
      }),
      w.sync,
    );
    expect(w.spent()).toBe(after1);
    w.advance(40 * 86_400_000);
    runSync(
      computeRows(coreDeps, { ...w.ctx, cacheTtlSeconds: 0 }, "j", {
        ...input,
        options: { rerun: { olderThanDays: 30 } },
      }),
      w.sync,
    );
    const profiles = w.ledger.filter((l) => !l.path.includes("batch")).length;
    expect(profiles).toBeGreaterThan(0);
    // The old rows were re-fetched by id: no new resolves.
    expect(w.ledger.filter((l) => l.path.includes("batch")).length).toBe(1);
    runSync(
      computeRows(coreDeps, { ...w.ctx, cacheTtlSeconds: 0 }, "j", { ...input, options: { rerun: "all" } }),
      w.sync,
    );
    expect(w.ledger.filter((l) => l.path.includes("batch")).length).toBe(2);
  });

  it("stops the whole run on a rejected key instead of marking every row", () => {
    const w = world(companies);
    const ctx = { ...w.ctx, client: { ...w.ctx.client, apiKey: "" } };
    expect(() =>
      runSync(computeRows(coreDeps, ctx, "j", { rows: inputRows(5), mapping, fields: FIELDS }), w.sync),
    ).toThrow(/No API key/);
  });

  it("encodes row selections as ranges", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 500 })), (xs) => {
        const sorted = [...xs].sort((a, b) => a - b);
        expect(decodeRanges(encodeRanges(sorted))).toEqual(sorted);
      }),
    );
  });
});
