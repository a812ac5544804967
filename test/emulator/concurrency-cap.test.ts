import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { parseArgs } from "../../emulator/cli.ts";
import { nodeDriver } from "../../node/driver.ts";
import { runAsync } from "../../shared/core/drivers.ts";
import { getProfiles } from "../../shared/operations/company.ts";
import { cliContext } from "../support/cli-context.ts";
import { makeEmulator } from "./helpers.ts";

const CAP = 5;
const emu = makeEmulator({ companies: 500, faults: { latencyMs: 40 } });
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(emu, { port: 0, maxConcurrentPerKey: CAP });
});
afterAll(() => server.close());

describe("emulator: concurrent requests per key capped", () => {
  it("answers 429 beyond the cap, per key, without charging, and frees a slot with each answer", async () => {
    const other = emu.createKey(100);
    const get = (key: string) =>
      fetch(`${server.url}/v2/companies/${emu.companies.ids()[0]}`, { headers: { Authorization: `Bearer ${key}` } });
    const before = emu.balance(emu.demoKey);
    // A long answer, so that all of them are in flight together even on a loaded machine.
    emu.faults.set({ latencyMs: 2000 });
    const answers = await Promise.all([...Array.from({ length: CAP + 3 }, () => get(emu.demoKey)), get(other)]);
    const statuses = answers.map((r) => r.status);
    expect(statuses.slice(0, CAP + 3).filter((s) => s === 200)).toHaveLength(CAP);
    expect(statuses.slice(0, CAP + 3).filter((s) => s === 429)).toHaveLength(3);
    expect(statuses[CAP + 3]).toBe(200); // another key has its own slots
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get("retry-after")).toBeNull();
    expect((await refused.json()).error.code).toBe("RATE_LIMITED");
    emu.faults.set({ latencyMs: 40 });
    expect(before - emu.balance(emu.demoKey)).toBe(CAP);
    expect((await get(emu.demoKey)).status).toBe(200); // slots are free again
  });

  it("the Node driver's limiter finds the cap: every profile answered, few 429s", async () => {
    const key = emu.createKey(10_000);
    const driver = nodeDriver({ parallel: 64 });
    const ids = emu.companies.ids().slice(0, 200);
    const ctx = cliContext(server.url, key);
    const got = await runAsync(getProfiles(ctx, ids), driver);
    expect([...got.values()].filter((v) => !(v instanceof Error))).toHaveLength(200);
    expect(driver.limiter.stats.congestions / 200).toBeLessThan(0.1);
    expect(driver.limiter.limit).toBeLessThanOrEqual(CAP + 2);
  });

  it("has a flag", () => {
    const o = parseArgs(["--max-concurrent", "7"]);
    expect(o !== "help" && o.maxConcurrentPerKey).toBe(7);
    expect(() => parseArgs(["--max-concurrent", "0"])).toThrow();
  });
});
