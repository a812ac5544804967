/**
 * Fault soak (issue 8, reliability 1), on the path a CLI user runs (issue
 * 29): 10,000 rows through `company-data enrich --yes` (the CLI's own entry,
 * cli/enrich.ts enrichCommand, in this process: test/support/cli-enrich.ts)
 * over real HTTP on loopback, while the emulator's server answers 10 % of
 * calls with 500/503, sends recurring bursts of 429 with Retry-After: 2,
 * drops 2 % of connections and adds random latency, and a proxy between them
 * loses 1 % of answers after the emulator charged for them. Every row ends
 * correct, none is duplicated or lost, and the only extra credits are those
 * charged for answers that were lost, counted one by one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { startServer } from "../../emulator/server.ts";
import { benchList } from "../support/lists.ts";
import { cliEnrich, type CliEnrichOptions, type CliEnrichRun } from "../support/cli-enrich.ts";
import { losingProxy } from "../support/losing-proxy.ts";

/** Runs of the same command a user may need after the first: rows that ended "error" after every retry are redone by a rerun. */
const MAX_RERUNS = 2;

describe("fault soak: 10,000 rows through the CLI", () => {
  const dir = mkdtempSync(join(tmpdir(), "soak-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("every row correct, none duplicated or lost, extra credits only for lost answers", async () => {
    const emu = createEmulator({ startDate: "2026-06-01", seed: 42 });
    const list = benchList(emu, { total: 10_000, distinct: 2_000, duplicates: 1_000, unknown: 200, seed: 3 });
    expect(list.rows).toHaveLength(10_000);
    const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
    const proxy = await losingProxy(server.url, 0.01);
    try {
      const file = { dir, header: ["Firma"], rows: list.rows.map((r) => [r.name]) };

      // Reference: the same command without faults, straight to the emulator.
      const refKey = emu.createKey(1_000_000);
      const reference = await cliEnrich({ ...file, baseUrl: server.url, key: refKey, name: "reference" });
      expect(reference.code, reference.lines.join("\n")).toBe(0);
      const refCredits = 1_000_000 - emu.balance(refKey);

      // The soak, through the proxy.
      const key = emu.createKey(1_000_000);
      emu.faults.set({
        failRate: 0.1,
        dropRate: 0.02,
        latencyMs: 5,
        jitterMs: 100,
        burstEvery: 400,
        burstLength: 5,
        burstRetryAfterSeconds: 2,
      });
      let spent = 0;
      const soak: CliEnrichOptions = {
        ...file,
        baseUrl: proxy.url,
        key,
        name: "soak",
        client: { onSpend: (_e, c) => void (spent += c) },
      };
      // 5xx and dropped connections are retried with backoff, and a 429 that says when to come back is waited
      // out without using up attempts; a row whose five attempts all failed is redone by running the command again.
      let run: CliEnrichRun = await cliEnrich(soak);
      let reruns = 0;
      while (run.code === 0 && run.results.some((r) => r?.outcome === "error") && reruns < MAX_RERUNS) {
        reruns++;
        run = await cliEnrich(soak);
      }
      emu.faults.reset();
      expect(run.code, run.lines.join("\n")).toBe(0);
      expect(run.results.filter((r) => r?.outcome === "error")).toEqual([]);

      // Faults really happened.
      const statuses = new Map<number, number>();
      for (const x of proxy.log) statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
      expect((statuses.get(500) ?? 0) + (statuses.get(503) ?? 0)).toBeGreaterThan(20);
      expect(statuses.get(429)).toBeGreaterThan(10);
      expect(proxy.log.filter((x) => x.lost && x.status === 0).length).toBeGreaterThan(5);
      expect(proxy.log.filter((x) => x.lost && x.charged > 0).length).toBeGreaterThan(0);

      // Every row correct, in its place; none lost, none twice: the output file equals the fault-free run's.
      expect(run.output).toHaveLength(list.rows.length);
      const wrong: string[] = [];
      list.rows.forEach((row, i) => {
        const r = run.results[i];
        const ok =
          row.expectId === null ? r?.outcome === "not_found" : r?.outcome === "matched" && r.id === row.expectId;
        if (!ok || run.output[i]?.[0] !== row.name) wrong.push(`${i} ${row.name}: ${r?.outcome} ${r?.id}`);
      });
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(run.output.map((r) => JSON.stringify(r))).toEqual(reference.output.map((r) => JSON.stringify(r)));

      // Credits: the reference's, plus exactly what lost answers were charged (then bought again).
      const credits = 1_000_000 - emu.balance(key);
      const lost = proxy.log.filter((x) => x.lost).reduce((s, x) => s + x.charged, 0);
      expect(credits).toBe(refCredits + lost);
      // What the client counted is what arrived: the charge minus the lost answers.
      expect(spent).toBe(credits - lost);
      // Nothing answered was bought twice.
      const profiles = new Map<string, number>();
      for (const x of proxy.log)
        if (!x.lost && x.status === 200 && /^\/v2\/companies\/[^/?]+(\?|$)/.test(x.path) && !x.path.includes("/batch"))
          profiles.set(x.path, (profiles.get(x.path) ?? 0) + 1);
      expect([...profiles].filter(([, n]) => n > 1)).toEqual([]);
      console.info(
        `soak: ${proxy.log.length} requests, ${reruns} rerun(s), ${credits} credits (${lost} for lost answers), ${Math.round(run.ms / 1000)} s last run`,
      );
    } finally {
      emu.faults.reset();
      await proxy.close();
      await server.close();
    }
  }, 600_000);
});
