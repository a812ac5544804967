/**
 * `company-data refresh` spawned as cron runs it, against the emulator on
 * 127.0.0.1: the price first (nothing spent without --yes), the list enriched
 * on day 0; the emulator moves a company's address on day 5; with the list's
 * as-of dates 8 days old, a refresh with --older-than 7 shows old → new for
 * that company only and logs one line; the same run again spends nothing;
 * the monthly ceiling stops a run exactly at it (counted from the balance).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/index.ts";
import type { RunningServer } from "../../emulator/server.ts";
import { formatRow, parseCsv } from "../../cli/csv.ts";
import { runCli, startCliWorld } from "../helpers/cli.ts";

let emu: Emulator;
let server: RunningServer;
let dir: string;

beforeAll(async () => {
  ({ emu, server, dir } = await startCliWorld({ companies: 3000, seed: 11, dirPrefix: "cd-refresh-" }));
});
afterAll(async () => {
  await server?.close();
});

const run = (args: string[], key: string) => runCli({ server, dir }, [...args, "--lang", "en"], { key });

/** The list as it would be `days` later: every as-of date moved back. */
function age(path: string, days: number): void {
  const rows = parseCsv(readFileSync(path, "utf8"));
  const col = rows[0]?.indexOf("As of") ?? -1;
  const back = (d: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(d) ? new Date(Date.parse(d) - days * 86_400_000).toISOString().slice(0, 10) : d;
  writeFileSync(
    path,
    rows.map((r, i) => formatRow(i === 0 ? r : r.map((c, j) => (j === col ? back(c) : c)), ",")).join(""),
  );
}

describe("company-data refresh", () => {
  it("prices first, refreshes rows older than N days, old → new for the changed company only, one log line, nothing twice", async () => {
    const key = emu.createKey(10_000);
    const ids = emu.companies.withStatus("ACTIVE").slice(0, 6);
    const target = ids[1] ?? "";
    const list = join(dir, "list.csv");
    writeFileSync(list, ["ID,Company", ...ids.map((id) => `${id},`)].join("\r\n") + "\r\n");
    const log = join(dir, "refresh-log.csv");
    const common = [
      "--in",
      list,
      "--out",
      list,
      "--older-than",
      "7",
      "--month-ceiling",
      "100",
      "--changes",
      log,
      "--fields",
      "name,city,address",
    ];

    const est = await run(["estimate", "refresh", ...common], key);
    expect(est.code, est.stderr).toBe(0);
    expect(Number(est.stdout.trim())).toBe(6);
    expect(est.stderr).toMatch(/Next run: at most 6 credits/);
    const unconfirmed = await run(["refresh", ...common], key);
    expect(unconfirmed.code).toBe(7);
    expect(emu.balance(key)).toBe(10_000);

    // Day 0: the list is enriched (every row is new).
    const day0 = await run(["refresh", ...common, "--yes"], key);
    expect(day0.code, day0.stderr).toBe(0);
    expect(10_000 - emu.balance(key)).toBe(6);
    const header = parseCsv(readFileSync(list, "utf8"))[0] ?? [];
    expect(header.slice(-2)).toEqual(["As of", "Changes"]);
    expect(existsSync(list + ".refresh.jsonl")).toBe(true);

    // Day 5: the address moves; day 8: the list's rows are 8 days old.
    emu.scheduleEvent(target, { day: emu.clock.day() + 5, kind: "ADDRESS" });
    emu.clock.advance(8);
    age(list, 8);
    const day8 = await run(["refresh", ...common, "--yes"], key);
    expect(day8.code, day8.stderr).toBe(0);
    expect(10_000 - emu.balance(key)).toBe(12);
    const rows = parseCsv(readFileSync(list, "utf8"));
    const changes = rows[0]?.indexOf("Changes") ?? -1;
    const changed = rows.slice(1).filter((r) => (r[changes] ?? "") !== "");
    expect(changed.map((r) => r[0])).toEqual([target]);
    expect(changed[0]?.[changes]).toMatch(/^Address: .+ → .+$/);
    const lines = parseCsv(readFileSync(log, "utf8"));
    expect(lines[0]).toEqual(["Date", "Company ID", "Company", "Field", "Old", "New", "Key"]);
    expect(lines.slice(1).map((r) => [r[1], r[3]])).toEqual([[target, "Address"]]);

    // Again the same day: nothing due, nothing spent, nothing logged twice.
    const again = await run(["refresh", ...common, "--yes"], key);
    expect(again.code, again.stderr).toBe(0);
    expect(10_000 - emu.balance(key)).toBe(12);
    expect(parseCsv(readFileSync(log, "utf8"))).toHaveLength(2);
  });

  it("the monthly ceiling stops the run exactly at it; the next run that month spends nothing", async () => {
    const key = emu.createKey(10_000);
    const ids = emu.companies.withStatus("ACTIVE").slice(10, 20);
    const list = join(dir, "ceiling.csv");
    writeFileSync(list, ["ID", ...ids].join("\n") + "\n");
    const common = ["--in", list, "--out", list, "--older-than", "7", "--month-ceiling", "4", "--fields", "name"];
    const first = await run(["refresh", ...common, "--yes"], key);
    expect(first.code, first.stderr).toBe(0);
    expect(10_000 - emu.balance(key)).toBe(4);
    expect(first.stderr).toMatch(/Monthly ceiling reached: 6 rows due wait/);
    const second = await run(["refresh", ...common, "--yes"], key);
    expect(second.code, second.stderr).toBe(0);
    expect(10_000 - emu.balance(key)).toBe(4);
    const bad = await run(["refresh", "--in", list, "--out", list, "--older-than", "0", "--month-ceiling", "4"], key);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Invalid value for --older-than: 0/);
  });
});
