/**
 * Issue 12 item 2: once the names are matched, the CLI prints the exact price
 * of the profiles before buying them (each company once: a duplicate name or
 * a second row with the same id is not counted twice), and the run spends
 * exactly the matching plus that figure.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, startCliWorld, type CliWorld } from "../helpers/cli.ts";
import { nth } from "../helpers/indexed.ts";

let world: CliWorld;
beforeAll(async () => {
  world = await startCliWorld({ companies: 2000, seed: 21, dirPrefix: "cd-after-" });
});
afterAll(async () => {
  await world?.server.close();
});

describe("company-data enrich: the price after matching", () => {
  it("is printed before the profiles are bought and equals what they cost", async () => {
    const names: string[] = [];
    for (const c of world.emu.world.companies) {
      if (names.length >= 12) break;
      if (world.emu.companies.findByName(c.name).length === 1) names.push(c.name);
    }
    const given = world.emu.world.companies.find((c) => !names.includes(c.name))!.id;
    // 12 names (one written twice, differently), one given id twice: 13 companies to buy.
    const rows = [...names.map((n) => `"${n}";`), `"${nth(names, 0).toUpperCase()}";`, `;${given}`, `;${given}`];
    const input = join(world.dir, "after.csv");
    writeFileSync(input, ["Firma;ID", ...rows].join("\r\n") + "\r\n");
    const key = world.emu.createKey(1000);
    const r = await runCli(
      world,
      [
        "enrich",
        "--in",
        input,
        "--out",
        join(world.dir, "after.out.csv"),
        "--fields",
        "name,city,url,status",
        "--yes",
        "--lang",
        "en",
      ],
      { key },
    );
    expect(r.code).toBe(0);
    const m = /After matching: (\d+) companies at most (\d+) credits? each, at most (\d+) credits in all\./.exec(
      r.stderr,
    );
    expect(m, r.stderr).not.toBeNull();
    expect(Number(m![1])).toBe(13);
    const profiles = Number(m![3]);
    // Matching: 13 rows with a name = 12 distinct names after normalisation, one batch call of ten-name shares.
    const matching = Math.ceil(12 / 10);
    expect(1000 - world.emu.balance(key)).toBe(matching + profiles);
  });
});
