/**
 * What a German or English user reads from the CLI is wholly in their
 * language (headers, column roles, placeholders, counts), numbers are
 * grouped as their language writes them, CSV numbers match the delimiter's
 * Excel, and a closed pipe ends the output quietly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/index.ts";
import type { RunningServer } from "../../emulator/server.ts";
import { formatCell, parseCsv, parseCsvNumber } from "../../cli/csv.ts";
import { fromCsvCell } from "../../cli/csv-table.ts";
import { runCli, startCliWorld } from "../helpers/cli.ts";
import { nth } from "../helpers/indexed.ts";

let emu: Emulator;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  ({ emu, server, dir } = await startCliWorld({ companies: 2000, seed: 5, dirPrefix: "cd-cli-words-" }));
});
afterAll(() => server?.close());

const run = (args: string[], key: string | null = null, closeStdout = false) =>
  runCli({ server, dir }, args, { key, closeStdout });

const oneRow = (delimiter: string) => {
  const path = join(dir, `one${delimiter === ";" ? "-de" : "-en"}.csv`);
  writeFileSync(path, ["Firma", "Ort"].join(delimiter) + "\r\n" + ["SAP SE", "Walldorf"].join(delimiter) + "\r\n");
  return path;
};
/** "1 Credits", "1 requests" and the like, but not "11 requests". */
const wrongSingular =
  /(^|[^\d.,])1 (Credits|Anfragen|Profile|Zeilen|credits|requests|profiles|rows|names|companies|Firmen)\b/;

describe("CLI wording per language", () => {
  it("search: the table header and the missing-term message speak the user's language", async () => {
    const key = emu.createKey(100);
    const de = await run(["search", "GmbH", "--size", "3", "--lang", "de"], key);
    expect(de.code).toBe(0);
    expect(de.stdout.split("\n")[0]).toBe("Firmen-ID\tFirma\tOrt\tPLZ\tRechtsform\tStatus");
    expect(de.stderr).toMatch(/Firmen gefunden/);
    const en = await run(["search", "GmbH", "--size", "3", "--lang", "en"], key);
    expect(en.stdout.split("\n")[0]).toBe("Company ID\tName\tCity\tPostcode\tLegal form\tStatus");
    const help = (await run(["--help", "--lang", "de"])).stdout;
    expect(help).toContain("company-data search SUCHE");
    const missingDe = await run(["search", "", "--lang", "de"], key);
    expect(missingDe.code).toBe(2);
    expect(missingDe.stderr).toMatch(/^SUCHE fehlt\./);
    expect(missingDe.stderr).not.toContain("QUERY");
    const missingEn = await run(["search", "", "--lang", "en"], key);
    expect(missingEn.stderr).toMatch(/^Missing QUERY\./);
  });

  it("account: the balance is grouped as the language writes numbers", async () => {
    const key = emu.createKey(999_838);
    const de = await run(["account", "--lang", "de"], key);
    expect(de.stdout).toContain("Guthaben: 999.838 Credits");
    const en = await run(["account", "--lang", "en"], key);
    expect(en.stdout).toContain("Credits: 999,838");
    const one = emu.createKey(1);
    expect((await run(["account", "--lang", "de"], one)).stdout).toContain("Guthaben: 1 Credit\n");
  });

  it("estimate: German roles, include names and singulars in German; English in English", async () => {
    const de = await run([
      "estimate",
      "enrich",
      "--in",
      oneRow(";"),
      "--fields",
      "name,financials,people",
      "--lang",
      "de",
    ]);
    expect(de.code).toBe(0);
    expect(de.stderr).toContain("Spalten: Firmenname=Firma, Ort=Ort");
    expect(de.stdout).toMatch(/1 Profil mit Personen, Finanzdaten: \d+ Credits, 1 Anfrage\b/);
    expect(de.stdout).toMatch(/^1 Zeile anzureichern/);
    expect(de.stdout).not.toMatch(/people|financials|announcements|credits|requests/);
    expect(de.stdout).not.toMatch(wrongSingular);
    const en = await run([
      "estimate",
      "enrich",
      "--in",
      oneRow(","),
      "--fields",
      "name,financials,people",
      "--lang",
      "en",
    ]);
    expect(en.stderr).toContain("Columns: company name=Firma, city=Ort");
    expect(en.stdout).toMatch(/1 profile with people, financials: \d+ credits, 1 request\b/);
    expect(en.stdout).toMatch(/1 name resolved \(batch\): 1 credit, 1 request\b/);
    expect(en.stdout).not.toMatch(/Personen|Finanzdaten|Credits|Anfragen|Profile/);
    expect(en.stdout).not.toMatch(wrongSingular);
  });

  it("a closed stdout pipe ends quietly with exit 0 (company-data fields | head)", async () => {
    for (const args of [
      ["fields", "--lang", "de"],
      ["--help", "--lang", "en"],
    ]) {
      const r = await run(args, null, true);
      expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
      expect(r.code).toBe(0);
    }
  });
});

describe("CSV numbers follow the delimiter", () => {
  it("decimal comma with ;, decimal point with , and back", () => {
    expect(formatCell(0.3366, ";")).toBe("0,3366");
    expect(formatCell(0.3366, ",")).toBe("0.3366");
    expect(formatCell(-12.5, ";")).toBe("-12,5");
    expect(formatCell(999838, ";")).toBe("999838");
    expect(parseCsvNumber("0,3366", ";")).toBe(0.3366);
    expect(parseCsvNumber("0.3366", ";")).toBeNull();
    expect(parseCsvNumber("0.3366", ",")).toBe(0.3366);
    expect(parseCsvNumber("0,3366", ",")).toBeNull();
    expect(fromCsvCell("0,92", ";")).toBe(0.92);
    expect(fromCsvCell("Müller, Köln", ";")).toBe("Müller, Köln");
  });

  it("an enrichment of a ;-file writes decimal commas, of a ,-file decimal points", async () => {
    for (const [delimiter, ratio] of [
      [";", "0,3366"],
      [",", "0.3366"],
    ] as const) {
      const key = emu.createKey(100);
      const out = join(dir, `ratio${delimiter === ";" ? "-de" : "-en"}.out.csv`);
      const r = await run(
        [
          "enrich",
          "--in",
          oneRow(delimiter),
          "--out",
          out,
          "--fields",
          "name,equityRatio",
          "--yes",
          "--lang",
          delimiter === ";" ? "de" : "en",
        ],
        key,
      );
      expect(r.code, r.stderr).toBe(0);
      const recs = parseCsv(readFileSync(out, "utf8"), delimiter);
      const col = nth(recs, 0).findIndex((h) => /Eigenkapitalquote|Equity ratio/.test(h));
      expect(nth(recs, 1)[col]).toBe(ratio);
      expect(nth(recs, 1)[3]).toBe("1"); // match confidence 1: an integer either way
    }
  });
});
