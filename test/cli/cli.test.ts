/**
 * The command line, spawned as users run it (`node bin/company-data.js`),
 * against the emulator on 127.0.0.1 (port 0).
 */
import { CITIES } from "../../emulator/data/places.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync, statSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { parseCsv } from "../../cli/csv.ts";
import { FAST, runCli, startCliWorld, type CliRunOptions } from "../helpers/cli.ts";
import { nth } from "../helpers/indexed.ts";

let emu: Emulator;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  ({ emu, server, dir } = await startCliWorld({ companies: 3000, seed: 11, dirPrefix: "cd-cli-" }));
});
afterAll(() => server?.close());

const run = (args: string[], opts: Omit<CliRunOptions, "closeStdout"> = {}) => runCli({ server, dir }, args, opts);

/** Companies whose name resolves to exactly one company. */
function uniqueCompanies(n: number) {
  const out: { id: string; name: string; city: string }[] = [];
  for (const c of emu.world.companies) {
    if (out.length >= n) break;
    // The world keeps a city as an index into CITIES: the input carries its name, as a user's list would.
    if (emu.companies.findByName(c.name).length === 1)
      out.push({ id: c.id, name: c.name, city: nth(CITIES, c.city).name });
  }
  return out;
}

const q = (s: string) => `"${s.replace(/"/g, '""')}"`;

function writeInput(name: string, rows: { name: string; city?: string }[], delimiter = ";"): string {
  const path = join(dir, name);
  const lines = [
    ["Firma", "Ort", "Notiz"].join(delimiter),
    ...rows.map((r, i) => [q(r.name), r.city ?? "", i % 50 === 0 ? q("=1+1;\nzweite Zeile") : ""].join(delimiter)),
  ];
  writeFileSync(path, "\ufeff" + lines.join("\r\n") + "\r\n");
  return path;
}

const FIELDS = "name,city,url,status";
/** A count as the CLI prints it (grouped: 1,760 in English, 1.760 in German). */
const num = (s: string) => Number(s.replace(/[.,]/g, ""));
const creditsOf = (text: string) => num(nth(/(?:at most|höchstens) ([\d.,]+) (?:credits?|Credits?)/.exec(text)!, 1));

