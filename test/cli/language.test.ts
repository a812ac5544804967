/**
 * First contact in the user's language, as users start the programs
 * (`node bin/company-data.js`, a process each): with no German locale
 * (LANG=C.UTF-8, as on most servers, containers and CI) the help, the team
 * server's help, the doctor, the reconciliation service, the MCP server and
 * the emulator speak English; with de_DE German; --lang wins over either
 * (shared/i18n/locale.ts, the rule's table: test/unit/locale-language.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { runCli, startCliWorld, type CliWorld } from "../helpers/cli.ts";

let world: CliWorld;
beforeAll(async () => {
  world = await startCliWorld({ companies: 300, seed: 42, dirPrefix: "cd-language-" });
});
afterAll(async () => {
  await world?.server.close();
  if (world) rmSync(world.dir, { recursive: true, force: true });
});

/** The locale variables as a container sets them: LANG only (inherited LC_ALL, LC_MESSAGES, LANGUAGE cleared). */
const locale = (LANG: string) => ({ LANG, LC_ALL: "", LC_MESSAGES: "", LANGUAGE: "" });
const C = locale("C.UTF-8");
const GERMAN = locale("de_DE.UTF-8");

describe("LANG=C.UTF-8: English", () => {
  it("company-data --help", async () => {
    const r = await runCli(world, ["--help"], { env: C });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^company-data: German company data from the command line\n\nUsage:/);
    expect(r.stdout).not.toContain("Aufruf");
  });

  it("company-data server --help", async () => {
    const r = await runCli(world, ["server", "--help"], { env: C });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:\n {2}company-data server /);
    expect(r.stdout).not.toContain("DATEI");
  });

  it("company-data doctor", async () => {
    const r = await runCli(world, ["doctor"], { env: C, key: world.emu.createKey(100) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Service check \(free\) against /);
    expect(r.stdout).toContain("Result: ");
    expect(r.stdout).not.toMatch(/Ergebnis|Dienst-Prüfung/);
  });

  it("company-data reconcile and mcp: their messages", async () => {
    const rec = await runCli(world, ["reconcile", "--bogus"], { env: C });
    expect(rec.code).toBe(2);
    expect(rec.stderr).toContain("Invalid input (reconcile): allowed are");
    const mcp = await runCli(world, ["mcp", "--bogus"], { env: C });
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toContain("Invalid input (mcp): allowed are");
  });

  it("company-data emulator: its help and a wrong flag", async () => {
    const help = await runCli(world, ["emulator", "--help"], { env: C });
    expect(help.stdout).toMatch(/^Usage: npm run emulator -- \[flags\]/);
    const bad = await runCli(world, ["emulator", "--bogus"], { env: C });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^unknown flag --bogus \(see --help\)\nUsage:/);
    const de = await runCli(world, ["emulator", "--help"], { env: GERMAN });
    expect(de.stdout).toMatch(/^Aufruf: npm run emulator -- \[Optionen\]/);
  });

  it("POSIX, en_US.UTF-8 and no locale at all are English too", async () => {
    for (const env of [locale("POSIX"), locale("en_US.UTF-8"), locale("")]) {
      const r = await runCli(world, ["--help"], { env });
      expect(r.stdout, JSON.stringify(env)).toMatch(/^company-data: German company data/);
    }
  });
});

describe("a German locale: German; --lang wins", () => {
  it("LANG=de_DE.UTF-8: the help and the doctor in German", async () => {
    const help = await runCli(world, ["--help"], { env: GERMAN });
    expect(help.stdout).toMatch(/^company-data: Firmendaten auf der Kommandozeile\n\nAufruf:/);
    const doctor = await runCli(world, ["doctor"], { env: GERMAN, key: world.emu.createKey(100) });
    expect(doctor.stdout).toMatch(/^Dienst-Prüfung \(kostenlos\) gegen /);
  });

  it("LC_ALL=de_DE.UTF-8 over LANG=C.UTF-8; --lang en over both", async () => {
    const de = await runCli(world, ["server", "--help"], { env: { ...C, LC_ALL: "de_DE.UTF-8" } });
    expect(de.stdout).toMatch(/^Aufruf:/);
    const en = await runCli(world, ["server", "--help", "--lang", "en"], { env: GERMAN });
    expect(en.stdout).toMatch(/^Usage:/);
    const deFlag = await runCli(world, ["--lang", "de", "--help"], { env: C });
    expect(deFlag.stdout).toMatch(/^company-data: Firmendaten/);
  });
});
