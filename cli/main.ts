/**
 * `company-data`: the command-line host on the shared core. Configured by
 * COMPANY_DATA_API_KEY and COMPANY_DATA_BASE_URL, or COMPANY_DATA_SERVER and
 * COMPANY_DATA_TOKEN for a team server; messages go to stderr in
 * German or English, results to stdout; the key is never printed.
 * Exit codes: see EXIT in ./i18n.ts and `company-data --help`.
 */
import { missingKey } from "../shared/api/index.ts";
import { connectionFromEnv, envKeyMessage } from "../shared/api/index.ts";
import { runAsync } from "../shared/core/index.ts";
import { CompanyDataError, toCompanyDataError, type ErrorCode } from "../shared/core/index.ts";
import { processLanguage, type Language } from "../shared/i18n/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { parseMatchFloor } from "../shared/operations/index.ts";
import { getAccount } from "../shared/operations/index.ts";
import { DEFAULT_FIELDS, FIELDS, GROUP_LABEL, parseFieldList } from "../shared/enrich/index.ts";
import { hash, type Rerun } from "../shared/enrich/index.ts";
import { drainAll, nodeDriver, printable, quietOnClosedPipe, type PipeGuard } from "../node/index.ts";
import { enrichCommand, estimateCommand, type EnrichArgs } from "./enrich.ts";
import { askOnTerminal, runStatus } from "./enrich-terminal.ts";
import { ExitError, type Io } from "./io.ts";
import { parseEncoding } from "./encoding.ts";
import { EXIT, USAGE_LABEL, msg } from "./i18n.ts";
import { estimateMonitorCommand, monitorCommand, type MonitorArgs } from "./monitor.ts";
import { monitorServerCommand, type MonitorServerArgs } from "./monitor-server.ts";
import { estimateRefreshCommand, refreshCommand, type RefreshArgs } from "./refresh.ts";
import type { JobFileArgs } from "./job-files.ts";
import { groupDigits } from "../shared/credits/index.ts";
import { searchCommand, type SearchArgs } from "./search.ts";
import { parseCommandLine, type CliOptions } from "./args.ts";
import { Pacer } from "../shared/api/index.ts";
import { doctorCommand } from "./doctor.ts";
import { revertCommand, runsCommand } from "./runs.ts";

/**
 * Every option of every command, in one table (node:util parseArgs, strict):
 * a new flag is one line here. `--lang` is read before it (messages need the
 * language); `mcp` reads its own (mcp/config.ts).
 */
const OPTIONS = {
  in: { type: "string" },
  out: { type: "string" },
  fields: { type: "string" },
  mode: { type: "string" },
  rerun: { type: "string" },
  lang: { type: "string" },
  size: { type: "string" },
  parallel: { type: "string" },
  encoding: { type: "string" },
  changes: { type: "string" },
  notify: { type: "string" },
  industry: { type: "string" },
  state: { type: "string" },
  near: { type: "string" },
  radius: { type: "string" },
  "size-class": { type: "string" },
  "legal-form": { type: "string" },
  "founded-after": { type: "string" },
  "founded-before": { type: "string" },
  limit: { type: "string" },
  exclude: { type: "string" },
  "min-confidence": { type: "string" },
  "older-than": { type: "string" },
  "month-ceiling": { type: "string" },
  yes: { type: "boolean", short: "y" },
  help: { type: "boolean", short: "h" },
  "active-only": { type: "boolean" },
  append: { type: "boolean" },
  json: { type: "boolean" },
  server: { type: "boolean" },
  name: { type: "string" },
  schedule: { type: "string" },
  hour: { type: "string" },
  weekday: { type: "string" },
  budget: { type: "string" },
  email: { type: "string" },
  run: { type: "string" },
} as const satisfies CliOptions;

function parseRerun(v: string | undefined, lang: Language): Rerun {
  if (v === undefined) return "new-or-failed";
  if (v === "all" || v === "new-or-failed") return v;
  const m = /^older-than=(\d+)$/.exec(v);
  if (m) return { olderThanDays: Number(m[1]) };
  throw new ExitError(EXIT.USAGE, msg.badValue[lang]("--rerun", v));
}

