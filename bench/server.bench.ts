/**
 * The team server (issue 23): (1) two users enrich lists sharing 40 % of
 * their companies through one server: team credits against the credits of
 * enriching the union of both lists once, directly (the minimum; target
 * 1.00); (2) a cached answer through the server against the same request
 * straight to the emulator, p50 of each and the difference (target within
 * 5 ms). Both in this run, against one emulator on loopback (no added
 * latency, so the overhead is the server's own), the server on PGlite.
 */
import { runAsync, type AsyncDriver } from "../shared/core/drivers.ts";
import { enrichRows } from "../test/support/enrich-rows.ts";
import { DEFAULT_FIELDS } from "../shared/enrich/fields.ts";
import { nodeDriver } from "../node/driver.ts";
import { cliContext } from "../test/support/cli-context.ts";
import { uniqueCompanies } from "../test/support/lists.ts";
import { pgliteDatabase, startEmulatorWorld, startInProcess } from "../test/support/team-server.ts";
import { median, r2, ratio, type Figure } from "./lib.ts";

const SAMPLES = 300;

async function p50(url: string, token: string, path: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    const res = await fetch(url + path, { headers: { Authorization: `Bearer ${token}` } });
    await res.text();
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    times.push(performance.now() - t);
  }
  return median(times);
}

export async function runServerBench(log: (s: string) => void): Promise<Figure[]> {
  const world = await startEmulatorWorld({ companies: 5000, seed: 21 });
  const database = pgliteDatabase();
  const srv = await startInProcess(world, database);
  try {
    const companies = uniqueCompanies(world.emu, 320, 9);
    const listA = companies.slice(0, 200);
    const listB = companies.slice(120, 320); // 80 of each user's 200 companies are in the other's list: 40 %
    const enrich = (base: string, token: string, list: typeof companies) =>
      runAsync(
        enrichRows(cliContext(base, token), "bench", {
          rows: list.map((c) => [c.name]),
          mapping: { name: 0 },
          fields: [...DEFAULT_FIELDS],
        }),
        nodeDriver() as AsyncDriver,
      );
    const before = world.emu.balance(world.key);
    const [ta, tb] = [await srv.token("anna"), await srv.token("ben")];
    log("server: two users enriching overlapping lists …");
    await Promise.all([enrich(srv.url, ta, listA), enrich(srv.url, tb, listB)]);
    const team = before - world.emu.balance(world.key);
    // The minimum: the union enriched once, directly, with a key of its own.
    const union = [...new Map([...listA, ...listB].map((c) => [c.id, c])).values()];
    const direct = world.emu.accounts.create(1_000_000);
    await enrich(world.api.url, direct, union);
    const minimum = 1_000_000 - world.emu.balance(direct);

    log("server: cached answer through the server vs direct …");
    const id = companies[0]!.id;
    const path = `/v2/companies/${id}`;
    await p50(srv.url, ta, path); // warm both paths (the first is a purchase)
    await p50(world.api.url, direct, path);
    const viaServer = await p50(srv.url, ta, path);
    const straight = await p50(world.api.url, direct, path);
    return [
      {
        group: "server",
        figure: `team credits, two users enriching ${listA.length} + ${listB.length} rows (${union.length} companies) vs the union enriched once`,
        value: team,
        unit: "credits",
        baseline: minimum,
        ratio: ratio(team, minimum),
        target: "1.00",
        pass: team === minimum,
      },
      {
        group: "server",
        figure: `cached answer through the server vs direct to the emulator, p50 of ${SAMPLES}`,
        value: r2(viaServer),
        unit: "ms",
        baseline: r2(straight),
        ratio: ratio(viaServer, straight),
        target: "within 5 ms",
        pass: viaServer - straight <= 5,
        note: `overhead ${r2(viaServer - straight)} ms`,
      },
    ];
  } finally {
    await srv.close();
    await world.api.close();
    await database.drop();
  }
}
