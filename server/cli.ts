/**
 * `company-data server …`: the team server and its administration, with
 * options of its own (as `mcp` has). Every subcommand works on the same
 * database: DATABASE_URL when set (PostgreSQL), else PGlite in --data
 * (default ./company-data-server), locked for the process that opens it.
 * The administration commands (admin/cli-admin.ts) reach a PGlite directory
 * a server holds through that server's admin channel (admin/channel.ts).
 * Over 400 lines: every subcommand with its options and exit codes in one place (the checks and
 * messages of their own live in start-failures.ts, purge.ts, auth/user-name.ts, db/data-dir.ts, admin/).
 */
import { hostname } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { PRODUCTION_BASE_URL } from "../shared/api/index.ts";
import { checkBaseUrl } from "../shared/api/index.ts";
import { CompanyDataError } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { isLoopbackHost } from "../shared/api/index.ts";
import { DEFAULT_HOST } from "../node/index.ts";
import { UserNameRefused, userNameText } from "./auth/user-name.ts";
import { DataDirLocked, lockDataDir, type DataLock } from "./db/data-lock.ts";
import { prepareDataDir, tightenTree } from "./db/data-dir.ts";
import { errorText } from "./error-text.ts";
import { portUnavailable, startFailure, startText } from "./start-failures.ts";
import { purgeCompany, purgePerson, purgeText } from "./purge.ts";
import { validate as V } from "../shared/api/index.ts";
import { setScheduleConfig } from "./schedules/config.ts";
import { dbTarget, openDb, type Db, type DbTarget } from "./db/db.ts";
import { NewerDatabaseError } from "./db/migrations.ts";
import { admin } from "./i18n.ts";
import { AdminRefused } from "./admin/commands.ts";
import { ADMIN_COMMANDS, adminCommand, Usage } from "./admin/cli-admin.ts";
import { CHANNEL_FILE } from "./admin/client.ts";
import { outboundPolicy } from "./net/outbound.ts";
// Types only (erased): the modules themselves load lazily, below.
import type { CacheDays } from "./cache.ts";
import type { RunningTeamServer } from "./http.ts";
import type { Logger } from "./log.ts";
// The server's modules load only for the commands that need them (serve, or a database opened here):
// an admin command on a running server talks to it over the admin channel and loads none of them.
const serverModules = () =>
  Promise.all([
    import("./extensions.ts"),
    import("./http.ts"),
    import("./cache.ts"),
    import("./log.ts"),
    import("./secret.ts"),
    import("./upstream.ts"),
    import("./pacing.ts"),
  ]);

/** Exit codes as the CLI's (cli/i18n.ts EXIT). */
const EXIT = { OK: 0, INTERNAL: 1, USAGE: 2, KEY: 5, LOCKED: 8 } as const;
export const DEFAULT_PORT = 8790;
/** Upstream timeout; a claim's lease is twice this plus a margin, so a live purchase is never taken over. */
const DEFAULT_TIMEOUT_SECONDS = 30;
const LEASE_MARGIN_MS = 5_000;
const PURGE_EVERY_MS = 3600_000;

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  data: { type: "string" },
  "allow-origin": { type: "string", multiple: true },
  "allow-webhook-host": { type: "string", multiple: true },
  "max-schedules": { type: "string" },
  company: { type: "string" },
  person: { type: "string" },
  "key-file": { type: "string" },
  user: { type: "string" },
  "month-budget": { type: "string" },
  team: { type: "string" },
  month: { type: "string" },
  json: { type: "boolean" },
  admin: { type: "boolean" },
  expires: { type: "string" },
  grace: { type: "string" },
  "max-tokens": { type: "string" },
  to: { type: "string" },
  from: { type: "string" },
  lang: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Flags = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
>["values"];