/** Requests in flight at once: a whole number from 1 to 1,000 (absent: the driver's default). */
function parseParallel(v: string | undefined, lang: Language): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new ExitError(EXIT.USAGE, msg.badValue[lang]("--parallel", v));
  return n;
}

function badEncoding(v: string, lang: Language): never {
  throw new ExitError(EXIT.USAGE, msg.badValue[lang]("--encoding", v));
}

/** Seconds between progress lines when stderr is not a terminal (COMPANY_DATA_PROGRESS_SECONDS; default 5). */
function progressSeconds(v: string | undefined): number {
  const n = Number(v);
  return v !== undefined && Number.isFinite(n) && n > 0 ? n : 5;
}

function exitFor(code: ErrorCode): number {
  switch (code) {
    case "MISSING_KEY":
    case "INVALID_KEY":
      return EXIT.KEY;
    case "OUT_OF_CREDITS":
      return EXIT.OUT_OF_CREDITS;
    case "INVALID_INPUT":
      return EXIT.USAGE;
    case "INTERNAL":
      return EXIT.INTERNAL;
    default:
      return EXIT.SERVICE;
  }
}

function context(env: NodeJS.ProcessEnv, lang: Language, minConfidence?: string): OpContext {
  // The API key to the API, or a personal token to a team server (COMPANY_DATA_SERVER, COMPANY_DATA_TOKEN).
  // Either goes in a header of every request: https, or http to this machine only (the emulator, a local server).
  const { secret: apiKey, baseUrl, credential } = connectionFromEnv(env);
  if (!apiKey) throw missingKey({ credential });
  return {
    // One context per CLI run: its pacer paces every call of the run.
    client: { apiKey, baseUrl, credential, language: lang, now: Date.now, random: Math.random, pacer: new Pacer() },
    cacheTtlSeconds: 6 * 3600,
    maxBatch: 100,
    scope: hash(baseUrl),
    // Matches rated below it are reviews (shared/operations/contradiction.ts).
    matchFloor: parseMatchFloor(
      minConfidence ?? env.COMPANY_DATA_MIN_CONFIDENCE,
      minConfidence !== undefined ? "--min-confidence" : "COMPANY_DATA_MIN_CONFIDENCE",
    ),
  };
}

/** The context of a team server's connection when one is set with a token, else null (nothing needs a key then). */
function teamContext(env: NodeJS.ProcessEnv, lang: Language): OpContext | null {
  const c = connectionFromEnv(env);
  return c.mode === "server" && c.secret ? context(env, lang) : null;
}

/** Every line printed: text from the API without terminal control sequences (../node/terminal.ts). */
const printing = (g: PipeGuard) => ({ write: (text: string) => g.write(printable(text)) });
// A reader that closes the pipe early (`| head`) ends the output, not the program with a stack trace.
const stdout = printing(quietOnClosedPipe(process.stdout));
const stderr = printing(quietOnClosedPipe(process.stderr));

/** The language of messages once the arguments are read (the Ctrl-C handler speaks it too). */
let messageLang: Language = processLanguage(process);

