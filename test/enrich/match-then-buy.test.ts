/**
 * Issue 12 item 2 in the core: a run in two phases. "match" resolves every
 * row and buys nothing (rows that need a profile are left "unbought" with
 * their id); its price of the rest is exact; "buy" then buys exactly those,
 * within a budget, by row key (a sort between the phases changes nothing).
 * Against the emulator, which charges as the service does.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { enrichSheet } from "../../shared/enrich/job.ts";
import { chunkCeiling, unboughtPrice } from "../../shared/enrich/job-price.ts";
import type { SheetJobSpec } from "../../shared/enrich/job-types.ts";
import { RunMemo } from "../../shared/enrich/memo.ts";
import { fieldNeeds, selectFields } from "../../shared/enrich/fields.ts";
import { coreDeps } from "../../shared/enrich/run.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { Workbook } from "../../shared/sheet/workbook.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import { uniqueNames } from "../helpers/names.ts";

let emu: Emulator;
let clock = Date.UTC(2025, 5, 2, 9);
beforeAll(() => {
  emu = createEmulator({ companies: 3_000, seed: 11, now: () => clock, startDate: "2025-06-02" });
});

/** 200 names found once, 20 of them twice (one company, two rows), 20 names that exist nowhere. */
function list(): Cell[][] {
  const names = uniqueNames(emu, 200);
  const rows: Cell[][] = names.map((n) => [n]);
  for (let i = 0; i < 20; i++) rows.splice(i * 10 + 5, 0, [names[i * 7] ?? ""]);
  for (let i = 0; i < 20; i++) rows.push([`Phantasiefirma ${i} Nirgendwo GmbH`]);
  return [["Firma"], ...rows];
}

function setup() {
  const key = emu.createKey(100_000);
  const d = emulatorDrivers(emu, { now: () => clock, onSleep: (ms) => (clock += ms) });
  const cells = list();
  const book = new Workbook([{ name: "Liste", cells }]);
  // A round trip takes a second on the fake clock, so a deadline can fall between two chunks.
  const driver: AsyncDriver = {
    ...d.async,
    http: async (reqs) => ((clock += 1000), d.async.http(reqs)),
    sheet: async (req) => book.handle(req),
  };
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: "de",
      now: () => clock,
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 0,
    maxBatch: 50,
    scope: "mtb",
  };
  // id, name and address: a profile of one credit per company, no include the availability could drop.
  const spec = (options: SheetJobSpec["options"]): SheetJobSpec => ({
    sheet: "Liste",
    row: 1,
    col: 1,
    rows: cells.length,
    cols: 1,
    fields: ["id", "name", "address"],
    options: { chunkSize: 20, ...options },
  });
  const charged = async <T>(op: Parameters<typeof runAsync<T>>[0]) => {
    const before = emu.balance(key);
    const value = await runAsync(op, driver);
    return { value, charged: before - emu.balance(key) };
  };
  const profileCalls = () => d.requests.filter((r) => /\/v2\/companies\/DE[A-Z0-9]{10}(\?|$)/.test(r.url)).length;
  const rowsNow = () => {
    const { rows } = book.size("Liste");
    return book
      .block("Liste", 2, 1, rows - 1, 6)
      .map((r) => ({ name: String(r[0]), status: String(r[1]), id: String(r[3]) }));
  };
  return { key, ctx, book, spec, charged, profileCalls, rowsNow, rows: cells.length - 1 };
}

