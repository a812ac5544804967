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
import { FIELDS, GROUP_LABEL } from "../shared/enrich/index.ts";
import { hash } from "../shared/enrich/index.ts";
import { drainAll, nodeDriver, printable, quietOnClosedPipe, type PipeGuard } from "../node/index.ts";
import { enrichCommand, estimateCommand } from "./enrich.ts";
import { askOnTerminal, runStatus } from "./enrich-terminal.ts";
import { ExitError, type Io } from "./io.ts";
import { EXIT, USAGE_LABEL, msg } from "./i18n.ts";
import { estimateMonitorCommand, monitorCommand } from "./monitor.ts";
import { monitorServerCommand } from "./monitor-server.ts";
import { estimateRefreshCommand, refreshCommand } from "./refresh.ts";
import { groupDigits } from "../shared/credits/index.ts";
import { searchCommand } from "./search.ts";
import { parseCommandLine } from "./args.ts";
import {
  enrichArgs,
  monitorArgs,
  monitorServerArgs,
  OPTIONS,
  refreshArgs,
  runsArgs,
  searchArgs,
  type Flags,
} from "./command-args.ts";
import { Pacer } from "../shared/api/index.ts";
import { doctorCommand } from "./doctor.ts";
import { revertCommand, runsCommand } from "./runs.ts";

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

/** The language of messages: --lang, else the locale's; null when --lang names neither (said on stderr). */
function messageLanguage(argv: string[], env: NodeJS.ProcessEnv): Language | null {
  const lang: Language = processLanguage({ env, platform: process.platform });
  const langAt = argv.findIndex((a) => a === "--lang" || a.startsWith("--lang="));
  const langArg = argv[langAt];
  if (langArg === undefined) return lang;
  const v = langArg === "--lang" ? argv[langAt + 1] : langArg.slice("--lang=".length);
  if (v === "de" || v === "en") return v;
  stderr.write(msg.badValue[lang]("--lang", String(v)) + "\n");
  return null;
}

/**
 * The commands that read their own flags (MCP, reconciliation, the emulator,
 * the team server) and the version; undefined for every other command line.
 */
async function ownCommand(argv: string[], env: NodeJS.ProcessEnv, lang: Language): Promise<number | undefined> {
  const err = (s: string) => stderr.write(s + "\n");
  // The MCP server takes its own flags (mcp/config.ts) and keeps stdout for the protocol.
  // Loaded only for it: the other commands do not pay for the SDK's start-up.
  if (argv[0] === "mcp") return await (await import("../mcp/main.ts")).runMcp(argv.slice(1), env, err, lang);
  // The reconciliation service (W3C Reconciliation API 0.2) takes its own flags too (reconcile/config.ts) and stops itself on Ctrl-C.
  if (argv[0] === "reconcile") {
    ownSignals = true;
    return await (await import("../reconcile/main.ts")).runReconcile(argv.slice(1), env, err, lang);
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
    const out = (s: string) => stdout.write(s + "\n");
    return await (await import("../server/cli.ts")).runServerCli(argv.slice(1), env, { out, err }, lang);
  }
  return undefined;
}

/** Results to stdout, messages to stderr; a progress bar on a terminal, else a line every few seconds. */
function terminalIo(env: NodeJS.ProcessEnv): Io {
  return {
    out: (s) => stdout.write(s + "\n"),
    err: (s) => stderr.write(s + "\n"),
    progress: process.stderr.isTTY ? progressBar(process.stderr) : undefined,
    // Not a terminal (CI, cron, a log file): a line every few seconds instead of the bar.
    progressEveryMs: process.stderr.isTTY ? undefined : progressSeconds(env.COMPANY_DATA_PROGRESS_SECONDS) * 1000,
    ask: process.stdin.isTTY && process.stderr.isTTY ? askOnTerminal() : undefined,
  };
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const lang = messageLanguage(argv, env);
  if (lang === null) return EXIT.USAGE;
  messageLang = lang;
  const own = await ownCommand(argv, env, lang);
  if (own !== undefined) return own;
  const io = terminalIo(env);
  try {
    const { positional, flags } = parseCommandLine(argv, OPTIONS, lang);
    const [command, ...words] = positional;
    if (flags.help || !command || command === "help") {
      io.out(msg.help[lang]);
      return command || flags.help ? EXIT.OK : EXIT.USAGE;
    }
    return await runCommand(command, words, flags, { env, lang, io });
  } catch (e) {
    return failed(e, io, lang);
  }
}

/** One command of the command line (not `help`), with its words after it and the flags. */
async function runCommand(
  command: string,
  [sub, ...rest]: string[],
  flags: Flags,
  { env, lang, io }: { env: NodeJS.ProcessEnv; lang: Language; io: Io },
): Promise<number> {
  const ctx = () => context(env, lang, flags["min-confidence"]);
  switch (command) {
    case "runs":
      return await runsCommand(runsArgs(flags, lang), io);
    case "revert": {
      if (typeof flags.run !== "string") throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--run"));
      return await revertCommand({ ...runsArgs(flags, lang), run: flags.run }, io);
    }
    case "refresh":
      return await refreshCommand(refreshArgs(flags, env, lang), ctx(), io, !!io.ask);
    case "monitor":
      if (flags.server === true) return await monitorServerCommand(monitorServerArgs(flags, lang), ctx(), io);
      return await monitorCommand(monitorArgs(flags, env, lang), ctx(), io, !!io.ask);
    case "estimate":
      if (sub === "monitor") return await estimateMonitorCommand(monitorArgs(flags, env, lang), ctx(), io);
      if (sub === "refresh") return await estimateRefreshCommand(refreshArgs(flags, env, lang), ctx(), io);
      if (sub !== "enrich") throw new ExitError(EXIT.USAGE, msg.unknownCommand[lang](`estimate ${sub ?? ""}`.trim()));
      // With a team server's token the price is the team's (what it holds costs 0); without one, the list price.
      return await estimateCommand(enrichArgs(flags, env, lang), io, teamContext(env, lang));
    case "enrich": {
      const a = enrichArgs(flags, env, lang);
      if (!a.output) throw new ExitError(EXIT.USAGE, msg.missingOption[lang]("--out"));
      return await enrichCommand(a, ctx(), io, !!io.ask);
    }
    case "search":
      return await searchCommand(searchArgs(flags, [sub, ...rest], lang), ctx(), io, !!io.ask);
    case "account":
      return await accountCommand(ctx(), io, lang);
    case "doctor":
      return (await doctorCommand(context(env, lang), io, { json: flags.json === true, lang })).code;
    case "fields":
      return fieldsCommand(io, lang);
    default:
      throw new ExitError(EXIT.USAGE, msg.unknownCommand[lang](command));
  }
}

/** `account`: the credits left, the plan and the usage. */
async function accountCommand(ctx: OpContext, io: Io, lang: Language): Promise<number> {
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

/** `fields`: every field the enrichment can add, and the groups. */
function fieldsCommand(io: Io, lang: Language): number {
  io.out(msg.fieldsTitle[lang]);
  for (const f of FIELDS) io.out(`${f.id}\t${f.group}\t${f.header[lang]}`);
  io.out("");
  for (const [g, l] of Object.entries(GROUP_LABEL)) io.out(`${g}: ${l[lang]}`);
  return EXIT.OK;
}

/** A command that failed: its message on stderr and its exit code. */
function failed(e: unknown, io: Io, lang: Language): number {
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
