/**
 * `company-data monitor` spawned as users run it, against the emulator on
 * 127.0.0.1 with its clock and a scheduled insolvency, and a webhook
 * receiver on 127.0.0.1: the price first, the change log appended without
 * repeats, watermarks beside the output so that a run with nothing new costs
 * only free calls, and the digest posted once — retried after a refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Emulator } from "../../emulator/index.ts";
import type { RunningServer } from "../../emulator/server.ts";
import { parseCsv } from "../../cli/csv.ts";
import { runCli, startCliWorld } from "../helpers/cli.ts";
import { CLI_WINDOW_ROWS } from "../../cli/monitor.ts";
import { nth } from "../helpers/indexed.ts";

let emu: Emulator;
let server: RunningServer;
let dir: string;
let hook: Server;
let hookUrl: string;
const posted: { body: string; headers: Record<string, unknown> }[] = [];
let hookStatus = 200;

beforeAll(async () => {
  ({ emu, server, dir } = await startCliWorld({ companies: 3000, seed: 11, dirPrefix: "cd-monitor-" }));
  hook = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      posted.push({ body, headers: { ...req.headers } });
      res.writeHead(hookStatus).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
  hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hooks/secret-token`;
});
afterAll(async () => {
  await server?.close();
  hook?.close();
});

const run = (args: string[], key: string) => runCli({ server, dir }, [...args, "--lang", "en"], { key });

describe("company-data monitor", () => {
  it("prices first, logs the day-2 insolvency once, alerts it once (after a refused delivery), and a run with nothing new costs only free calls", async () => {
    const key = emu.createKey(10_000);
    const ids = emu.companies.ids().slice(0, 8);
    const target = nth(ids, 2);
    emu.scheduleEvent(target, { day: emu.clock.day() + 2, kind: "INSOLVENCY" });
    const named = emu.world.companies.find(
      (c) => !ids.includes(c.id) && emu.companies.findByName(c.name).length === 1,
    )!;
    const input = join(dir, "portfolio.csv");
    writeFileSync(input, ["ID;Firma", ...ids.map((id) => `${id};`), `;"${named.name}"`].join("\r\n") + "\r\n");
    const out = join(dir, "result.csv");
    const changes = join(dir, "changes.csv");
    const common = ["--in", input, "--out", out, "--changes", changes];

    // The price first: free calls only, nothing written.
    const est = await run(["estimate", "monitor", ...common], key);
    expect(est.code).toBe(0);
    const price = Number(est.stdout.trim());
    expect(price).toBeGreaterThan(0);
    expect(emu.balance(key)).toBe(10_000);
    expect(existsSync(out + ".monitor.jsonl")).toBe(false);
    // Without --yes and without a terminal nothing is spent.
    const unconfirmed = await run(["monitor", ...common], key);
    expect(unconfirmed.code).toBe(7);
    expect(emu.balance(key)).toBe(10_000);

    const first = await run(["monitor", ...common, "--notify", hookUrl, "--yes"], key);
    expect(first.code, first.stderr).toBe(0);
    expect(10_000 - emu.balance(key)).toBe(price);
    expect(first.stderr).toMatch(/No news to alert/);
    expect(posted).toHaveLength(0);
    const result = parseCsv(readFileSync(out, "utf8"));
    expect(result).toHaveLength(ids.length + 2);
    expect(nth(result, 0).some((h) => h.startsWith("Risk"))).toBe(true);
    // The name row got its id.
    expect(result.at(-1)![0]).toBe(named.id);
    expect(parseCsv(readFileSync(changes, "utf8"))).toEqual([
      ["Date", "Company ID", "Company", "Kind", "Text", "Source", "Key"],
    ]);
    expect(existsSync(out + ".monitor.jsonl")).toBe(true);

    // Day 2: the insolvency. The receiver refuses: the run still succeeds at its work, exit 6, the news waits.
    emu.clock.advance(2);
    hookStatus = 500;
    const second = await run(["monitor", ...common, "--notify", hookUrl, "--yes"], key);
    expect(second.code, second.stderr).toBe(6);
    expect(second.stderr).toMatch(/Alert NOT delivered \(The webhook refused the message \(HTTP 500\)\.\)/);
    expect(second.stderr).not.toContain("secret-token");
    expect(posted).toHaveLength(1);
    const riskCol = (rows: string[][]) => nth(rows, 0).findIndex((h) => h.startsWith("Risk"));
    const rows2 = parseCsv(readFileSync(out, "utf8"));
    expect(rows2.find((r) => r[0] === target)![riskCol(rows2)]).toBe("Risk");
    const log = readFileSync(changes, "utf8");
    const insolvency = parseCsv(log).filter((r) => r[1] === target && /insolv/i.test(nth(r, 3) + nth(r, 4)));
    expect(insolvency).toHaveLength(1);

    // The next run, same day: nothing new (free calls only), the waiting digest goes out.
    hookStatus = 200;
    const balance = emu.balance(key);
    const third = await run(["monitor", ...common, "--notify", hookUrl, "--yes"], key);
    expect(third.code, third.stderr).toBe(0);
    expect(emu.balance(key)).toBe(balance);
    expect(readFileSync(changes, "utf8")).toBe(log);
    expect(posted).toHaveLength(2);
    const digest = JSON.parse(nth(posted, 1).body);
    expect(digest).toMatchObject({ source: "company-data", language: "en" });
    const t = digest.companies.find((c: { id: string }) => c.id === target);
    expect(t).toMatchObject({ to: "risk", toLabel: "Risk" });
    expect(t.from).not.toBe("risk");
    expect(t.changes.length).toBeGreaterThan(0);
    expect(JSON.stringify(nth(posted, 1).headers)).not.toContain(key);

    // Later: the insolvency is never alerted again.
    emu.clock.advance(1);
    const fourth = await run(["monitor", ...common, "--notify", hookUrl, "--yes"], key);
    expect(fourth.code, fourth.stderr).toBe(0);
    const later = posted.slice(2).map((p) => JSON.parse(p.body) as { companies: { id: string }[] });
    expect(later.every((d) => !d.companies.some((c) => c.id === target))).toBe(true);
    expect(
      parseCsv(readFileSync(changes, "utf8")).filter((r) => r[1] === target && /insolv/i.test(nth(r, 3) + nth(r, 4))),
    ).toHaveLength(1);
  }, 120_000);

  it("a run interrupted after its first window resumes: nothing paid twice, every row answered, the log single", async () => {
    const key = emu.createKey(100_000);
    // Three windows (CLI_WINDOW_ROWS); availability is paced to the service's 5 a second, so not more.
    const ids = emu.companies.ids().slice(100, 100 + 3 * CLI_WINDOW_ROWS);
    const input = join(dir, "big.csv");
    writeFileSync(input, ["Company ID", ...ids].join("\n") + "\n");
    const out = join(dir, "big-result.csv");
    const common = ["--in", input, "--out", out, "--changes", join(dir, "big-changes.csv")];
    const price = Number((await run(["estimate", "monitor", ...common], key)).stdout.trim());
    expect(price).toBeGreaterThanOrEqual(ids.length);

    // Slow answers, and Ctrl-C as soon as the first window's watermarks are saved.
    emu.faults.set({ latencyMs: 100 });
    let interrupted = false;
    const first = await runCli({ server, dir }, ["monitor", ...common, "--yes", "--lang", "en"], {
      key,
      onStart: (_kill, child) => {
        const timer = setInterval(() => {
          if (existsSync(out + ".monitor.jsonl") && readFileSync(out + ".monitor.jsonl", "utf8").includes(":c:")) {
            clearInterval(timer);
            interrupted = child.kill("SIGINT");
          }
        }, 10);
        child.on("close", () => clearInterval(timer));
      },
    });
    emu.faults.reset();
    expect(interrupted).toBe(true);
    expect(first.code).toBe(130);
    expect(existsSync(out)).toBe(false);
    expect(100_000 - emu.balance(key)).toBeLessThan(price);

    const second = await run(["monitor", ...common, "--yes"], key);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/An earlier run was interrupted/);
    // Answers paid before the interruption were kept (watermarks) or replayed (journal): never bought twice.
    expect(100_000 - emu.balance(key)).toBe(price);
    const rows = parseCsv(readFileSync(out, "utf8"));
    const risk = nth(rows, 0).findIndex((h) => h.startsWith("Risk"));
    expect(rows).toHaveLength(ids.length + 1);
    expect(rows.slice(1).every((r) => ["Risk", "Watch", "No flags"].includes(nth(r, risk)))).toBe(true);
    expect(existsSync(out + ".monitor.journal.jsonl") ? readFileSync(out + ".monitor.journal.jsonl", "utf8") : "").toBe(
      "",
    );
  }, 300_000); // four passes of paced availability calls

  it("refuses a webhook address that is not https before anything is spent, without repeating it", async () => {
    const key = emu.createKey(100);
    const input = join(dir, "p2.csv");
    writeFileSync(input, `ID\r\n${emu.companies.ids()[0]}\r\n`);
    const r = await run(
      [
        "monitor",
        "--in",
        input,
        "--out",
        join(dir, "r2.csv"),
        "--changes",
        join(dir, "c2.csv"),
        "--notify",
        "http://hooks.example.com/x-token",
        "--yes",
      ],
      key,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/webhook address/);
    expect(r.stderr).not.toContain("x-token");
    expect(emu.balance(key)).toBe(100);
  });
});
