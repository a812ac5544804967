/**
 * `company-data doctor` and an enrichment from the command line, against the
 * emulator and the drifted emulator served on 127.0.0.1 (port 0): the exit
 * codes the help documents, `--json`, the balance unchanged, and an
 * enrichment under drift that writes no wrong value (each cell the true
 * value, empty, or a clear error).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { FAST, runCli } from "../helpers/cli.ts";
import { parseCsv } from "../../cli/csv.ts";
import type { DoctorReport } from "../../shared/doctor/types.ts";

interface World {
  emu: Emulator;
  server: RunningServer;
  dir: string;
}
const worlds: World[] = [];
async function world(drift: boolean): Promise<World> {
  const emu = createEmulator({
    companies: 500,
    seed: 7,
    startDate: "2026-01-15",
    drift,
    rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
  });
  const w = {
    emu,
    server: await startServer(emu, { port: 0, host: "127.0.0.1" }),
    dir: mkdtempSync(join(tmpdir(), "doctor-cli-")),
  };
  worlds.push(w);
  return w;
}
let normal: World, drifted: World;
beforeAll(async () => {
  normal = await world(false);
  drifted = await world(true);
});
afterAll(async () => {
  for (const w of worlds) await w.server.close();
});

describe("company-data doctor", () => {
  test("against the emulator: exit 0, 0 credits spent, in German by default", async () => {
    const key = normal.emu.createKey(100);
    const r = await runCli(normal, ["doctor"], { key });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Ergebnis: alles wie erwartet. Ausgeben ist sicher.");
    expect(r.stdout).toContain("0 Credits ausgegeben: Guthaben vorher und nachher 100.");
    expect(normal.emu.balance(key)).toBe(100);
  });

  test("against the drifted emulator: exit 11 (not safe), each drift named; --json is the report", async () => {
    const key = drifted.emu.createKey(100);
    const text = await runCli(drifted, ["doctor", "--lang", "en"], { key });
    expect(text.code).toBe(11);
    expect(text.stdout).toContain("Result: NOT safe to spend.");
    expect(text.stdout).toContain("resolve: the field `status` is missing (probably renamed to `matchStatus`).");
    expect(text.stdout).toContain('the column "Legal form" will be empty');
    const json = await runCli(drifted, ["doctor", "--json"], { key });
    expect(json.code).toBe(11);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report.verdict).toBe("unsafe");
    expect(report.credits.spent).toBe(0);
    expect(report.findings.some((f) => f.path === "match.zip" && f.renamedTo === "postcode")).toBe(true);
    expect(json.stdout).not.toContain(key);
    expect(drifted.emu.balance(key)).toBe(100);
  });

  test("a rejected key: exit 5", async () => {
    const r = await runCli(normal, ["doctor"], { key: "nope" });
    expect(r.code).toBe(5);
  });
});

describe("an enrichment under drift writes no wrong value", () => {
  test("names: a clear error per row; ids: the true values or empty", async () => {
    const names = ["SAP SE", "Siemens AG", "BASF SE", "Allianz SE"];
    const ids = ["DEJK7QV0PK24", "DEPIYX8Y4M82"];
    const csv = "Firma,ID\n" + [...names.map((n) => `${n},`), ...ids.map((i) => `,${i}`)].join("\n") + "\n";
    const fields = "id,name,legalForm,zip,city,register,address,status";
    const out: Record<string, string[][]> = {};
    for (const w of [normal, drifted]) {
      writeFileSync(join(w.dir, "in.csv"), csv);
      const r = await runCli(
        w,
        ["enrich", "--in", "in.csv", "--out", "out.csv", "--fields", fields, "--yes", "--lang", "en"],
        { key: w.emu.createKey(1000) },
      );
      expect([0, 6], r.stderr).toContain(r.code);
      out[w === normal ? "normal" : "drift"] = parseCsv(readFileSync(join(w.dir, "out.csv"), "utf8"));
    }
    const [truth, got] = [out.normal!, out.drift!];
    expect(got.length).toBe(truth.length);
    let errors = 0,
      same = 0;
    got.forEach((row, r) =>
      row.forEach((cell, c) => {
        const t = truth[r]![c]!;
        if (cell === t) return void same++;
        if (cell === "") return;
        // Parts of a composed value (the address without its postcode).
        if (cell.split(/[\s,]+/).every((w) => t.includes(w))) return;
        if (/unexpected answer from the data service/i.test(cell) || /^error$/i.test(cell)) return void errors++;
        throw new Error(`row ${r} col ${c}: ${JSON.stringify(cell)}, true ${JSON.stringify(t)}`);
      }),
    );
    expect(errors).toBeGreaterThan(0);
    expect(same).toBeGreaterThan(0);
  });
});
