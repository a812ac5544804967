/**
 * `company-data enrich` of a CSV with only an LEI column, spawned as users
 * run it against the emulator on 127.0.0.1: the column is recognised, valid
 * LEIs are matched by the free lookup, a typo is its row's error, an unknown
 * LEI is "not found", and only the profiles the fields need are paid.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/index.ts";
import type { RunningServer } from "../../emulator/server.ts";
import { leiOf } from "../../emulator/data/lei.ts";
import { leiCheckDigits } from "../../shared/api/lei.ts";
import { parseCsv } from "../../cli/csv.ts";
import { runCli, startCliWorld } from "../helpers/cli.ts";

let emu: Emulator;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  ({ emu, server, dir } = await startCliWorld({ companies: 2000, seed: 33, dirPrefix: "cd-lei-" }));
});
afterAll(() => server?.close());

describe("company-data enrich by LEI", () => {
  it("a CSV with only an LEI column is matched for free; a typo is named in the user's language; the price first bounds the spend", async () => {
    const w = emu.world;
    const cs = w.companies
      .filter((c) => !c.reference)
      .flatMap((c) => {
        const lei = leiOf(c, w.seed);
        return lei ? [{ id: c.id, lei }] : [];
      });
    const a = cs.at(0),
      b = cs.at(1);
    if (!a || !b) throw new Error("the emulator has fewer than two companies with an LEI");
    const typo = a.lei.slice(0, 8) + (a.lei[8] === "7" ? "8" : "7") + a.lei.slice(9);
    const unknown = "391200QQQQQQQQQQQQ" + leiCheckDigits("391200QQQQQQQQQQQQ");
    const csv = ["LEI", a.lei, b.lei.toLowerCase(), typo, unknown, a.lei].join("\r\n") + "\r\n";
    writeFileSync(join(dir, "leis.csv"), csv);
    const key = emu.createKey(100);
    const r = await run(
      ["enrich", "--in", "leis.csv", "--out", "leis-out.csv", "--fields", "name,lei", "--yes", "--lang", "de"],
      key,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("LEI=LEI");
    // The price first: an upper bound (the unknown LEI is priced as if it matched); the free lookups are counted and paced.
    expect(r.stderr).toContain("höchstens 3 Credits, 6 Anfragen (3 kostenpflichtig, 3 kostenlos)");
    expect(r.stderr).toContain("3 Kennungen nachschlagen (kostenlos)");
    const out = parseCsv(readFileSync(join(dir, "leis-out.csv"), "utf8").replace(/^\ufeff/, ""));
    const rows = out.slice(1);
    expect(rows.map((row) => row[0])).toEqual([a.lei, b.lei.toLowerCase(), typo, unknown, a.lei]);
    expect(rows.map((row) => row[1]?.split(":")[0])).toEqual([
      "gefunden",
      "gefunden",
      "Fehler",
      "nicht gefunden",
      "gefunden",
    ]);
    expect(rows.at(2)?.[1]).toContain("LEI mit falschen Prüfziffern");
    expect(rows.map((row) => row[3])).toEqual([a.id, b.id, "", "", a.id]);
    expect(rows.map((row) => row.includes(a.lei) || row.includes(b.lei))).toEqual([true, true, false, false, true]);
    // Two distinct companies, one profile each (the LEI is a profile field); the lookups are free.
    expect(100 - emu.balance(key)).toBe(2);
  });
});

const run = (args: string[], key: string) => runCli({ server, dir }, args, { key });
