import { describe, expect, it } from "vitest";
import { runSync, type SyncDriver } from "../../shared/core/drivers.ts";
import { applyReviewPicks, enrichSheet } from "../../shared/enrich/job.ts";
import { coreDeps } from "../../shared/enrich/run.ts";
import type { Cell, SheetRequest } from "../../shared/core/sheet-protocol.ts";
import { makeCompanies, world } from "./world.ts";
import { nth } from "../helpers/indexed.ts";

/** A grid answering the sheet protocol, recording every request. */
function grid(initial: Cell[][]) {
  const cells: Cell[][] = initial.map((r) => [...r]);
  const log: SheetRequest[] = [];
  const dropdowns = new Map<string, string[]>();
  const at = (r: number, c: number) => cells[r - 1]?.[c - 1] ?? "";
  const handle = (req: SheetRequest): unknown => {
    log.push(req);
    switch (req.op) {
      case "read":
        return Array.from({ length: req.rows }, (_, i) =>
          Array.from({ length: req.cols }, (_, j) => at(req.row + i, req.col + j)),
        );
      case "write":
        req.values.forEach((row, i) =>
          row.forEach((v, j) => {
            while (cells.length < req.row + i) cells.push([]);
            nth(cells, req.row + i - 1)[req.col + j - 1] = v;
          }),
        );
        return undefined;
      case "dropdowns":
        req.options.forEach((o, i) => dropdowns.set(`${req.row + i}:${req.col}`, o));
        return undefined;
      default:
        return undefined;
    }
  };
  return { cells, log, dropdowns, at, handle };
}

const companies = makeCompanies(60);

function setup(credits = 1_000_000) {
  const w = world([...companies, { ...nth(companies, 4), id: "DEAAAAAAAAAA", city: "Köln" }], credits);
  const input: Cell[][] = [
    ["Firma", "Stadt"],
    ...companies.slice(0, 40).map((c) => [c.name, c.city] as Cell[]),
    ["Firma 4 GmbH", ""],
  ];
  const g = grid(input);
  const driver: SyncDriver = { ...w.sync, sheet: g.handle };
  const spec = {
    sheet: "Kunden",
    row: 1,
    col: 1,
    rows: input.length,
    cols: 2,
    fields: ["name", "url"],
    options: { chunkSize: 8 },
  };
  return { w, g, driver, spec, input };
}

