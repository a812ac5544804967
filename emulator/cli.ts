/**
 * `npm run emulator -- --port N [--companies N] [--seed N] [--latency MS] …`
 * Starts the emulator and prints the URL, the demo key and how to point the
 * add-ons and the CLI at it. Flags are listed in emulator/README.md.
 */
import { createEmulator, type EmulatorOptions } from "./index.ts";
import { startServer } from "./server.ts";
import type { BucketName } from "./ratelimit.ts";
import { processLanguage, type Language } from "../shared/i18n/index.ts";
import { bannerText, EMULATOR_TEXTS as T, FlagError, helpText } from "./cli-text.ts";

export interface CliOptions {
  port: number;
  host: string;
  emulator: EmulatorOptions;
  maxConcurrentPerKey?: number;
  /** --lang: the language of the command's messages (else the locale's, shared/i18n/locale.ts). */
  lang?: Language;
}

/** The help in English (the flags' reference; `helpText(lang)` says it in the user's language). */
export const HELP = helpText("en");

type Faults = NonNullable<EmulatorOptions["faults"]>;
/** The fault flags: which fault each sets, read as a number, a share 0..1 or a whole number, and its least value. */
const FAULT_FLAGS: Record<string, [keyof Faults, "number" | "share" | "int", number]> = {
  "--latency": ["latencyMs", "number", 0],
  "--jitter": ["jitterMs", "number", 0],
  "--fail-rate": ["failRate", "share", 0],
  "--drop-rate": ["dropRate", "share", 0],
  "--credits-run-out": ["creditsRunOutAfter", "number", 0],
  "--rate-limit-burst": ["rateLimitBurst", "int", 0],
  "--burst-every": ["burstEvery", "int", 1],
  "--burst-length": ["burstLength", "int", 1],
  "--burst-retry-after": ["burstRetryAfterSeconds", "int", 0],
};

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
      if (v === undefined) throw new FlagError(T.needsValue(name));
      return v;
    };
    const num = (min = 0) => {
      const v = value();
      const n = Number(v);
      if (!Number.isFinite(n) || n < min) throw new FlagError(T.notNumber(name, min, v));
      return n;
    };
    const int = (min = 0) => {
      const n = num(min);
      if (!Number.isInteger(n)) throw new FlagError(T.notWhole(name, n));
      return n;
    };
    const fault = FAULT_FLAGS[name];
    if (fault) {
      const [key, read, min] = fault;
      faults[key] = read === "int" ? int(min) : read === "share" ? Math.min(1, num(min)) : num(min);
      continue;
    }
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
      case "--lang": {
        const v = value();
        if (v !== "de" && v !== "en") throw new FlagError(T.badLang(v));
        o.lang = v;
        break;
      }
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
        throw new FlagError(T.unknown(flag));
    }
  }
  if (Object.keys(faults).length) o.emulator.faults = faults;
  if (Object.keys(limits).length) o.emulator.rateLimits = limits;
  return o;
}

/** What to tell a newcomer once the server runs (./cli-text.ts). */
export const banner = (url: string, demoKey: string, companies: number, today: string, lang: Language = "en") =>
  bannerText(url, demoKey, companies, today, lang);

/**
 * Parse the flags and start the emulator (`npm run emulator`, `company-data emulator`);
 * answers the exit code once it listens (the server then keeps the process alive) or at once for --help and bad flags.
 */
export async function runEmulator(
  argv: string[],
  env: Record<string, string | undefined>,
  messageLang?: Language,
): Promise<number> {
  let lang = messageLang ?? processLanguage({ env, platform: process.platform });
  let parsed: CliOptions | "help";
  try {
    parsed = parseArgs(argv, env);
  } catch (e) {
    console.error(e instanceof FlagError ? e.text[lang] : String((e as Error).message));
    console.error(helpText(lang));
    return 2;
  }
  if (parsed === "help") {
    console.log(helpText(lang));
    return 0;
  }
  lang = parsed.lang ?? lang;
  const t0 = performance.now();
  const emu = createEmulator(parsed.emulator);
  const server = await startServer(emu, {
    port: parsed.port,
    host: parsed.host,
    maxConcurrentPerKey: parsed.maxConcurrentPerKey,
  });
  console.log(banner(server.url, emu.demoKey, emu.companies.count, emu.clock.today(), lang));
  console.log(T.ready(Math.round(performance.now() - t0))[lang]);
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