/** --allow-webhook-host: bare host names or address literals (no scheme, port or path), as a URL's host is compared. */
function allowedWebhookHosts(values: string[], lang: Language): string[] {
  return values.map((v) => {
    const host = v.trim().toLowerCase();
    let parsed: string | undefined;
    try {
      parsed = new URL(`https://${host}/`).hostname;
    } catch {
      parsed = undefined;
    }
    if (!host || /[/:@?#\s]/.test(host.replace(/^\[.*\]$/, "")) || parsed === undefined)
      throw new Usage(admin.badValue[lang]("--allow-webhook-host", v));
    return parsed;
  });
}

/**
 * Open (and migrate, unless told not to) the database a subcommand names; PGlite's directory is made private
 * (data-dir.ts) and locked for this process. `tightened`: how many entries were looser than 0700/0600 before.
 */
export async function openServerDb(
  target: DbTarget,
  opts: { migrate?: boolean } = {},
): Promise<{ db: Db; close: () => Promise<void>; tightened: number }> {
  // Every module's migrations are registered before the database is migrated.
  await import("./extensions.ts");
  const { migrate } = await import("./db/migrations.ts");
  let lock: DataLock | undefined;
  const dir = target.kind === "pglite" && !target.dir.startsWith("memory://") ? target.dir : undefined;
  const tightened = dir === undefined ? 0 : prepareDataDir(dir);
  if (dir !== undefined) lock = lockDataDir(dir);
  // PGlite unpacks its first cluster with the archive's loose modes: tightened once it is there, and at the end.
  const tighten = () => void (dir !== undefined && tightenTree(dir));
  try {
    const db = await openDb(target);
    try {
      if (opts.migrate !== false) await migrate(db);
      tighten();
    } catch (e) {
      await db.close();
      throw e;
    }
    return {
      db,
      tightened,
      close: async () => {
        await db.close();
        try {
          tighten();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (e) {
    lock?.release();
    throw e;
  }
}

type ServerModules = Awaited<ReturnType<typeof serverModules>>;

/** What `serve` reads from its flags and environment before anything is opened or bound. */
interface ServeSettings {
  port: number;
  host: string;
  apiKey: string;
  baseUrl: string;
  origins: string[];
  webhookHosts: string[];
  cacheDays: CacheDays;
  timeoutSeconds: number;
}

/** --port and --host; a bad port is a usage error. */
function listenAddress(flags: Flags, lang: Language): { port: number; host: string } {
  const port = flags.port === undefined ? DEFAULT_PORT : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Usage(admin.badValue[lang]("--port", String(flags.port)));
  return { port, host: flags.host?.trim() || DEFAULT_HOST };
}

/** The upstream API key (environment or --key-file), or the exit code after saying why there is none. */
function apiKeyOrExit(flags: Flags, env: NodeJS.ProcessEnv, io: Io, lang: Language, m: ServerModules): string | number {
  const [, , , , { KeyFileError, readApiKey }] = m;
  let apiKey;
  try {
    apiKey = readApiKey(env, flags["key-file"]);
  } catch (e) {
    if (e instanceof KeyFileError) {
      io.err(admin.keyFile[lang](e.message));
      return EXIT.KEY;
    }
    throw e;
  }
  if (!apiKey) {
    io.err(admin.noKey[lang]);
    return EXIT.KEY;
  }
  return apiKey;
}

/** --allow-origin: each one a URL, checked here so a typo is a usage error and not a silently refused browser. */
function allowedOrigins(flags: Flags, lang: Language): string[] {
  const origins = flags["allow-origin"] ?? [];
  for (const o of origins) {
    try {
      new URL(o);
    } catch {
      throw new Usage(admin.badValue[lang]("--allow-origin", o));
    }
  }
  return origins;
}

/** --max-schedules, when given, becomes the schedule module's limit (schedules/config.ts). */
function applyMaxSchedules(flags: Flags, lang: Language): void {
  if (flags["max-schedules"] === undefined) return;
  const max = Number(flags["max-schedules"]);
  if (!Number.isInteger(max) || max < 0 || max > 100_000)
    throw new Usage(admin.badValue[lang]("--max-schedules", flags["max-schedules"]));
  setScheduleConfig({ maxSchedules: max });
}

/** The upstream timeout from the environment; anything not a positive number keeps the default. */
function upstreamTimeoutSeconds(env: NodeJS.ProcessEnv): number {
  return Number(env.COMPANY_DATA_UPSTREAM_TIMEOUT_SECONDS) > 0
    ? Number(env.COMPANY_DATA_UPSTREAM_TIMEOUT_SECONDS)
    : DEFAULT_TIMEOUT_SECONDS;
}

/** Every flag and variable `serve` needs, checked in the order the user meets them; a number is the exit code. */
function serveSettings(
  flags: Flags,
  env: NodeJS.ProcessEnv,
  io: Io,
  lang: Language,
  m: ServerModules,
): ServeSettings | number {
  const [, , { parseCacheDays }] = m;
  const { port, host } = listenAddress(flags, lang);
  const apiKey = apiKeyOrExit(flags, env, io, lang, m);
  if (typeof apiKey === "number") return apiKey;
  const baseUrl = checkBaseUrl(env.COMPANY_DATA_BASE_URL?.trim() || PRODUCTION_BASE_URL, "COMPANY_DATA_BASE_URL", {
    de: "COMPANY_DATA_BASE_URL",
    en: "COMPANY_DATA_BASE_URL",
  });
  const origins = allowedOrigins(flags, lang);
  const webhookHosts = allowedWebhookHosts(flags["allow-webhook-host"] ?? [], lang);
  const cacheDays = parseCacheDays(env.COMPANY_DATA_CACHE_DAYS);
  applyMaxSchedules(flags, lang);
  return { port, host, apiKey, baseUrl, origins, webhookHosts, cacheDays, timeoutSeconds: upstreamTimeoutSeconds(env) };
}

/** Start the team server on the opened database; a port taken at bind time is the exit code, as one taken before. */
async function startServing(
  m: ServerModules,
  settings: ServeSettings,
  opened: { db: Db; close: () => Promise<void> },
  ctx: { io: Io; lang: Language; log: Logger; target: DbTarget; processName: string },
): Promise<RunningTeamServer | number> {
  const [{ TEAM_SERVER_EXTENSIONS }, { startTeamServer }, , , , { createUpstream }, { databasePacer }] = m;
  const { port, host, apiKey, baseUrl, timeoutSeconds } = settings;
  const { db } = opened;
  const { target } = ctx;
  try {
    return await startTeamServer({
      db,
      log: ctx.log,
      port,
      host,
      allowOrigins: settings.origins,
      outbound: outboundPolicy({ allowHosts: settings.webhookHosts }),
      process: ctx.processName,
      cacheDays: settings.cacheDays,
      // The server's modules, named here: routes, services, health checks, paid gates (server/extensions.ts).
      extensions: TEAM_SERVER_EXTENSIONS,
      // Twice the timeout: the purchase's own database work (budget lock, storing) comes on top of the request.
      leaseMs: 2 * timeoutSeconds * 1000 + LEASE_MARGIN_MS,
      // PGlite: the admin channel in the data directory (admin/channel.ts), so admin commands work while it serves.
      adminSocket:
        target.kind === "pglite" && !target.dir.startsWith("memory://") ? join(target.dir, CHANNEL_FILE) : undefined,
      upstream: createUpstream({
        apiKey,
        baseUrl,
        timeoutMs: timeoutSeconds * 1000,
        maxPaceWaitMs: 10_000,
        teamPacer: databasePacer(db, baseUrl, apiKey),
      }),
    });
  } catch (e) {
    await opened.close();
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE" || (e as NodeJS.ErrnoException).code === "EACCES") {
      ctx.io.err(admin.portTaken[ctx.lang](port, host));
      return EXIT.USAGE;
    }
    throw e;
  }
}

/** Close the server on the first SIGTERM or SIGINT; resolves (with when the stop was asked) once it is closed. */
async function untilStopped(running: RunningTeamServer, io: Io, lang: Language, log: Logger): Promise<number> {
  let stopAsked = 0;
  await new Promise<void>((resolve) => {
    const stop = () => {
      stopAsked = Date.now();
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      io.err(admin.stopping[lang]);
      log.info("stopping", { inFlight: true });
      void running.close().finally(resolve);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  return stopAsked;
}

/** After the server closed: the database closed (or given up on), and the process left to end by itself. */
async function afterStop(close: () => Promise<void>, log: Logger, stopAsked: number): Promise<void> {
  // A database that does not answer must not keep a stopping server alive.
  await Promise.race([close(), new Promise((r) => setTimeout(r, 5_000).unref())]);
  log.info("stopped", { ms: Date.now() - stopAsked });
  // Nothing of ours is left running, so the process ends by itself now. Should anything still hold the event loop
  // (a request past the grace period, a module's timer), it is named in the log and the process ends anyway.
  setTimeout(() => {
    log.warn("stopped.held", { resources: process.getActiveResourcesInfo().join(",") });
    process.exit(EXIT.OK);
  }, 1_000).unref();
}

async function serve(flags: Flags, env: NodeJS.ProcessEnv, io: Io, lang: Language, target: DbTarget): Promise<number> {
  const m = await serverModules();
  const [, , { purgeExpired }, { jsonLogger, stdoutLine }] = m;
  const settings = serveSettings(flags, env, io, lang, m);
  if (typeof settings === "number") return settings;
  const { port, host } = settings;
  // A turn's lines in one write (log.ts stdoutLine), what waits written when the process exits.
  const log = jsonLogger(stdoutLine);
  if (await portUnavailable(host, port)) {
    io.err(admin.portTaken[lang](port, host));
    return EXIT.USAGE;
  }
  const { db, close, tightened } = await openServerDb(target);
  if (tightened > 0 && target.kind === "pglite") {
    log.warn("data.tightened", { entries: tightened });
    io.err(startText.tightened[lang](target.dir, tightened));
  }
  const processName = `${hostname()}:${process.pid}:${Date.now().toString(36)}`;
  const running = await startServing(m, settings, { db, close }, { io, lang, log, target, processName });
  if (typeof running === "number") return running;
  // At the start too: a server restarted more often than hourly would otherwise keep expired answers (personal data) for ever.
  void purgeExpired(db).catch(() => undefined);
  const purge = setInterval(() => void purgeExpired(db).catch(() => undefined), PURGE_EVERY_MS);
  purge.unref();
  log.info("listening", {
    url: running.url,
    database: db.kind,
    process: processName,
    origins: settings.origins.length,
  });
  io.err(admin.listening[lang](running.url, target.kind === "postgres" ? "PostgreSQL" : `PGlite ${target.dir}`));
  if (!isLoopbackHost(host)) io.err(admin.notLoopback[lang](host));
  const stopAsked = await untilStopped(running, io, lang, log);
  clearInterval(purge);
  await afterStop(close, log, stopAsked);
  return EXIT.OK;
}

async function command(
  positional: string[],
  flags: Flags,
  env: NodeJS.ProcessEnv,
  io: Io,
  lang: Language,
): Promise<number> {
  const target = dbTarget(flags.data, env);
  const [cmd, sub] = positional;
  if (cmd === undefined) return serve(flags, env, io, lang, target);
  if (ADMIN_COMMANDS.has(cmd)) return adminCommand(cmd, sub, flags, io, lang, target, openServerDb);
  if (cmd === "purge") {
    // Opens the database itself (a running PGlite server is named, exit 8): a rare request, not yet on the channel.
    if ((flags.company === undefined) === (flags.person === undefined)) throw new Usage(purgeText.which[lang]);
    const id =
      flags.company !== undefined ? V.companyId(flags.company, "--company") : V.personId(flags.person, "--person");
    const { db, close } = await openServerDb(target);
    try {
      const report = await (flags.company !== undefined ? purgeCompany : purgePerson)(db, id);
      io.out(purgeText.report[lang](report));
    } finally {
      await close();
    }
    return EXIT.OK;
  }
  throw new Usage(admin.unknown[lang](["server", ...positional].join(" ")));
}

/** `company-data server …` (argv without "server"); `lang` is the CLI's message language. */
export async function runServerCli(argv: string[], env: NodeJS.ProcessEnv, io: Io, lang: Language): Promise<number> {
  // The server's files are its user's alone, whatever umask it was started with (data-dir.ts tightens what exists).
  process.umask(0o077);
  let target: DbTarget | undefined;
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (e) {
      throw new Usage(admin.unknown[lang](String((e as Error).message).split("\n")[0] ?? ""));
    }
    if (parsed.values.help) {
      io.out(admin.usage[lang]);
      return EXIT.OK;
    }
    target = dbTarget(parsed.values.data, env);
    return await command(parsed.positionals, parsed.values, env, io, lang);
  } catch (e) {
    if (e instanceof Usage) {
      io.err(e.message);
      io.err(admin.usage[lang]);
      return EXIT.USAGE;
    }
    if (e instanceof UserNameRefused) {
      io.err(userNameText.refused[lang](e.user, e.lookAlike));
      return EXIT.USAGE;
    }
    if (e instanceof DataDirLocked) {
      io.err(admin.locked[lang](e.dir, e.pid, e.host));
      return EXIT.LOCKED;
    }
    if (e instanceof NewerDatabaseError) {
      io.err(admin.newerDb[lang](e.unknown.join(", "), e.databaseVersion, e.serverVersion));
      return EXIT.INTERNAL;
    }
    if (e instanceof AdminRefused) {
      io.err(e.message);
      return e.status < 500 ? EXIT.USAGE : EXIT.INTERNAL;
    }
    if (e instanceof CompanyDataError) {
      io.err(e.text(lang));
      return EXIT.USAGE;
    }
    const failure = target && startFailure(e, target, lang);
    if (failure) {
      io.err(failure.text);
      return failure.exit;
    }
    // Never a stack or a connection string: the error's kind and first line (never "[object Object]").
    io.err(errorText(e));
    return EXIT.INTERNAL;
  }
}