describe("enrichSheet", () => {
  it("writes the output block beside the input, chunk by chunk, with a dropdown for review rows", () => {
    const { w, g, driver, spec, input } = setup();
    const r = runSync(enrichSheet(coreDeps, w.ctx, spec), driver);
    expect(r.complete).toBe(true);
    expect(r.output).toMatchObject({ col: 3, cols: 3 + 3 });
    expect(nth(g.cells, 0).slice(2)).toEqual([
      "Status",
      "Trefferqualität",
      "Firmen-ID",
      "Firmenname (Treffer)",
      "Website",
      "Stand",
    ]);
    expect(g.at(2, 3)).toBe("gefunden");
    expect(g.at(2, 5)).toBe(nth(companies, 0).id);
    expect(g.at(2, 7)).toBe('\'=HYPERLINK("http://evil")'.slice(1)); // raw: hosts write text as text
    const last = input.length;
    expect(String(g.at(last, 3))).toMatch(/^prüfen/);
    expect(g.dropdowns.get(`${last}:5`)!.length).toBe(2);
    // Whole blocks only: the header, then the results of all chunks together (written every WRITE_EVERY_MS and
    // at the end of the step, each time after a fresh read). Chunks of 8 grow to whole tens of new names
    // (41 distinct names: 10, 10, 10, 10, 1 rows), so the batch resolves never round up.
    const writes = g.log.filter((x) => x.op === "write").length;
    expect(writes).toBe(1 + 1);
    expect(w.spent()).toBe(Math.ceil(41 / 10) + 40);
    expect(r.stats).toMatchObject({ matched: 40, review: 1 });
  });

  it("applies a pick from the dropdown to the review row only", () => {
    const { w, g, driver, spec, input } = setup();
    runSync(enrichSheet(coreDeps, w.ctx, spec), driver);
    const last = input.length;
    const pick = nth(g.dropdowns.get(`${last}:5`)!, 1);
    nth(g.cells, last - 1)[4] = pick; // the user picks in the id column
    const before = w.requests.length;
    const r = runSync(applyReviewPicks(coreDeps, w.ctx, spec), driver);
    expect(r.stats.review).toBe(0);
    expect(g.at(last, 3)).toBe("gefunden");
    expect(g.at(last, 4)).toBe(1);
    expect(g.at(last, 5)).toBe("DEAAAAAAAAAA");
    expect(g.dropdowns.get(`${last}:5`)).toEqual([]);
    // One profile for the picked company, nothing resolved.
    expect(w.requests.slice(before).map((x) => new URL(x.url).pathname)).toEqual(["/v2/companies/DEAAAAAAAAAA"]);
  });

  it("stops at a deadline and resumes without redoing written rows", () => {
    const { w, g, driver, spec } = setup();
    const ref = setup();
    runSync(enrichSheet(coreDeps, ref.w.ctx, spec), ref.driver);
    let stops = 0;
    for (;;) {
      const deadline = w.now() + 1;
      const tick: SyncDriver = {
        ...driver,
        http: (reqs) => {
          w.advance(1);
          return w.sync.http(reqs);
        },
      };
      const r = runSync(
        enrichSheet(coreDeps, { ...w.ctx, cacheTtlSeconds: 0 }, { ...spec, options: { ...spec.options, deadline } }),
        tick,
      );
      if (r.complete) break;
      stops++;
      expect(r.stopped).toBe("deadline");
    }
    expect(stops).toBeGreaterThan(2);
    expect(g.cells.map((r) => r.slice(0, 8))).toEqual(ref.g.cells.map((r) => r.slice(0, 8)));
    expect(w.spent()).toBe(ref.w.spent());
  });

  it("marks the rest out of credits and finishes it after a top-up", () => {
    const { w, g, driver, spec } = setup(25);
    const a = runSync(enrichSheet(coreDeps, w.ctx, spec), driver);
    expect(a.stopped).toBe("out_of_credits");
    expect(a.stats.outOfCredits).toBeGreaterThan(0);
    expect(g.cells.filter((r) => r[2] === "nicht angereichert: keine Credits").length).toBe(a.stats.outOfCredits);
    w.setBalance(1000);
    const b = runSync(enrichSheet(coreDeps, w.ctx, spec), driver);
    expect(b.complete).toBe(true);
    expect(b.stats).toMatchObject({ matched: 40, review: 1, outOfCredits: 0 });
    const profiles = w.ledger.filter((l) => !l.path.includes("batch")).map((l) => l.key);
    expect(new Set(profiles).size).toBe(profiles.length);
  });

  it("gives a row without a name a status and suffixes output headers the input already has", () => {
    const w = world(companies);
    const input: Cell[][] = [
      ["Firma", "Ort", "Status"],
      [nth(companies, 0).name, nth(companies, 0).city, "x"],
      ["", "Berlin", ""],
      [nth(companies, 1).name, "", ""],
    ];
    const g = grid(input);
    const driver: SyncDriver = { ...w.sync, sheet: g.handle };
    const spec = { sheet: "Kunden", row: 1, col: 1, rows: input.length, cols: 3, fields: ["name", "city"] };
    const r = runSync(enrichSheet(coreDeps, w.ctx, spec), driver);
    expect(r.complete).toBe(true);
    expect(nth(g.cells, 0).slice(3)).toEqual([
      "Status (Treffer)",
      "Trefferqualität",
      "Firmen-ID",
      "Firmenname (Treffer)",
      "Ort (Treffer)",
      "Stand",
    ]);
    expect(g.at(3, 4)).toBe("übersprungen: kein Name");
    expect(r.stats).toMatchObject({ rows: 3, matched: 2, skipped: 1 });
    const s = r.stats;
    expect(s.matched + s.review + s.notFound + s.error + s.outOfCredits + s.skipped).toBe(s.rows);
    // A second run reads its own (suffixed) header back and has nothing to do; picks touch no other row.
    const sent = w.requests.length;
    expect(runSync(enrichSheet(coreDeps, w.ctx, spec), driver).complete).toBe(true);
    runSync(applyReviewPicks(coreDeps, w.ctx, spec), driver);
    expect(w.requests.length).toBe(sent);
    expect([g.at(2, 4), g.at(3, 4), g.at(4, 4)]).toEqual(["gefunden", "übersprungen: kein Name", "gefunden"]);
  });

  it("refuses to overwrite foreign data beside the table", () => {
    const { w, g, driver, spec } = setup();
    nth(g.cells, 0)[2] = "Meine Notizen";
    expect(() => runSync(enrichSheet(coreDeps, w.ctx, spec), driver)).toThrow(/output/);
  });

  it("a review pick survives a rerun of all rows, unless the row's input changed", () => {
    const { w, g, driver, spec, input } = setup();
    runSync(enrichSheet(coreDeps, w.ctx, spec), driver);
    const last = input.length;
    nth(g.cells, last - 1)[4] = nth(g.dropdowns.get(`${last}:5`)!, 1); // the user picks the Köln company
    runSync(applyReviewPicks(coreDeps, w.ctx, spec), driver);
    expect(g.at(last, 5)).toBe("DEAAAAAAAAAA");
    const all = { ...spec, options: { ...spec.options, rerun: "all" as const } };
    const before = w.requests.length;
    runSync(enrichSheet(coreDeps, { ...w.ctx, cacheTtlSeconds: 0 }, all), driver);
    expect(g.at(last, 3)).toBe("gefunden");
    expect(g.at(last, 5)).toBe("DEAAAAAAAAAA");
    // The picked row was not resolved again (the other 40 names were, in batches).
    const resolved = w.requests
      .slice(before)
      .filter((x) => x.url.endsWith("/batch/resolve"))
      .flatMap((x) => JSON.parse(x.body!).companies.map((c: { name: string }) => c.name));
    expect(resolved).toHaveLength(40);
    expect(resolved.filter((n: string) => n === "Firma 4 GmbH")).toHaveLength(1); // the other row of that name, in Berlin
    // The user changes the row's input: the pick no longer stands, the row is matched anew.
    nth(g.cells, last - 1)[1] = "Berlin";
    runSync(enrichSheet(coreDeps, { ...w.ctx, cacheTtlSeconds: 0 }, all), driver);
    expect(g.at(last, 5)).toBe(nth(companies, 4).id);
  });
});
