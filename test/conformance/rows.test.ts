/**
 * One conformance suite for the three sheet adapters (Apps Script, Excel,
 * playground): every value lands on the row it belongs to while the user
 * sorts, inserts, deletes and edits, during a step and between steps; a
 * totals row and the user's cells below the table stay untouched; dates and
 * numbers in the input survive; a missing sheet is the same clear error
 * everywhere; API text is never a formula.
 */
import { describe, expect, it } from "vitest";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { noSuchSheet, type Cell } from "../../shared/core/sheet-protocol.ts";
import { ADAPTERS } from "./adapters.ts";
import { NOTE, OUT_COL, SHEET, TOTALS, companyRow, open, paidTwice, table, unfinished, wrongRows } from "./kit.ts";
import { nth } from "../helpers/indexed.ts";

const reverse = (rows: Cell[][]) => [...rows].reverse();

describe.each(ADAPTERS)("rows stay with their data: $name", (adapter) => {
  it("a sort during a step (after its read, before its write): every row gets its own company", async () => {
    const s = open(adapter, table(0, 24));
    const r = await s.step({ during: () => s.user(reverse) });
    expect(r.complete).toBe(true);
    expect(wrongRows(s)).toEqual([]);
    expect(unfinished(s)).toEqual([]);
    expect(paidTwice(s)).toEqual([]);
  });

  it("a sort between steps: finished means every known company has its data, none paid twice", async () => {
    const s = open(adapter, table(0, 24));
    const first = await s.step({ oneChunk: true });
    expect(first.complete).toBe(false);
    s.user(reverse);
    const r = await s.finish();
    expect(r.stats.matched).toBe(24);
    expect(wrongRows(s)).toEqual([]);
    expect(unfinished(s)).toEqual([]);
    expect(paidTwice(s)).toEqual([]);
  });

  it("sorting only the input columns between steps: outputs left behind are marked and redone", async () => {
    const s = open(adapter, table(0, 24));
    await s.step({ oneChunk: true });
    s.user(reverse, { inputOnly: true });
    // The next step marks every output that is not its row's before anything else.
    await s.step({ oneChunk: true });
    expect(wrongRows(s)).toEqual([]);
    await s.finish();
    expect(unfinished(s)).toEqual([]);
    expect(paidTwice(s)).toEqual([]);
  });

  it("a row deleted between steps: the totals row and the user's cells below stay untouched", async () => {
    const s = open(adapter, table(0, 24));
    await s.step({ oneChunk: true });
    s.user((rows) => rows.filter((_, i) => i !== 5));
    const before = s.outside();
    await s.finish();
    expect(s.outside()).toBe(before);
    const g = s.wb.grid(SHEET);
    const totals = g.findIndex((r) => r[0] === TOTALS);
    expect(totals).toBe(1 + 23);
    expect(nth(g, totals).slice(OUT_COL - 1, OUT_COL + 4)).toEqual(["", NOTE, "", "", ""]);
    expect(unfinished(s)).toEqual([]);
  });

  it("a row inserted and a row edited during a step: the new input is enriched, the old answer never lands", async () => {
    const s = open(adapter, table(0, 24));
    await s.step({
      during: () =>
        s.user((rows) => {
          const next = [...rows];
          next[2] = [...companyRow(40), ...nth(next, 2).slice(2)]; // edited: another company's name
          next.splice(5, 0, companyRow(41)); // inserted
          return next;
        }),
    });
    const r = await s.finish();
    expect(r.complete).toBe(true);
    expect(s.tableRows()).toBe(25);
    expect(wrongRows(s)).toEqual([]);
    expect(unfinished(s)).toEqual([]);
    expect(paidTwice(s)).toEqual([]);
  });

  it("a row deleted during a step: its result is dropped, nothing is written below the table", async () => {
    const s = open(adapter, table(0, 24));
    let before = "";
    await s.step({
      during: () => {
        s.user((rows) => rows.slice(1));
        before = s.outside();
      },
    });
    await s.finish();
    expect(s.outside()).toBe(before);
    expect(wrongRows(s)).toEqual([]);
    expect(unfinished(s)).toEqual([]);
  });

  it("dates and numbers in the input stay as they are, and the rows keep their key between reads", async () => {
    const rows: Cell[][] = table(0, 6).map((r) => [...r]);
    const s = open(adapter, rows);
    // A number and an ISO date the user typed beside the table (column I, right of the output).
    s.user((data) =>
      data.map((r, i) => {
        const x = [...r];
        x[8] = i % 2 ? 1067 : "2024-03-01";
        return x;
      }),
    );
    await s.step({ oneChunk: true });
    s.user(reverse);
    await s.finish();
    const g = s.wb.grid(SHEET);
    const typed = g.slice(1, 7).map((r) => r[8]);
    expect(typed.filter((v) => v === 1067)).toHaveLength(3);
    expect(typed.filter((v) => v === "2024-03-01")).toHaveLength(3);
    // The as-of date is written as text, the confidence as a number.
    const row = nth(g, 1);
    expect(typeof row[OUT_COL]).toBe("number");
    expect(row[OUT_COL + 3]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(unfinished(s)).toEqual([]);
  });

  it("a missing sheet: the same clear error everywhere, nothing written", async () => {
    const s = open(adapter, table(0, 3));
    s.spec.sheet = "Gelöscht";
    const err = await s.step().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CompanyDataError);
    expect((err as CompanyDataError).text("de")).toBe(noSuchSheet("Gelöscht").text("de"));
    expect((err as CompanyDataError).text("en")).toBe(noSuchSheet("Gelöscht").text("en"));
    expect(s.w.ledger).toEqual([]);
  });

  it("API text that looks like a formula is written as text, never as a formula", async () => {
    const s = open(adapter, table(0, 3), { fields: ["name", "url"] });
    await s.finish();
    const g = s.wb.grid(SHEET);
    // Website is the column after the company name: the API's "=HYPERLINK(…)" as plain text.
    expect(nth(g, 1)[OUT_COL + 3]).toBe('=HYPERLINK("http://evil")');
    expect(s.wb.formulas()).toEqual([]);
  });
});