describe("enrichSheet in two phases: match, then buy at the exact price", () => {
  it("stops after matching (nothing bought), and the buying phase is charged exactly the price it gave, after a sort", async () => {
    const t = setup();
    const m = await t.charged(enrichSheet(coreDeps, t.ctx, t.spec({ phase: "match" })));
    expect(m.value.complete).toBe(true);
    // Only the batch resolves were paid: 220 distinct names in whole tens.
    expect(m.charged).toBe(22);
    expect(t.profileCalls()).toBe(0);
    const after = t.rowsNow();
    expect(after).toHaveLength(t.rows);
    const unbought = after.filter((r) => r.status === "abgeglichen, Profil nicht gekauft");
    expect(unbought.length).toBeGreaterThanOrEqual(200);
    expect(after.filter((r) => r.status === "nicht gefunden").length).toBeGreaterThanOrEqual(20);
    for (const r of unbought) expect(r.id).toBe(emu.companies.findByName(r.name)[0]);
    expect(m.value.stats.unbought).toBe(unbought.length);
    const price = m.value.afterMatching!;
    // Each company once (a name twice is one company), one credit each; the first price counted every name.
    expect(price).toMatchObject({ companies: new Set(unbought.map((r) => r.id)).size, perCompany: 1 });
    expect(price.credits).toBe(price.companies);
    expect(price.credits).toBeLessThan(t.rows);

    // The user sorts the whole table (input and output together) by name, descending, before confirming.
    const { rows } = t.book.size("Liste");
    const block = t.book.block("Liste", 2, 1, rows - 1, 6);
    block.sort((a, b) => String(b[0]).localeCompare(String(a[0])));
    block.forEach((r, i) => r.forEach((v, j) => t.book.set("Liste", 2 + i, 1 + j, v)));

    const b = await t.charged(enrichSheet(coreDeps, t.ctx, t.spec({ phase: "buy", budget: price.credits })));
    expect(b.value.complete).toBe(true);
    expect(b.value.stopped).toBeUndefined();
    // Exactly the price shown: nothing resolved again, each company bought once.
    expect(b.charged).toBe(price.credits);
    expect(t.profileCalls()).toBe(price.companies);
    // Every row has its own company's data, on its own row.
    const done = t.rowsNow();
    expect(done.filter((r) => r.status === "abgeglichen, Profil nicht gekauft")).toEqual([]);
    for (const r of done) {
      if (r.name.startsWith("Phantasiefirma")) expect(r.status).toBe("nicht gefunden");
      else {
        expect(r.status).toBe("gefunden");
        expect(r.id).toBe(emu.companies.findByName(r.name)[0]);
      }
    }
  });

  it("never spends past its budget: a chunk that could cost more is not sent, its rows stay unbought", async () => {
    const t = setup();
    const m = await t.charged(enrichSheet(coreDeps, t.ctx, t.spec({ phase: "match" })));
    const price = m.value.afterMatching!;
    const budget = price.credits - 30;
    const b = await t.charged(enrichSheet(coreDeps, t.ctx, t.spec({ phase: "buy", budget })));
    expect(b.value.stopped).toBe("budget");
    expect(b.value.complete).toBe(false);
    expect(b.charged).toBeLessThanOrEqual(budget);
    expect(b.charged).toBeGreaterThan(0);
    const left = t.rowsNow().filter((r) => r.status === "abgeglichen, Profil nicht gekauft");
    expect(left.length).toBeGreaterThan(0);
    // What is left is bought by the next run without matching again: only profiles, the rest of the price.
    const rest = await t.charged(
      enrichSheet(coreDeps, t.ctx, t.spec({ phase: "buy", budget: price.credits - b.charged })),
    );
    expect(rest.value.complete).toBe(true);
    expect(b.charged + rest.charged).toBe(price.credits);
  });

  it("a matching phase cut by the deadline goes on where it stopped; a name edited between the phases is not bought on the old price", async () => {
    const t = setup();
    // The first step's deadline has passed after its first chunk: the run stops, resumable.
    let steps = 0;
    let m;
    let spent = 0;
    do {
      const deadline = clock + 1500;
      const r = await t.charged(enrichSheet(coreDeps, t.ctx, t.spec({ phase: "match", deadline })));
      clock += 10;
      spent += r.charged;
      m = r.value;
      steps++;
    } while (!m.complete && steps < 100);
    expect(steps).toBeGreaterThan(1);
    // Cut into steps, the matching still pays each name once.
    expect(spent).toBe(22);
    const price = m.afterMatching!;
    // The user edits a matched row's name: its output is not its own any more.
    const firstUnbought = t.rowsNow().findIndex((r) => r.status === "abgeglichen, Profil nicht gekauft");
    t.book.set("Liste", 2 + firstUnbought, 1, "Phantasiefirma Umbenannt GmbH");
    const b = await t.charged(enrichSheet(coreDeps, t.ctx, t.spec({ phase: "buy", budget: price.credits })));
    expect(b.value.complete).toBe(true);
    expect(b.charged).toBeLessThanOrEqual(price.credits);
    expect(t.rowsNow()[firstUnbought]?.status).toMatch(/geändert/);
  });
});

describe("the price after matching and a chunk's ceiling", () => {
  const A = "DEAAAAAAAAAA",
    B = "DEBBBBBBBBBB",
    C = "DECCCCCCCCCC";
  it("counts each unbought company once, less those a matched row of the table already holds", () => {
    const rows = [
      { outcome: "unbought" as const, id: A, givenId: false },
      { outcome: "unbought" as const, id: A, givenId: false },
      { outcome: "unbought" as const, id: B, givenId: true },
      { outcome: "unbought" as const, id: C, givenId: false },
      { outcome: "matched" as const, id: C, givenId: false },
      { outcome: "not_found" as const, id: null, givenId: false },
      null,
    ];
    expect(unboughtPrice(rows, ["id", "name", "address"])).toMatchObject({ companies: 2, perCompany: 1, credits: 2 });
    // Fields the match answers alone: a resolved row's company was never bought, so it is not taken off.
    expect(
      unboughtPrice(
        [
          { outcome: "unbought", id: B, givenId: true },
          { outcome: "matched", id: B, givenId: false },
        ],
        ["id", "name"],
      ).credits,
    ).toBe(unboughtPrice([{ outcome: "unbought", id: B, givenId: true }], ["id", "name"]).credits);
  });

  it("a chunk of ids costs each company not bought yet once; a row still to match cannot be priced", () => {
    const memo = new RunMemo(fieldNeeds(selectFields(["id", "name", "address"])));
    memo.rememberCompany(C, ["x"], "2025-06-01");
    const t = (id: string | null, name?: string) => ({ index: 0, query: name ? { name } : null, id, confidence: null });
    expect(chunkCeiling([t(A), t(A), t(B), t(C), t(null)], memo)).toBe(2);
    expect(chunkCeiling([t(A), t(null, "Neue Firma GmbH")], memo)).toBe(Infinity);
  });
});
