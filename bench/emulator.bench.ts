/**
 * Emulator benchmark (issue 3): start-up with the default data set, and search
 * and batch-resolve latency at 200,000 companies over loopback HTTP. Each
 * figure comes with a baseline measured or fixed in the same run: the issue's
 * budget for start-up, and a trivial GET /v2/account round trip for loopback.
 * Run standalone: npx tsx bench/emulator.bench.ts
 */
import { createEmulator, DEFAULT_COMPANIES } from "../emulator/index.ts";
import { startServer } from "../emulator/server.ts";
import { Rng } from "../emulator/rng.ts";
import { itemAt } from "../test/support/item-at.ts";

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  note?: string;
}

const BIG = Number(process.env.EMULATOR_BENCH_COMPANIES ?? 200_000);
const UNLIMITED = { capacity: 1e9, refillPerSecond: 1e9 };

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return itemAt(s, Math.min(s.length - 1, Math.floor((p / 100) * s.length)), `sample for the p${p} percentile`);
}
const r2 = (x: number) => Math.round(x * 100) / 100;

export async function runEmulatorBench(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];

  let t = performance.now();
  createEmulator({ companies: DEFAULT_COMPANIES, startDate: "2026-06-01" });
  const startup = performance.now() - t;
  out.push({
    name: `emulator start-up (${DEFAULT_COMPANIES} companies)`,
    value: r2(startup),
    unit: "ms",
    baseline: 3000,
    ratio: r2(startup / 3000),
    note: "baseline = budget from issue 3",
  });

  t = performance.now();
  const emu = createEmulator({
    companies: BIG,
    startDate: "2026-06-01",
    rateLimits: { resolve: UNLIMITED, suggest: UNLIMITED, account: UNLIMITED, availability: UNLIMITED },
  });
  out.push({
    name: `emulator build (${BIG} companies)`,
    value: r2(performance.now() - t),
    unit: "ms",
    note: "informational",
  });
  const server = await startServer(emu, { port: 0 });
  const headers = {
    Authorization: `Bearer ${emu.demoKey}`,
    "Content-Type": "application/json",
    "Accept-Language": "EN",
  };
  try {
    const timed = async (n: number, fn: (k: number) => Promise<Response>) => {
      const times: number[] = [];
      for (let k = 0; k < n; k++) {
        const s = performance.now();
        const res = await fn(k);
        await res.text();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        times.push(performance.now() - s);
      }
      return times;
    };
    // Warm up the connection pool and the JIT.
    await timed(50, () => fetch(`${server.url}/v2/account`, { headers }));
    const base = await timed(300, () => fetch(`${server.url}/v2/account`, { headers }));
    const baseP50 = pct(base, 50);
    out.push({ name: "loopback GET /v2/account p50", value: r2(baseP50), unit: "ms", note: "baseline round trip" });

    const r = new Rng(7);
    const words = [
      "Software",
      "Bau München",
      "Logistik Hamburg",
      "Beratung",
      "Immobilien Berlin",
      "Elektro",
      "Gastronomie Köln",
      "Maschinenbau",
      "Müller",
      "Pflege",
      "Hotel",
      "Steuerberatung Frankfurt",
      "Digital",
      "Energie Solar",
      "Handel",
    ];
    const queries = Array.from({ length: 300 }, (_, k) => ({
      query: words[k % words.length],
      size: 10,
      ...(r.chance(0.3)
        ? { near: { place: r.pick(["München", "Berlin", "Köln", "Hamburg", "Stuttgart"]), radiusKm: 25 } }
        : {}),
      ...(r.chance(0.3) ? { filters: { size: ["SMALL", "MEDIUM"] as ("SMALL" | "MEDIUM")[] } } : {}),
    }));
    await timed(30, (k) =>
      fetch(`${server.url}/v2/search`, { method: "POST", headers, body: JSON.stringify(queries[k]) }),
    );
    const search = await timed(queries.length, (k) =>
      fetch(`${server.url}/v2/search`, { method: "POST", headers, body: JSON.stringify(queries[k]) }),
    );
    out.push({
      name: `search p50 (${BIG} companies)`,
      value: r2(pct(search, 50)),
      unit: "ms",
      baseline: r2(baseP50),
      ratio: r2(pct(search, 50) / baseP50),
      note: "budget 10 ms",
    });
    out.push({
      name: `search p95 (${BIG} companies)`,
      value: r2(pct(search, 95)),
      unit: "ms",
      baseline: r2(baseP50),
      ratio: r2(pct(search, 95) / baseP50),
    });

    // Names as a spreadsheet holds them: most exact, some lower-case, some without the legal form, some unknown.
    const companies = emu.world.companies;
    const batches = Array.from({ length: 40 }, () =>
      Array.from({ length: 100 }, () => {
        const c = itemAt(companies, r.int(0, companies.length - 1), "company");
        const p = r.next();
        const name =
          p < 0.6
            ? c.name
            : p < 0.8
              ? c.name.toLowerCase()
              : p < 0.95
                ? c.name.replace(/\s+(GmbH.*|AG|SE|KG|OHG|UG.*|e\.K\.|eG|PartG mbB)$/, "")
                : `Unbekannt ${r.int(0, 1e6)} GmbH`;
        return r.chance(0.3) ? { name, city: emu.world.summary(c, "en").city } : { name };
      }),
    );
    await timed(5, (k) =>
      fetch(`${server.url}/v2/companies/batch/resolve`, {
        method: "POST",
        headers,
        body: JSON.stringify({ companies: batches[k] }),
      }),
    );
    const batch = await timed(batches.length, (k) =>
      fetch(`${server.url}/v2/companies/batch/resolve`, {
        method: "POST",
        headers,
        body: JSON.stringify({ companies: batches[k] }),
      }),
    );
    out.push({
      name: `batch resolve 100 names p50 (${BIG} companies)`,
      value: r2(pct(batch, 50)),
      unit: "ms",
      baseline: r2(baseP50),
      ratio: r2(pct(batch, 50) / baseP50),
      note: "budget 50 ms",
    });
  } finally {
    await server.close();
  }
  return out;
}

if (process.argv[1] && /emulator\.bench\.ts$/.test(process.argv[1])) {
  runEmulatorBench().then((rows) => {
    console.table(rows);
  });
}