describe("company-data CLI", () => {
  it("prints help and exits 0; unknown commands exit 2", async () => {
    const h = await run(["--help", "--lang", "en"]);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/Exit codes/);
    const d = await run(["--help", "--lang", "de"]);
    expect(d.stdout).toMatch(/Exit-Codes/);
    const u = await run(["frobnicate", "--lang", "en"]);
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(/Unknown command/);
  });

  it("estimates without a key and without spending", async () => {
    const key = emu.createKey(1000);
    const input = writeInput("est.csv", uniqueCompanies(120));
    const r = await run(["estimate", "enrich", "--in", input, "--fields", FIELDS, "--lang", "en"], { key });
    expect(r.code).toBe(0);
    // 120 distinct names in one chunk: 12 batch credits (2 calls), 120 profiles.
    expect(creditsOf(r.stdout)).toBe(12 + 120);
    expect(emu.balance(key)).toBe(1000);
    const noKey = await run(["estimate", "enrich", "--in", input, "--fields", FIELDS, "--lang", "en"], { key: null });
    expect(noKey.code).toBe(0);
  });

  it("spends nothing without --yes when there is no terminal", async () => {
    const key = emu.createKey(1000);
    const input = writeInput("noyes.csv", uniqueCompanies(30));
    const r = await run(
      ["enrich", "--in", input, "--out", join(dir, "noyes.out.csv"), "--fields", FIELDS, "--lang", "de"],
      { key },
    );
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/Nicht bestätigt/);
    expect(emu.balance(key)).toBe(1000);
    expect(existsSync(join(dir, "noyes.out.csv"))).toBe(false);
    expect(r.stderr + r.stdout).not.toContain(key);
  });

  it("enriches with --yes: one row per input row, statuses, neutralised cells, spend equal to the estimate", async () => {
    const key = emu.createKey(5000);
    const companies = uniqueCompanies(40);
    const dup = nth(emu.companies.duplicateNames(1), 0);
    const rows = [...companies, { name: dup.name }, { name: "Gibt Es Nicht Überhaupt GmbH" }, { name: "" }];
    const input = writeInput("small.csv", rows);
    const out = join(dir, "small.out.csv");
    const est = await run(["estimate", "enrich", "--in", input, "--fields", FIELDS, "--lang", "en"], { key });
    const r = await run(["enrich", "--in", input, "--out", out, "--fields", FIELDS, "--yes", "--lang", "en"], { key });
    expect(r.code).toBe(0);
    const spent = 5000 - emu.balance(key);
    // The ambiguous and the unknown name are resolved but no profile is bought for them.
    expect(spent).toBe(creditsOf(est.stdout) - 2);
    const text = readFileSync(out, "utf8");
    const recs = parseCsv(text.replace(/^\ufeff/, ""), ";");
    expect(nth(recs, 0).slice(0, 6)).toEqual(["Firma", "Ort", "Notiz", "Status", "Match confidence", "Company ID"]);
    expect(recs.length).toBe(rows.length + 1);
    expect(nth(recs, 1)[3]).toBe("matched");
    expect(nth(recs, 1)[5]).toBe(nth(companies, 0).id);
    // The user's own cell is written as it was; only the API's text is neutralised.
    expect(nth(recs, 1)[2]).toBe("=1+1;\nzweite Zeile");
    expect(nth(recs, companies.length + 1)[3]).toMatch(/^review: DE/);
    expect(nth(recs, companies.length + 2)[3]).toBe("not found");
    expect(nth(recs, companies.length + 3)[3]).toBe("skipped: no name");
    expect(
      nth(recs, companies.length + 3)
        .slice(4)
        .every((c) => c === ""),
    ).toBe(true);
    expect(existsSync(out + ".checkpoint.json")).toBe(false);
    // Run again: nothing new to do, nothing spent.
    const again = await run(["enrich", "--in", input, "--out", out, "--fields", FIELDS, "--lang", "en"], { key });
    expect(again.code).toBe(0);
    expect(5000 - emu.balance(key)).toBe(spent);
    expect(readFileSync(out, "utf8")).toBe(text);
  });

  it("resumes after a kill without paying twice, and ends with the same file as an uninterrupted run", async () => {
    const companies = uniqueCompanies(1600);
    const input = writeInput("big.csv", companies);
    const refKey = emu.createKey(100_000);
    const refOut = join(dir, "big.ref.csv");
    const ref = await run(["enrich", "--in", input, "--out", refOut, "--fields", FIELDS, "--yes", "--lang", "en"], {
      key: refKey,
    });
    expect(ref.code).toBe(0);
    const refSpent = 100_000 - emu.balance(refKey);
    expect(refSpent).toBe(160 + 1600); // 1600 names resolved first in full calls, 1600 profiles

    const key = emu.createKey(100_000);
    const out = join(dir, "big.out.csv");
    const cp = out + ".checkpoint.json";
    // A small cap on requests in flight, so that what a kill can lose is small and known.
    const PARALLEL = 16;
    const killed = await run(["enrich", "--in", input, "--out", out, "--fields", FIELDS, "--yes", "--lang", "en"], {
      key,
      env: { COMPANY_DATA_PARALLEL: String(PARALLEL) },
      onStart: (kill) => {
        const poll = setInterval(() => {
          if (existsSync(cp) && JSON.parse(readFileSync(cp, "utf8")).rowsDone >= 500) {
            clearInterval(poll);
            kill();
          }
        }, 5);
      },
    });
    expect(killed.code).not.toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(statSync(out + ".partial").size).toBeGreaterThan(0);
    const resumed = await run(["enrich", "--in", input, "--out", out, "--fields", FIELDS, "--yes", "--lang", "en"], {
      key,
      env: { COMPANY_DATA_PARALLEL: String(PARALLEL) },
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/Resuming after row \d+/);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(refOut, "utf8"));
    // Every answer that arrived before the kill is replayed from the journal (or the resolutions
    // file, or the rows written); only requests in flight at that instant (at most PARALLEL, the
    // dearest a batch resolve of 100 names costing 10) can have been charged without being kept.
    const extra = 100_000 - emu.balance(key) - refSpent;
    expect(extra).toBeGreaterThanOrEqual(0);
    expect(extra).toBeLessThanOrEqual(PARALLEL * 10);
  }, 120_000); // two or three runs of the CLI at the default ceiling of 32 in flight; minutes on a loaded machine

  it("stops cleanly when credits run out and finishes exactly the rest after a top-up", async () => {
    const companies = uniqueCompanies(700);
    const input = writeInput("credits.csv", companies);
    const key = emu.createKey(300);
    const out = join(dir, "credits.out.csv");
    const a = await run(["enrich", "--in", input, "--out", out, "--fields", FIELDS, "--yes", "--lang", "en"], { key });
    expect(a.code).toBe(4);
    expect(a.stderr).toMatch(/Out of credits/);
    const recs = parseCsv(readFileSync(out, "utf8").replace(/^\ufeff/, ""), ";").slice(1);
    const marked = recs.filter((r) => r[3] === "not enriched: out of credits").length;
    const matched = recs.filter((r) => r[3] === "matched").length;
    expect(marked).toBeGreaterThan(0);
    expect(matched + marked).toBe(700);
    const spentA = 300 - emu.balance(key);
    emu.setBalance(key, 10_000);
    const b = await run(["enrich", "--in", input, "--out", out, "--fields", FIELDS, "--yes", "--lang", "en"], { key });
    expect(b.code).toBe(0);
    const final = parseCsv(readFileSync(out, "utf8").replace(/^\ufeff/, ""), ";").slice(1);
    expect(final.filter((r) => r[3] === "matched").length).toBe(700);
    // Profiles: each company bought once over both runs; names already resolved were not resolved again.
    const spentB = 10_000 - emu.balance(key);
    expect(spentA + spentB).toBeLessThanOrEqual(70 + 2 + 700);
    const usage = emu.ledger(key) as unknown as { byEndpoint?: Record<string, { credits: number; requests: number }> };
    if (usage.byEndpoint?.profile) expect(usage.byEndpoint.profile.requests).toBe(700);
  }, 120_000); // two or three runs of the CLI at the default ceiling of 32 in flight; minutes on a loaded machine

  it("searches and shows the account", async () => {
    const key = emu.createKey(50);
    const s = await run(["search", "GmbH", "--size", "5", "--lang", "en"], { key });
    expect(s.code).toBe(0);
    const lines = s.stdout.trim().split("\n");
    expect(lines[0]).toBe("Company ID\tName\tCity\tPostcode\tLegal form\tStatus");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[1]).toMatch(/^DE[A-Z0-9]{10}\t/);
    const a = await run(["account", "--lang", "en"], { key });
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/Credits: 49/);
  });

  it("rejects bad CSV, a missing name column, a missing key and a rejected key with their exit codes", async () => {
    const bad = join(dir, "bad.csv");
    writeFileSync(bad, 'Firma;Ort\n"SAP SE;Walldorf\n');
    const r = await run(["estimate", "enrich", "--in", bad, "--lang", "en"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/not valid CSV \(line 2/);
    const noName = join(dir, "noname.csv");
    writeFileSync(noName, "Umsatz,Notiz\n1,2\n");
    expect((await run(["estimate", "enrich", "--in", noName, "--lang", "de"])).stderr).toMatch(/Keine Spalte/);
    expect((await run(["estimate", "enrich", "--in", join(dir, "nope.csv"), "--lang", "en"])).code).toBe(3);
    const input = writeInput("k.csv", uniqueCompanies(3));
    const m = await run(["enrich", "--in", input, "--out", join(dir, "k.out.csv"), "--yes", "--lang", "en"], {
      key: null,
    });
    expect(m.code).toBe(5);
    expect(m.stderr).toMatch(/COMPANY_DATA_API_KEY/);
    const secret = "not-a-real-key-0123456789";
    const i = await run(["account", "--lang", "en"], { key: secret });
    expect(i.code).toBe(5);
    expect(i.stderr + i.stdout).not.toContain(secret);
  });
  it("gives every row a status: a row without a name is skipped and counted, so the summary adds up", async () => {
    const key = emu.createKey(5000);
    const companies = uniqueCompanies(7);
    const path = join(dir, "eight.csv");
    const lines = [
      "Firma;Ort;Notiz",
      ...companies.slice(0, 3).map((c) => `${q(c.name)};;`),
      ";Berlin;",
      ...companies.slice(3).map((c) => `${q(c.name)};;`),
    ];
    writeFileSync(path, lines.join("\n") + "\n");
    const out = join(dir, "eight.out.csv");
    const r = await run(["enrich", "--in", path, "--out", out, "--fields", FIELDS, "--yes", "--lang", "de"], { key });
    expect(r.code).toBe(0);
    const recs = parseCsv(readFileSync(out, "utf8"), ";");
    // The input's "Ort" and the matched city's "Ort" are told apart.
    expect(recs[0]).toEqual([
      "Firma",
      "Ort",
      "Notiz",
      "Status",
      "Trefferqualität",
      "Firmen-ID",
      "Firmenname (Treffer)",
      "Ort (Treffer)",
      "Firmenstatus",
      "Website",
      "Stand",
    ]);
    expect(recs.slice(1).map((x) => x[3])).toEqual([
      "gefunden",
      "gefunden",
      "gefunden",
      "übersprungen: kein Name",
      "gefunden",
      "gefunden",
      "gefunden",
      "gefunden",
    ]);
    const m =
      /Fertig: (\d+) gefunden, (\d+) zu prüfen, (\d+) nicht gefunden, (\d+) Fehler, (\d+) übersprungen \(ohne Namen\)/.exec(
        r.stderr,
      )!;
    expect(m.slice(1).map(Number)).toEqual([7, 0, 0, 0, 1]);
    // A rerun finds nothing to do, the skipped row included.
    const again = await run(["enrich", "--in", path, "--out", out, "--fields", FIELDS, "--lang", "en"], { key });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/7 matched, 0 to review, 0 not found, 0 errors, 1 skipped \(no name\)/);
  });

  it("refuses a base URL that would send the key unencrypted, or is not one, before sending anything", async () => {
    const key = emu.createKey(50);
    for (const url of [
      "http://example.com",
      "ftp://x",
      "https://user:pw@example.com",
      "https://example.com/?a=1",
      "http://127.0.0.1.example.com",
    ]) {
      const r = await run(["account", "--lang", "en"], { key, env: { COMPANY_DATA_BASE_URL: url } });
      expect(r.code, url).toBe(2);
      expect(r.stderr, url).toMatch(/^Invalid input \(COMPANY_DATA_BASE_URL\): /);
      expect(r.stderr).not.toContain(key);
    }
    const de = await run(["account", "--lang", "de"], { key, env: { COMPANY_DATA_BASE_URL: "http://example.com" } });
    expect(de.stderr).toMatch(/Ungültige Eingabe \(COMPANY_DATA_BASE_URL\): http:\/\/ nur für dieses Gerät/);
    expect(emu.balance(key)).toBe(50);
    // Loopback over http is fine (the emulator): the server's own URL, and localhost spelt in capitals.
    const ok = await run(["account", "--lang", "en"], {
      key,
      env: { COMPANY_DATA_BASE_URL: server.url.replace("127.0.0.1", "LOCALHOST") + "/" },
    });
    expect(ok.code).toBe(0);
  });

  it("a team server (COMPANY_DATA_SERVER, COMPANY_DATA_TOKEN) takes the place of the API: the token is sent there, the key nowhere", async () => {
    // The emulator speaks the same REST v2 surface a team server does: here it stands in for one.
    const token = emu.createKey(40);
    const key = emu.createKey(30);
    const ok = await run(["account", "--lang", "en"], {
      key,
      env: {
        COMPANY_DATA_BASE_URL: "https://unused.example.com",
        COMPANY_DATA_SERVER: server.url,
        COMPANY_DATA_TOKEN: token,
      },
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/40/);
    expect(ok.stdout + ok.stderr).not.toContain(token);
    const missing = await run(["account", "--lang", "de"], { key, env: { COMPANY_DATA_SERVER: server.url } });
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/COMPANY_DATA_TOKEN setzen/);
    const refused = await run(["account", "--lang", "en"], {
      key,
      env: { COMPANY_DATA_SERVER: server.url, COMPANY_DATA_TOKEN: "revoked-token-0123456789" },
    });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/refused the personal token.*COMPANY_DATA_TOKEN/);
    expect(refused.stderr).not.toContain("revoked-token-0123456789");
    const insecure = await run(["account", "--lang", "en"], {
      key,
      env: { COMPANY_DATA_SERVER: "http://team.example.com", COMPANY_DATA_TOKEN: token },
    });
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toMatch(/\(COMPANY_DATA_SERVER\)/);
    expect(emu.balance(key)).toBe(30);
  });

  it("speaks the CLI's language for a rejected key, the interruption and CSV errors", async () => {
    const r = await run(["account", "--lang", "en"], { key: "not-a-real-key-0123456789" });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/check COMPANY_DATA_API_KEY/);
    expect(r.stderr).not.toMatch(/Settings/);
    const d = await run(["account", "--lang", "de"], { key: "not-a-real-key-0123456789" });
    expect(d.stderr).toMatch(/COMPANY_DATA_API_KEY prüfen/);
    expect(d.stderr).not.toMatch(/Einstellungen/);
    const bad = join(dir, "bad-de.csv");
    writeFileSync(bad, 'Firma;Ort\nA;B\n"SAP SE;Walldorf\n');
    const c = await run(["estimate", "enrich", "--in", bad, "--lang", "de"]);
    expect(c.code).toBe(3);
    expect(c.stderr).toMatch(/ist kein gültiges CSV \(Zeile 3: ein Feld in Anführungszeichen wird nicht geschlossen\)/);
  });

  it("Ctrl-C waits for the answers in flight: the resume pays nothing extra and its summary counts what both runs were charged", async () => {
    // Its own emulator with latency, so that a run is still sending when the signal comes.
    const slow = createEmulator({
      companies: 3000,
      seed: 11,
      rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
      faults: { latencyMs: 120 },
    });
    const slowServer = await startServer(slow, { port: 0, host: "127.0.0.1" });
    try {
      const input = writeInput("sigint.csv", uniqueCompanies(400));
      const args = (out: string) => [
        "enrich",
        "--in",
        input,
        "--out",
        out,
        "--fields",
        FIELDS,
        "--yes",
        "--lang",
        "en",
      ];
      const env = { COMPANY_DATA_BASE_URL: slowServer.url, COMPANY_DATA_PARALLEL: "16" };
      const credited = (text: string) => num(nth(/Done: .*; ([\d,]+) credits? spent/.exec(text)!, 1));

      const refKey = slow.createKey(100_000);
      const ref = await run(args(join(dir, "sigint.ref.csv")), { key: refKey, env });
      expect(ref.code).toBe(0);
      const refSpent = 100_000 - slow.balance(refKey);
      expect(refSpent).toBe(40 + 400);
      expect(credited(ref.stderr)).toBe(refSpent);

      const key = slow.createKey(100_000);
      const out = join(dir, "sigint.out.csv");
      const journal = out + ".journal.jsonl";
      let signalled = false;
      const first = await run(args(out), {
        key,
        env,
        onStart: (_kill, child) => {
          // Interrupt once some profiles have come back (others are then in flight).
          const poll = setInterval(() => {
            const profiles = existsSync(journal)
              ? (readFileSync(journal, "utf8").match(/GET [^ ]*\/v2\/companies\/DE/g) ?? []).length
              : 0;
            if (profiles >= 40) {
              clearInterval(poll);
              signalled = child.kill("SIGINT");
            }
          }, 10);
          child.on("exit", () => clearInterval(poll));
        },
      });
      expect(signalled).toBe(true);
      expect(first.code).toBe(130);
      expect(first.stderr).toMatch(/Interrupted\. Run the same command again to resume\./);
      expect(existsSync(out)).toBe(false);
      const spentFirst = 100_000 - slow.balance(key);
      expect(spentFirst).toBeGreaterThan(0);
      expect(spentFirst).toBeLessThan(refSpent);

      const second = await run(args(out), { key, env });
      expect(second.code).toBe(0);
      expect(second.stderr).toMatch(/Resuming after row 0/);
      expect(readFileSync(out, "utf8")).toBe(readFileSync(join(dir, "sigint.ref.csv"), "utf8"));
      const total = 100_000 - slow.balance(key);
      // Every answer paid for before and during the interruption was kept: not one credit more than a plain run.
      expect(total - refSpent).toBe(0);
      // The summary counts what the service charged across both runs, not only this run's part.
      expect(credited(second.stderr)).toBe(total);
      expect(readdirSync(dir).filter((f) => f.startsWith("sigint.out.csv."))).toEqual([]);
    } finally {
      await slowServer.close();
    }
  }, 60_000);
});
