/**
 * `company-data search` with filters, past one page, with exclusion and
 * merge, spawned as users run it against the emulator on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/index.ts";
import type { RunningServer } from "../../emulator/server.ts";
import { parseCsv } from "../../cli/csv.ts";
import { runCli, startCliWorld, type CliRunOptions } from "../helpers/cli.ts";
import { nth } from "../helpers/indexed.ts";

let emu: Emulator;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  ({ emu, server, dir } = await startCliWorld({ companies: 3000, seed: 21, dirPrefix: "cd-search-" }));
});
afterAll(() => server?.close());

const run = (args: string[], opts: Omit<CliRunOptions, "closeStdout"> = {}) => runCli({ server, dir }, args, opts);
const readList = (file: string) => parseCsv(readFileSync(join(dir, file), "utf8"));
const profileOf = (id: string) => emu.world.profile(emu.world.byId(id)!, "en") as Record<string, unknown>;

describe("company-data search", () => {
  it("filters: industry, state, size class, legal form, active only reach the service; every hit satisfies them", async () => {
    const key = emu.createKey(100);
    const r = await run(
      [
        "search",
        "--industry",
        "62",
        "--state",
        "BY,Berlin",
        "--size-class",
        "micro,small",
        "--legal-form",
        "GmbH",
        "--active-only",
        "--limit",
        "50",
        "--lang",
        "en",
      ],
      { key },
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t"));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const p = profileOf(nth(line, 0));
      expect((p.industry as { code: string }).code).toMatch(/^J62/);
      expect(["DE-BY", "DE-BE"]).toContain(p.state);
      expect(["MICRO", "SMALL"]).toContain((p.size as { code: string }).code);
      expect((p.legalForm as { code: string }).code).toBe("GMBH");
      expect(p.active).toBe(true);
    }
    expect(100 - emu.balance(key)).toBe(1);
  });

  it("a place with a radius, and bad filter values exit 2 in the user's language with nothing spent", async () => {
    const key = emu.createKey(100);
    const near = await run(["search", "--near", "München", "--radius", "30", "--limit", "20", "--lang", "en"], { key });
    expect(near.code, near.stderr).toBe(0);
    expect(near.stdout.trim().split("\n").length).toBeGreaterThan(1);
    const bad = await run(["search", "Software", "--state", "Texas", "--lang", "de"], { key });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("kein Bundesland");
    expect(bad.stderr).toContain("Texas");
    const badEn = await run(["search", "Software", "--industry", "Software", "--lang", "en"], { key });
    expect(badEn.code).toBe(2);
    expect(badEn.stderr).toContain("not a WZ 2008 code");
    const nothing = await run(["search", "--lang", "en"], { key });
    expect(nothing.code).toBe(2);
    expect(100 - emu.balance(key)).toBe(1);
  });

  it("--limit past one page: the price is shown first and equals what is spent; --out writes each company once", async () => {
    const key = emu.createKey(1000);
    const r = await run(["search", "--active-only", "--limit", "450", "--out", "leads.csv", "--yes", "--lang", "en"], {
      key,
    });
    expect(r.code, r.stderr).toBe(0);
    const price = /(\d+) credits in all/.exec(r.stderr);
    expect(price, r.stderr).not.toBeNull();
    expect(Number(price![1])).toBe(5);
    expect(1000 - emu.balance(key)).toBe(Number(price![1]));
    const rows = readList("leads.csv");
    expect(nth(rows, 0).slice(0, 3)).toEqual(["Company ID", "Company name", "Legal form"]);
    expect(rows.length - 1).toBe(450);
    expect(new Set(rows.slice(1).map((x) => x[0])).size).toBe(450);
    expect(r.stderr).toContain("450 companies listed; 5 credits spent");
  });

  it("without --yes and without a terminal only the first page is listed and nothing more is spent (exit 7)", async () => {
    const key = emu.createKey(1000);
    const r = await run(["search", "--active-only", "--limit", "300", "--lang", "de"], { key });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain("Nicht bestätigt");
    expect(1000 - emu.balance(key)).toBe(1);
    expect(r.stdout.trim().split("\n").length - 1).toBe(100);
  });

  it("--exclude leaves out companies of another list (by id and by name); --append adds only new ones by id", async () => {
    const key = emu.createKey(1000);
    const first = await run(["search", "--industry", "J62", "--limit", "30", "--out", "base.csv", "--lang", "en"], {
      key,
    });
    expect(first.code, first.stderr).toBe(0);
    const base = readList("base.csv").slice(1);
    expect(base.length).toBe(30);
    // A CRM export: ten by id, five by name only (German header, semicolons).
    const crm = [
      "Firmen-ID;Firma",
      ...base.slice(0, 10).map((b) => `${b[0]};`),
      ...base.slice(10, 15).map((b) => `;"${b[1]}"`),
    ].join("\r\n");
    writeFileSync(join(dir, "crm.csv"), crm + "\r\n");
    const ex = await run(["search", "--industry", "J62", "--limit", "30", "--exclude", "crm.csv", "--lang", "en"], {
      key,
    });
    expect(ex.code, ex.stderr).toBe(0);
    const ids = ex.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t")[0]);
    expect(ids.length).toBe(15);
    expect(ids).toEqual(base.slice(15).map((b) => b[0]));
    expect(ex.stderr).toContain("15 left out");

    const again = await run(
      ["search", "--industry", "J62", "--limit", "60", "--out", "base.csv", "--append", "--lang", "en"],
      { key },
    );
    expect(again.code, again.stderr).toBe(0);
    const merged = readList("base.csv");
    expect(merged.length - 1).toBe(60);
    expect(new Set(merged.slice(1).map((x) => x[0])).size).toBe(60);
    expect(merged.slice(1, 31)).toEqual(base);
    const exists = await run(["search", "--industry", "J62", "--out", "base.csv", "--lang", "en"], { key });
    expect(exists.code).toBe(2);
    expect(exists.stderr).toContain("--append");
  });
});

describe("company-data enrich by identifiers", () => {
  it("a CSV with only a VAT id or website column is matched by the free lookup; a malformed one is named; only profiles are paid", async () => {
    const key = emu.createKey(1000);
    const ids = emu.companies.ids().slice(200, 203);
    const ps = ids.map(profileOf);
    const csv =
      [
        "USt-IdNr.;Webseite",
        `${nth(ps, 0).vatId};`,
        `;${nth(ps, 1).url}`,
        "DE12;",
        `${String(nth(ps, 2).vatId).replace(/^DE/, "DE ")};`,
      ].join("\r\n") + "\r\n";
    writeFileSync(join(dir, "crm-ids.csv"), csv);
    const r = await run(
      ["enrich", "--in", "crm-ids.csv", "--out", "crm-ids-out.csv", "--fields", "name,city", "--yes", "--lang", "en"],
      { key },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("VAT id=USt-IdNr.");
    const out = parseCsv(readFileSync(join(dir, "crm-ids-out.csv"), "utf8").replace(/^\ufeff/, ""), ";");
    expect(out.slice(1).map((row) => row[2])).toEqual([
      "matched",
      "matched",
      expect.stringContaining("not a VAT id"),
      "matched",
    ]);
    expect(out.slice(1).map((row) => row[4])).toEqual([ids[0], ids[1], "", ids[2]]);
    expect(1000 - emu.balance(key)).toBe(0);
  });
});