function progressBar(stream: NodeJS.WriteStream) {
  let last = 0;
  return (done: number, total: number) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    const width = 30;
    const frac = total > 0 ? Math.min(1, done / total) : 1;
    const full = Math.round(frac * width);
    stream.write(
      `\r[${"#".repeat(full)}${".".repeat(width - full)}] ${Math.round(frac * 100)}% ${done}/${total}` +
        (done >= total ? "\n" : ""),
    );
  };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let lang: Language = processLanguage({ env, platform: process.platform });
  const langAt = argv.findIndex((a) => a === "--lang" || a.startsWith("--lang="));
  const langArg = argv[langAt];
  if (langArg !== undefined) {
    const v = langArg === "--lang" ? argv[langAt + 1] : langArg.slice("--lang=".length);
    if (v !== "de" && v !== "en") {
      stderr.write(msg.badValue[lang]("--lang", String(v)) + "\n");
      return EXIT.USAGE;
    }
    lang = v;
  }
  messageLang = lang;
  // The MCP server takes its own flags (mcp/config.ts) and keeps stdout for the protocol.
  // Loaded only for it: the other commands do not pay for the SDK's start-up.
  if (argv[0] === "mcp")
    return await (await import("../mcp/main.ts")).runMcp(argv.slice(1), env, (s) => stderr.write(s + "\n"), lang);
  // The reconciliation service (W3C Reconciliation API 0.2) takes its own flags too (reconcile/config.ts) and stops itself on Ctrl-C.
  if (argv[0] === "reconcile") {
    ownSignals = true;
    return await (
      await import("../reconcile/main.ts")
    ).runReconcile(argv.slice(1), env, (s) => stderr.write(s + "\n"), lang);
  }
  // The API emulator (emulator/cli.ts), for trying everything without an account; it stops itself on Ctrl-C.
  if (argv[0] === "emulator") {
    ownSignals = true;
    return await (await import("../emulator/cli.ts")).runEmulator(argv.slice(1), env, lang);
  }
  // The package's version and the database schema it migrates to (cli/version.ts).
  const [first] = argv.filter((a, i) => a !== "--lang" && !a.startsWith("--lang=") && argv[i - 1] !== "--lang");
  if (first === "--version" || first === "-V" || first === "version") {
    stdout.write((await import("./version.ts")).versionText() + "\n");
    return EXIT.OK;
  }
  // The team server parses its own options and handles SIGINT/SIGTERM itself (graceful shutdown).
  if (argv[0] === "server") {
    ownSignals = true;
    return await (
      await import("../server/cli.ts")
    ).runServerCli(
      argv.slice(1),
      env,
      { out: (s) => stdout.write(s + "\n"), err: (s) => stderr.write(s + "\n") },
      lang,
    );
  }
  const io: Io = {
    out: (s) => stdout.write(s + "\n"),
    err: (s) => stderr.write(s + "\n"),
    progress: process.stderr.isTTY ? progressBar(process.stderr) : undefined,
    // Not a terminal (CI, cron, a log file): a line every few seconds instead of the bar.
    progressEveryMs: process.stderr.isTTY ? undefined : progressSeconds(env.COMPANY_DATA_PROGRESS_SECONDS) * 1000,
    ask: process.stdin.isTTY && process.stderr.isTTY ? askOnTerminal() : undefined,
  };
  try {
    const { positional, flags } = parseCommandLine(argv, OPTIONS, lang);
    const [command, sub, ...rest] = positional;
    if (flags.help || !command || command === "help") {
      io.out(msg.help[lang]);
      return command || flags.help ? EXIT.OK : EXIT.USAGE;
    }
    const enrichArgs = (): EnrichArgs => {
      if (flags.in === undefined) throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--in"));
      const mode = flags.mode ?? "batch";
      if (mode !== "batch" && mode !== "free") throw new ExitError(EXIT.USAGE, msg.badValue[lang]("--mode", mode));
      return {
        input: flags.in,
        output: flags.out,
        fields: flags.fields !== undefined ? parseFieldList(flags.fields) : [...DEFAULT_FIELDS],
        mode,
        rerun: parseRerun(flags.rerun, lang),
        yes: flags.yes === true,
        lang,
        parallel: parseParallel(flags.parallel ?? env.COMPANY_DATA_PARALLEL, lang),
        encoding:
          flags.encoding !== undefined
            ? (parseEncoding(flags.encoding) ?? badEncoding(flags.encoding, lang))
            : undefined,
      };
    };
    // What the scheduled jobs' commands (monitor, refresh) share: their files, the yes, the parallel calls.
    const jobArgs = (): JobFileArgs => {
      if (typeof flags.in !== "string") throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--in"));
      return {
        input: flags.in,
        output: typeof flags.out === "string" ? flags.out : undefined,
        changes: typeof flags.changes === "string" ? flags.changes : undefined,
        yes: flags.yes === true,
        lang,
        parallel: parseParallel(typeof flags.parallel === "string" ? flags.parallel : env.COMPANY_DATA_PARALLEL, lang),
      };
    };
    const monitorArgs = (): MonitorArgs => ({ ...jobArgs(), notify: flags.notify });
    const whole = (name: string, v: string | undefined, fallback: number, min: number, max: number) => {
      if (v === undefined) return fallback;
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < min || n > max) throw new ExitError(EXIT.USAGE, msg.badValue[lang](`--${name}`, v));
      return n;
    };
    const monitorServerArgs = (): MonitorServerArgs => {
      if (flags.in === undefined) throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--in"));
      const frequency = flags.schedule ?? "daily";
      if (frequency !== "hourly" && frequency !== "daily" && frequency !== "weekly")
        throw new ExitError(EXIT.USAGE, msg.badValue[lang]("--schedule", frequency));
      return {
        input: flags.in,
        name: flags.name ?? "portfolio",
        frequency,
        hour: whole("hour", flags.hour, 7, 0, 23),
        weekday: whole("weekday", flags.weekday, 1, 0, 6),
        budget: flags.budget === undefined ? null : whole("budget", flags.budget, 0, 1, 1_000_000),
        webhooks: flags.notify !== undefined ? [flags.notify] : [],
        emails: (flags.email ?? "")
          .split(/[,;]/)
          .map((e) => e.trim())
          .filter(Boolean),
        lang,
      };
    };
    const refreshArgs = (): RefreshArgs => {
      const job = jobArgs();
      const whole = (name: "older-than" | "month-ceiling", max: number) => {
        const v = flags[name];
        if (typeof v !== "string") throw new ExitError(EXIT.USAGE, msg.missingOption[lang](`--${name}`));
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > max)
          throw new ExitError(EXIT.USAGE, msg.badValue[lang](`--${name}`, v));
        return n;
      };
      return {
        ...job,
        olderThanDays: whole("older-than", 3650),
        monthCeiling: whole("month-ceiling", 10_000_000),
        fields: typeof flags.fields === "string" ? parseFieldList(flags.fields) : undefined,
      };
    };
    const runsArgs = () => {
      if (typeof flags.out !== "string") throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--out"));
      return { output: flags.out, json: flags.json === true, lang };
    };
    switch (command) {
      case "runs":
        return await runsCommand(runsArgs(), io);
      case "revert": {
        if (typeof flags.run !== "string") throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--run"));
        return await revertCommand({ ...runsArgs(), run: flags.run }, io);
      }
      case "refresh":
        return await refreshCommand(refreshArgs(), context(env, lang, flags["min-confidence"]), io, !!io.ask);
      case "monitor":
        if (flags.server === true)
          return await monitorServerCommand(monitorServerArgs(), context(env, lang, flags["min-confidence"]), io);
        return await monitorCommand(monitorArgs(), context(env, lang, flags["min-confidence"]), io, !!io.ask);
      case "estimate":
        if (sub === "monitor")
          return await estimateMonitorCommand(monitorArgs(), context(env, lang, flags["min-confidence"]), io);
        if (sub === "refresh")
          return await estimateRefreshCommand(refreshArgs(), context(env, lang, flags["min-confidence"]), io);
        if (sub !== "enrich") throw new ExitError(EXIT.USAGE, msg.unknownCommand[lang](`estimate ${sub ?? ""}`.trim()));
        // With a team server's token the price is the team's (what it holds costs 0); without one, the list price.
        return await estimateCommand(enrichArgs(), io, teamContext(env, lang));
      case "enrich": {
        const a = enrichArgs();
        if (!a.output) throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--out"));
        const ctx = context(env, lang, flags["min-confidence"]);
        return await enrichCommand(a, ctx, io, !!io.ask);
      }
      case "search": {
        const whole = (k: "size" | "radius" | "limit") => {
          const v = flags[k];
          if (v === undefined) return undefined;
          const n = Number(v.replace(",", "."));
          if (v.trim() === "" || !Number.isFinite(n)) throw new ExitError(EXIT.USAGE, msg.badValue[lang](`--${k}`, v));
          return n;
        };
        const size = whole("size");
        const a: SearchArgs = {
          query: [sub, ...rest].filter(Boolean).join(" "),
          filters: {
            industry: flags.industry,
            state: flags.state,
            sizeClass: flags["size-class"],
            legalForm: flags["legal-form"],
            foundedAfter: flags["founded-after"],
            foundedBefore: flags["founded-before"],
            activeOnly: flags["active-only"] === true,
          },
          near: flags.near,
          radiusKm: whole("radius"),
          limit: whole("limit") ?? size ?? 10,
          out: flags.out,
          exclude: flags.exclude,
          append: flags.append === true,
          yes: flags.yes === true,
          lang,
        };
        return await searchCommand(a, context(env, lang, flags["min-confidence"]), io, !!io.ask);
      }
      case "account": {
        const ctx = context(env, lang, flags["min-confidence"]);
        const a = await runAsync(getAccount(ctx), nodeDriver());
        io.out(msg.credits[lang](a.credits));
        if (a.plan) io.out(`Plan: ${a.plan}`);
        if (a.usage) {
          const u = a.usage;
          for (const k of ["today", "month", "total"] as const)
            if (u[k] != null) io.out(`${USAGE_LABEL[k][lang]}: ${groupDigits(u[k], lang)}`);
        }
        return EXIT.OK;
      }
      case "doctor":
        return (await doctorCommand(context(env, lang), io, { json: flags.json === true, lang })).code;
      case "fields": {
        io.out(msg.fieldsTitle[lang]);
        for (const f of FIELDS) io.out(`${f.id}\t${f.group}\t${f.header[lang]}`);
        io.out("");
        for (const [g, l] of Object.entries(GROUP_LABEL)) io.out(`${g}: ${l[lang]}`);
        return EXIT.OK;
      }
      default:
        throw new ExitError(EXIT.USAGE, msg.unknownCommand[lang](command));
    }
  } catch (e) {
    if (e instanceof ExitError) {
      io.err(e.message);
      return e.code;
    }
    const err = toCompanyDataError(e);
    if (!(e instanceof CompanyDataError) && process.env.COMPANY_DATA_DEBUG)
      stderr.write(String((e as Error)?.stack ?? e) + "\n");
    // The key's and token's errors in the CLI's own words: it has no settings, only the environment.
    io.err(
      err.code === "INVALID_KEY" && err.details.detail
        ? msg.malformedKey[lang](err.details.detail[lang])
        : (envKeyMessage(err, lang) ?? err.text(lang)),
    );
    return exitFor(err.code);
  }
}

let interrupted = false;
/** Set by a command that handles Ctrl-C itself (the team server, the reconciliation service). */
let ownSignals = false;
process.on("SIGINT", () => {
  if (ownSignals) return;
  // The first Ctrl-C lets the answers in flight arrive (and be journalled: they are paid); a second one quits at once.
  if (interrupted) process.exit(EXIT.INTERRUPTED);
  interrupted = true;
  stderr.write("\n" + msg.interrupted[messageLang] + "\n");
  void drainAll(15_000).finally(() => {
    // Rows done and credits spent so far, once the answers in flight are in.
    const status = runStatus(messageLang, true);
    if (status) stderr.write(status + "\n");
    process.exit(EXIT.INTERRUPTED);
  });
});

/**
 * The command line of this process (bin/company-data.js calls it once this
 * module has loaded). A failure to load a subcommand's modules or to start
 * rejects: bin/ says what and why and exits non-zero.
 */
export async function run(): Promise<void> {
  process.exitCode = await main(process.argv.slice(2));
}
