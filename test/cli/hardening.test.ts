/**
 * Issue 28, the CLI's part: a malformed key, no empty journal after a
 * refusal, why a file cannot be read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildRequest } from "../../shared/api/client.ts";
import { CsvError, MAX_FIELD_CHARS, MAX_ROW_CHARS, parseCsv, CsvParser } from "../../cli/csv.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { testContext } from "../helpers/fake-api.ts";
import { runCli, startCliWorld, type CliWorld } from "../helpers/cli.ts";

let world: CliWorld;
beforeAll(async () => {
  world = await startCliWorld({ companies: 2000, seed: 28, dirPrefix: "cd-hard-" });
});
afterAll(() => world?.server.close());
const run = (args: string[], opts: Parameters<typeof runCli>[2] = {}) => runCli(world, args, opts);
const file = (name: string, text: string) => {
  const p = join(world.dir, name);
  writeFileSync(p, text);
  return p;
};

describe("small ones", () => {
  it("a key with CR/LF or a non-Latin-1 character is a malformed key, not an unreachable service", async () => {
    const cfg = (apiKey: string) => testContext(() => 0, {}, { apiKey }).ctx.client;
    for (const bad of ["abc\r\nX-Evil: 1", "key with blank", "schlüssel€", "“quoted”"]) {
      let err: unknown;
      try {
        buildRequest(cfg(bad), { endpoint: "account" });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CompanyDataError);
      expect((err as CompanyDataError).code).toBe("INVALID_KEY");
      expect((err as CompanyDataError).text("en")).toMatch(/^The API key is malformed: it contains a line break/);
      expect((err as CompanyDataError).text("de")).not.toContain(bad);
    }
    const r = await run(["account", "--lang", "en"], { key: "demo\u2028key\u00ff" });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/COMPANY_DATA_API_KEY is malformed: it contains a line break, a blank or a character/);
    expect(r.stderr).not.toMatch(/could not reach/i);
  });

  it("refusing to run without --yes leaves no OUT.csv.spent", async () => {
    const input = file("refuse.csv", "Firma\nSAP SE\nSiemens AG\n");
    const out = join(world.dir, "refuse.out.csv");
    const r = await run(["enrich", "--in", input, "--out", out, "--lang", "en"], { key: world.emu.createKey(100) });
    expect(r.code).toBe(7);
    expect(existsSync(out + ".spent")).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  it('"Cannot read" says why: not found, a folder, permission denied', async () => {
    const nope = await run(["estimate", "enrich", "--in", "nope.csv", "--lang", "en"]);
    expect(nope.code).toBe(3);
    expect(nope.stderr).toContain("Cannot read nope.csv: not found.");
    mkdirSync(join(world.dir, "folder.csv"), { recursive: true });
    const folder = await run(["estimate", "enrich", "--in", "folder.csv", "--lang", "de"]);
    expect(folder.code).toBe(3);
    expect(folder.stderr).toContain("folder.csv kann nicht gelesen werden: das ist ein Ordner, keine Datei.");
    const locked = file("locked.csv", "Firma\nSAP SE\n");
    chmodSync(locked, 0o000);
    const denied = await run(["estimate", "enrich", "--in", "locked.csv", "--lang", "en"]);
    // root reads any file: the check then has nothing to refuse.
    if (process.getuid?.() !== 0) {
      expect(denied.code).toBe(3);
      expect(denied.stderr).toContain("Cannot read locked.csv: permission denied.");
    }
    const monitor = await run(["monitor", "--in", "nope.csv", "--out", "r.csv", "--changes", "c.csv", "--lang", "en"], {
      key: world.emu.createKey(10),
    });
    expect(monitor.stderr).toContain("Cannot read nope.csv: not found.");
  });
});

describe("the CSV reader is bounded", () => {
  const problem = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      if (e instanceof CsvError) return { line: e.line, en: e.text.en, de: e.text.de };
      throw e;
    }
    return null;
  };

  it("a field longer than MAX_FIELD_CHARS is an error naming its line; one of exactly the limit is read", () => {
    expect(parseCsv(`a,b\n1,${"x".repeat(MAX_FIELD_CHARS)}\n`)[1]?.[1]).toHaveLength(MAX_FIELD_CHARS);
    const p = problem(() => parseCsv(`a,b\n1,2\n3,"${"y".repeat(MAX_FIELD_CHARS + 1)}"\n`));
    expect(p).toMatchObject({ line: 3, en: expect.stringMatching(/^a field is longer than 100,000 characters/) });
    expect(p?.de).toMatch(/^ein Feld ist länger als 100\.000 Zeichen/);
    // The last field of a file without a final line break too.
    expect(problem(() => parseCsv(`a\n${"z".repeat(MAX_FIELD_CHARS + 1)}`))?.line).toBe(2);
  });

  it("a row longer than MAX_ROW_CHARS fails as soon as it passes the limit, fed in pieces, header or not", () => {
    const parser = new CsvParser();
    const piece = ("x".repeat(9_999) + ",").repeat(10);
    let fed = 0;
    const p = problem(() => {
      for (;;) {
        parser.push(piece);
        fed += piece.length;
      }
    });
    expect(p).toMatchObject({ line: 1, en: expect.stringMatching(/^a row is longer than 1,000,000 characters/) });
    expect(fed).toBeLessThanOrEqual(MAX_ROW_CHARS + piece.length);
    const body = problem(() => parseCsv(`a,b\n1,2\n${"1,".repeat(MAX_ROW_CHARS / 2 + 1)}\n`));
    expect(body?.line).toBe(3);
  });

  it("an 8 MB header line: exit 3 with the message naming line 1, no stack trace", async () => {
    const input = file("huge-header.csv", "name," + "x".repeat(8 * 1024 * 1024) + "\nSAP SE,1\n");
    const r = await run(["estimate", "enrich", "--in", input, "--lang", "en"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/line 1: a row is longer than 1,000,000 characters/);
    expect(r.stderr).not.toMatch(/ {4}at |RangeError|heap/);
  });
});

describe("the progress line against the service's ledger (item 7)", () => {
  it("at every print: never below what the emulator has charged, above it by at most the credits it names as in flight", async () => {
    const { createEmulator } = await import("../../emulator/index.ts");
    const { startServer } = await import("../../emulator/server.ts");
    const { enrichCommand } = await import("../../cli/enrich.ts");
    const { cliContext } = await import("../support/cli-context.ts");
    const { FAST } = await import("../helpers/cli.ts");
    // Answers come 250 ms after the emulator charged them: the window in which the old line under-reported.
    const emu = createEmulator({
      companies: 2000,
      seed: 7,
      rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
      faults: { latencyMs: 250 },
    });
    const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
    try {
      const names = [...new Set(emu.world.companies.map((c) => c.name))].slice(0, 150);
      const input = file("progress.csv", "Firma\n" + names.map((n) => `"${n.replace(/"/g, '""')}"`).join("\n") + "\n");
      const start = 100_000;
      const key = emu.createKey(start);
      const prints: { line: string; charged: number }[] = [];
      const io = {
        out: () => {},
        // Read the emulator's ledger in the same tick as the line is printed: the same process, nothing runs in between.
        err: (line: string) => {
          if (line.startsWith("Progress:")) prints.push({ line, charged: start - emu.balance(key) });
        },
        progressEveryMs: 40,
      };
      const code = await enrichCommand(
        {
          input,
          output: join(world.dir, "progress.out.csv"),
          fields: ["name", "city", "employees"],
          mode: "batch",
          rerun: "new-or-failed",
          yes: true,
          lang: "en",
          parallel: 32,
        },
        cliContext(server.url, key),
        io,
        false,
      );
      expect(code).toBe(0);
      expect(prints.length).toBeGreaterThan(3);
      let maxInFlight = 0;
      for (const p of prints) {
        const m = /; ([\d,]+) credits? spent so far(?: \(up to ([\d,]+) of them in requests still under way\))?\./.exec(
          p.line,
        );
        expect(m, p.line).not.toBeNull();
        const spent = Number(m![1]!.replace(/,/g, ""));
        const inFlight = Number((m![2] ?? "0").replace(/,/g, ""));
        maxInFlight = Math.max(maxInFlight, inFlight);
        expect(spent, `${p.line} / emulator charged ${p.charged}`).toBeGreaterThanOrEqual(p.charged);
        expect(spent - p.charged, `${p.line} / emulator charged ${p.charged}`).toBeLessThanOrEqual(inFlight);
      }
      // The window was real: prints happened while charged answers were still on their way.
      expect(maxInFlight).toBeGreaterThan(0);
      console.log(
        `progress vs ledger (issue 28): ${prints.length} prints; ${prints.map((p) => `${/; ([\d,]+) credits?/.exec(p.line)?.[1]}/${p.charged}`).join(" ")}`,
      );
    } finally {
      await server.close();
    }
  });
});

describe("the balance before a run (item 8)", () => {
  const names = () => [...new Set(world.emu.world.companies.map((c) => c.name))].slice(200, 260);
  const list = (name: string) =>
    file(
      name,
      "Firma\n" +
        names()
          .map((n) => `"${n.replace(/"/g, '""')}"`)
          .join("\n") +
        "\n",
    );

  it("without --yes and without a terminal: the shortfall and how far it gets are said, nothing is spent", async () => {
    const key = world.emu.createKey(40);
    const r = await run(
      [
        "enrich",
        "--in",
        list("short.csv"),
        "--out",
        join(world.dir, "short.out.csv"),
        "--fields",
        "name,employees",
        "--lang",
        "en",
      ],
      { key },
    );
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /Your balance is 40 credits: not enough for this estimate \(at most 66 credits\)\. The run stops when the balance is spent, after about 36 of 60 rows;/,
    );
    expect(world.emu.balance(key)).toBe(40);
  });

  it("with --yes: said before the first credit is spent, then as far as the balance goes (exit 4, resumable)", async () => {
    const key = world.emu.createKey(40);
    const r = await run(
      [
        "enrich",
        "--in",
        list("short-yes.csv"),
        "--out",
        join(world.dir, "short-yes.out.csv"),
        "--fields",
        "name,employees",
        "--yes",
        "--lang",
        "de",
      ],
      { key },
    );
    const warned = r.stderr.indexOf(
      "Ihr Guthaben beträgt 40 Credits: zu wenig für diese Schätzung (höchstens 66 Credits)",
    );
    expect(warned, r.stderr).toBeGreaterThan(-1);
    expect(r.stderr.indexOf("--yes: es geht so weit, wie das Guthaben reicht.")).toBeGreaterThan(warned);
    expect(r.code).toBe(4);
    expect(world.emu.balance(key)).toBeLessThan(40);
  });

  it("a balance that covers the estimate: no word about it", async () => {
    const key = world.emu.createKey(1000);
    const r = await run(
      [
        "enrich",
        "--in",
        list("enough.csv"),
        "--out",
        join(world.dir, "enough.out.csv"),
        "--fields",
        "name,employees",
        "--yes",
        "--lang",
        "en",
      ],
      { key },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/balance/i);
  });
});

describe("a full disk (item 4)", () => {
  it('says "disk full" with the file (exit 9), keeps what was bought, and the rerun pays nothing twice, name matching included', async () => {
    const { enrichCommand } = await import("../../cli/enrich.ts");
    const { ExitError } = await import("../../cli/io.ts");
    const { injectDiskFull } = await import("../../node/disk.ts");
    const { EXIT } = await import("../../cli/i18n.ts");
    const { cliContext } = await import("../support/cli-context.ts");
    const emu = world.emu;
    const names = [...new Set(emu.world.companies.map((c) => c.name))].slice(300, 600);
    const input = file("disk.csv", "Firma\n" + names.map((n) => `"${n.replace(/"/g, '""')}"`).join("\n") + "\n");
    const args = (output: string) => ({
      input,
      output,
      fields: ["name", "employees"],
      mode: "batch" as const,
      rerun: "new-or-failed" as const,
      yes: true,
      lang: "en" as const,
      parallel: 32,
    });
    const io = { out: () => {}, err: () => {} };
    const charged = (key: string, start: number) => start - emu.balance(key);

    // The uninterrupted run: what the job costs.
    const base = emu.createKey(100_000);
    expect(
      await enrichCommand(args(join(world.dir, "disk-base.out.csv")), cliContext(world.server.url, base), io, false),
    ).toBe(EXIT.OK);
    const cost = charged(base, 100_000);

    // The disk fills up when the first group of resolved names is written: their answers are in the answer
    // journal only, and the rerun must take them from there.
    const out = join(world.dir, "disk.out.csv");
    const key = emu.createKey(100_000);
    let resolvedWrites = 0;
    injectDiskFull((f) => f.endsWith(".resolved.jsonl") && ++resolvedWrites === 1);
    let err: unknown;
    try {
      await enrichCommand(args(out), cliContext(world.server.url, key), io, false);
    } catch (e) {
      err = e;
    } finally {
      injectDiskFull(null);
    }
    expect(err).toBeInstanceOf(ExitError);
    expect((err as InstanceType<typeof ExitError>).code).toBe(EXIT.DISK_FULL);
    expect((err as Error).message).toBe(
      `Disk full: cannot write ${out}.resolved.jsonl (ENOSPC). What was already paid for is kept (journals, rows written); free some space and run the same command again: it resumes without paying twice.`,
    );
    const first = charged(key, 100_000);
    expect(first).toBeGreaterThan(0);
    expect(
      existsSync(out + ".journal.jsonl") && existsSync(out + ".spent") && existsSync(out + ".checkpoint.json"),
    ).toBe(true);

    // Space freed: the same command finishes, and the whole job cost what the uninterrupted run did.
    expect(await enrichCommand(args(out), cliContext(world.server.url, key), io, false)).toBe(EXIT.OK);
    expect(charged(key, 100_000)).toBe(cost);
  }, 120_000);
});
