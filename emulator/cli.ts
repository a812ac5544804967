/**
 * `npm run emulator -- --port N [--companies N] [--seed N] [--latency MS] …`
 * Starts the emulator and prints the URL, the demo key and how to point the
 * add-ons and the CLI at it. Flags are listed in emulator/README.md.
 */
import { createEmulator, DEFAULT_COMPANIES, DEFAULT_SEED, type EmulatorOptions } from "./index.ts";
import { startServer } from "./server.ts";
import type { BucketName } from "./ratelimit.ts";

export interface CliOptions {
  port: number;
  host: string;
  emulator: EmulatorOptions;
  maxConcurrentPerKey?: number;
}

export const HELP = `Usage: npm run emulator -- [flags]   (installed: company-data emulator [flags])
  --port N              port (default 8787, env PORT; 0 = any free port)
  --host H              interface (default 127.0.0.1)
  --companies N         synthetic companies (default ${DEFAULT_COMPANIES}; tested up to 500000)
  --seed N              data seed (default ${DEFAULT_SEED})
  --date YYYY-MM-DD     the emulator's first "today" (default: the current date)
  --demo-key KEY        fix the demo key's value
  --latency MS          added latency per API call
  --jitter MS           extra random latency 0..MS
  --fail-rate R         share 0..1 of calls answered 500/503
  --drop-rate R         share 0..1 of calls whose connection is dropped
  --rate-limit-burst N  the first N API calls answer 429
  --burst-every N       recurring 429 bursts: after every N API calls…
  --burst-length N      …the next N calls answer 429 (default 3)
  --burst-retry-after S Retry-After seconds of burst 429s (default 1)
  --credits-run-out N   paid calls answer 402 after N more credits
  --max-concurrent N    API requests one key may have in flight; more answer 429
  --drift               answer as a service that drifted from the assumptions (renamed and
                        missing fields, problem+json errors, no rate-limit headers; drift.ts)
  --suggest-rate R --suggest-burst N      suggest bucket (tokens/s, capacity)
  --resolve-rate R --resolve-burst N      resolve bucket
  --availability-rate R --availability-burst N
  --account-rate R --account-burst N`;

type Faults = NonNullable<EmulatorOptions["faults"]>;

/** A fault flag (latency, failures, drops, bursts of 429) into `faults`; false for any other flag. */
function faultFlag(
  name: string,
  faults: Faults,
  num: (min?: number) => number,
  int: (min?: number) => number,
): boolean {
  switch (name) {
    case "--latency":
      faults.latencyMs = num(0);
      return true;
    case "--jitter":
      faults.jitterMs = num(0);
      return true;
    case "--fail-rate":
      faults.failRate = Math.min(1, num(0));
      return true;
    case "--drop-rate":
      faults.dropRate = Math.min(1, num(0));
      return true;
    case "--credits-run-out":
      faults.creditsRunOutAfter = num(0);
      return true;
    case "--rate-limit-burst":
      faults.rateLimitBurst = int(0);
      return true;
    case "--burst-every":
      faults.burstEvery = int(1);
      return true;
    case "--burst-length":
      faults.burstLength = int(1);
      return true;
    case "--burst-retry-after":
      faults.burstRetryAfterSeconds = int(0);
      return true;
    default:
      return false;
  }
}

export function parseArgs(argv: string[], env: Record<string, string | undefined> = {}): CliOptions | "help" {
  const o: CliOptions = { port: env.PORT ? Number(env.PORT) : 8787, host: "127.0.0.1", emulator: {} };
  const faults: Faults = {};
  const limits: NonNullable<EmulatorOptions["rateLimits"]> = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === undefined) continue; // within argv.length: only a sparse array has holes
    if (flag === "--help" || flag === "-h") return "help";
    const [name, inline] = flag.includes("=")
      ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)]
      : [flag, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value`);
      return v;
    };
    const num = (min = 0) => {
      const v = value();
      const n = Number(v);
      if (!Number.isFinite(n) || n < min) throw new Error(`${name}: not a number >= ${min}: ${v}`);
      return n;
    };
    const int = (min = 0) => {
      const n = num(min);
      if (!Number.isInteger(n)) throw new Error(`${name}: not a whole number: ${n}`);
      return n;
    };
    const bucket = /^--(suggest|resolve|availability|account)-(rate|burst)$/.exec(name);
    if (bucket) {
      const b = bucket[1] as BucketName;
      limits[b] = { ...limits[b], ...(bucket[2] === "rate" ? { refillPerSecond: num(0.001) } : { capacity: num(1) }) };
      continue;
    }
    switch (name) {
      case "--port":
        o.port = num(0);
        break;
      case "--host":
        o.host = value();
        break;
      case "--companies":
        o.emulator.companies = Math.floor(num(0));
        break;
      case "--seed":
        o.emulator.seed = Math.floor(num(0));
        break;
      case "--date":
        o.emulator.startDate = value();
        break;
      case "--demo-key":
        o.emulator.demoKey = value();
        break;
      case "--max-concurrent":
        o.maxConcurrentPerKey = int(1);
        break;
      case "--drift":
        o.emulator.drift = true;
        break;
      default:
        if (!faultFlag(name, faults, num, int)) throw new Error(`unknown flag ${flag} (see --help)`);
    }
  }
  if (Object.keys(faults).length) o.emulator.faults = faults;
  if (Object.keys(limits).length) o.emulator.rateLimits = limits;
  return o;
}

/** What to tell a newcomer once the server runs. */
export function banner(url: string, demoKey: string, companies: number, today: string): string {
  return [
    `Company data API emulator on ${url}  (${companies} companies, today ${today})`,
    `Demo key: ${demoKey}`,
    ``,
    `Point the CLI and the add-ons at it:`,
    `  COMPANY_DATA_BASE_URL=${url} COMPANY_DATA_API_KEY=${demoKey}`,
    `Try it:`,
    `  curl -s ${url}/v2/account -H 'Authorization: Bearer ${demoKey}'`,
    `  curl -s -X POST ${url}/v2/search -H 'Authorization: Bearer ${demoKey}' -H 'Content-Type: application/json' -d '{"query":"Software München","size":5}'`,
    `Reference: ${url}/v2/docs   New key with 100 credits: curl -s -X POST ${url}/_emulator/keys`,
  ].join("\n");
}

/**
 * Parse the flags and start the emulator (`npm run emulator`, `company-data emulator`);
 * answers the exit code once it listens (the server then keeps the process alive) or at once for --help and bad flags.
 */
export async function runEmulator(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let parsed: CliOptions | "help";
  try {
    parsed = parseArgs(argv, env);
  } catch (e) {
    console.error(String((e as Error).message));
    console.error(HELP);
    return 2;
  }
  if (parsed === "help") {
    console.log(HELP);
    return 0;
  }
  const t0 = performance.now();
  const emu = createEmulator(parsed.emulator);
  const server = await startServer(emu, {
    port: parsed.port,
    host: parsed.host,
    maxConcurrentPerKey: parsed.maxConcurrentPerKey,
  });
  console.log(banner(server.url, emu.demoKey, emu.companies.count, emu.clock.today()));
  console.log(`(ready in ${Math.round(performance.now() - t0)} ms)`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return 0;
}

// Run only as the entry point, so tests can import parseArgs.
if (process.argv[1] && /emulator[\\/]cli\.ts$/.test(process.argv[1]))
  void runEmulator(process.argv.slice(2), process.env).then((code) => {
    if (code !== 0) process.exit(code);
  });
