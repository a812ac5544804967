/**
 * `company-data server …`: the team server and its administration, with
 * options of its own (as `mcp` has). Every subcommand opens the same
 * database: DATABASE_URL when set (PostgreSQL), else PGlite in --data
 * (default ./company-data-server), locked for this process.
 * Over 400 lines: every subcommand with its options and exit codes in one place (the checks and
 * messages of their own live in start-failures.ts, purge.ts, auth/user-name.ts, db/data-dir.ts).
 */
import { hostname } from "node:os";
import { parseArgs } from "node:util";
import { PRODUCTION_BASE_URL } from "../shared/api/index.ts";
import { checkBaseUrl } from "../shared/api/index.ts";
import { CompanyDataError } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { isLoopbackHost } from "../shared/api/index.ts";
import { createToken, listUsers, revokeTokens, USER_NAME, UserNotFound } from "./auth/tokens.ts";
import { UserNameRefused, userNameText } from "./auth/user-name.ts";
import { parseCacheDays, purgeExpired } from "./cache.ts";
import { DataDirLocked, lockDataDir, type DataLock } from "./db/data-lock.ts";
import { prepareDataDir, tightenTree } from "./db/data-dir.ts";
import { errorText } from "./error-text.ts";
import { portUnavailable, startFailure, startText } from "./start-failures.ts";
import { dbTarget, openDb, type Db, type DbTarget } from "./db/db.ts";
import { migrate, NewerDatabaseError } from "./db/migrations.ts";
import "./extensions.ts";
import { startTeamServer } from "./http.ts";
import { admin } from "./i18n.ts";
import { setTeamBudget, setUserBudget, monthOf } from "./ledger/budget.ts";
import { monthReport } from "./ledger/report.ts";
import { jsonLogger } from "./log.ts";
import { KeyFileError, readApiKey } from "./secret.ts";
import { createUpstream } from "./upstream.ts";
import { databasePacer } from "./pacing.ts";
import { ackDrift } from "./doctor/ack.ts";
import { purgeCompany, purgePerson, purgeText } from "./purge.ts";
import { validate as V } from "../shared/api/index.ts";
import { setScheduleConfig } from "./schedules/config.ts";

/** Exit codes as the CLI's (cli/i18n.ts EXIT). */
const EXIT = { OK: 0, INTERNAL: 1, USAGE: 2, KEY: 5, LOCKED: 8 } as const;
export const DEFAULT_PORT = 8790;
export const DEFAULT_HOST = "127.0.0.1";
/** Upstream timeout; a claim's lease is twice this plus a margin, so a live purchase is never taken over. */
const DEFAULT_TIMEOUT_SECONDS = 30;
const LEASE_MARGIN_MS = 5_000;
const PURGE_EVERY_MS = 3600_000;

class Usage extends Error {}

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  data: { type: "string" },
  "allow-origin": { type: "string", multiple: true },
  "key-file": { type: "string" },
  "max-schedules": { type: "string" },
  company: { type: "string" },
  person: { type: "string" },
  user: { type: "string" },
  "month-budget": { type: "string" },
  team: { type: "string" },
  month: { type: "string" },
  json: { type: "boolean" },
  lang: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Flags = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
>["values"];

function budgetValue(v: string, flag: string, lang: Language): number | null {
  if (v.trim().toLowerCase() === "none") return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 1_000_000_000) throw new Usage(admin.badValue[lang](flag, v));
  return n;
}

function userName(flags: Flags, lang: Language): string {
  const u = flags.user;
  if (u === undefined) throw new Usage(admin.missing[lang]("--user"));
  if (!USER_NAME.test(u)) throw new Usage(admin.badValue[lang]("--user", u));
  return u;
}

/**
 * Open (and migrate) the database a subcommand names; PGlite's directory is made private (data-dir.ts) and
 * locked for this process. `tightened`: how many entries of the directory were looser than 0700/0600 before.
 */
export async function openServerDb(
  target: DbTarget,
): Promise<{ db: Db; close: () => Promise<void>; tightened: number }> {
  let lock: DataLock | undefined;
  const dir = target.kind === "pglite" && !target.dir.startsWith("memory://") ? target.dir : undefined;
  const tightened = dir === undefined ? 0 : prepareDataDir(dir);
  if (dir !== undefined) lock = lockDataDir(dir);
  // PGlite unpacks its first cluster with the archive's loose modes: tightened once it is there, and at the end.
  const tighten = () => void (dir !== undefined && tightenTree(dir));
  try {
    const db = await openDb(target);
    try {
      await migrate(db);
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

async function withDb<T>(target: DbTarget, fn: (db: Db) => Promise<T>): Promise<T> {
  const { db, close } = await openServerDb(target);
  try {
    return await fn(db);
  } finally {
    await close();
  }
}

async function serve(flags: Flags, env: NodeJS.ProcessEnv, io: Io, lang: Language, target: DbTarget): Promise<number> {
  const port = flags.port === undefined ? DEFAULT_PORT : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Usage(admin.badValue[lang]("--port", String(flags.port)));
  const host = flags.host?.trim() || DEFAULT_HOST;
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
  const baseUrl = checkBaseUrl(env.COMPANY_DATA_BASE_URL?.trim() || PRODUCTION_BASE_URL, "COMPANY_DATA_BASE_URL", {
    de: "COMPANY_DATA_BASE_URL",
    en: "COMPANY_DATA_BASE_URL",
  });
  const origins = flags["allow-origin"] ?? [];
  for (const o of origins) {
    try {
      new URL(o);
    } catch {
      throw new Usage(admin.badValue[lang]("--allow-origin", o));
    }
  }
  const cacheDays = parseCacheDays(env.COMPANY_DATA_CACHE_DAYS);
  if (flags["max-schedules"] !== undefined) {
    const max = Number(flags["max-schedules"]);
    if (!Number.isInteger(max) || max < 0 || max > 100_000)
      throw new Usage(admin.badValue[lang]("--max-schedules", flags["max-schedules"]));
    setScheduleConfig({ maxSchedules: max });
  }
  const timeoutSeconds =
    Number(env.COMPANY_DATA_UPSTREAM_TIMEOUT_SECONDS) > 0
      ? Number(env.COMPANY_DATA_UPSTREAM_TIMEOUT_SECONDS)
      : DEFAULT_TIMEOUT_SECONDS;
  const log = jsonLogger((line) => process.stdout.write(line + "\n"));
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
  let running;
  try {
    running = await startTeamServer({
      db,
      log,
      port,
      host,
      allowOrigins: origins,
      process: processName,
      cacheDays,
      // Twice the timeout: the purchase's own database work (budget lock, storing) comes on top of the request.
      leaseMs: 2 * timeoutSeconds * 1000 + LEASE_MARGIN_MS,
      upstream: createUpstream({
        apiKey,
        baseUrl,
        timeoutMs: timeoutSeconds * 1000,
        maxPaceWaitMs: 10_000,
        teamPacer: databasePacer(db, baseUrl, apiKey),
      }),
    });
  } catch (e) {
    await close();
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE" || (e as NodeJS.ErrnoException).code === "EACCES") {
      io.err(admin.portTaken[lang](port, host));
      return EXIT.USAGE;
    }
    throw e;
  }
  // At the start too: a server restarted more often than hourly would otherwise keep expired answers (personal data) for ever.
  void purgeExpired(db).catch(() => undefined);
  const purge = setInterval(() => void purgeExpired(db).catch(() => undefined), PURGE_EVERY_MS);
  purge.unref();
  log.info("listening", { url: running.url, database: db.kind, process: processName, origins: origins.length });
  io.err(admin.listening[lang](running.url, target.kind === "postgres" ? "PostgreSQL" : `PGlite ${target.dir}`));
  if (!isLoopbackHost(host)) io.err(admin.notLoopback[lang](host));
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
  clearInterval(purge);
  // A database that does not answer must not keep a stopping server alive.
  await Promise.race([close(), new Promise((r) => setTimeout(r, 5_000).unref())]);
  log.info("stopped", { ms: Date.now() - stopAsked });
  // Nothing of ours is left running, so the process ends by itself now. Should anything still hold the event loop
  // (a request past the grace period, a module's timer), it is named in the log and the process ends anyway.
  setTimeout(() => {
    log.warn("stopped.held", { resources: process.getActiveResourcesInfo().join(",") });
    process.exit(EXIT.OK);
  }, 1_000).unref();
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
  if (cmd === "token" && sub === "create") {
    const user = userName(flags, lang);
    const budget =
      flags["month-budget"] !== undefined ? budgetValue(flags["month-budget"], "--month-budget", lang) : undefined;
    const token = await withDb(target, (db) => createToken(db, user, budget));
    io.err(admin.tokenCreated[lang](user));
    // Alone on the last line of stdout, so a script can take it with `tail -n 1`.
    io.out(token);
    return EXIT.OK;
  }
  if (cmd === "token" && sub === "list") {
    const users = await withDb(target, (db) => listUsers(db));
    io.out(admin.listHeader[lang]);
    for (const u of users) {
      const live = u.tokens.filter((t) => !t.revoked);
      io.out(
        `${u.name}\t${u.monthBudget ?? admin.none[lang]}\t${live.map((t) => `…${t.hint} (${t.created})`).join(", ") || "-"}`,
      );
    }
    return EXIT.OK;
  }
  if (cmd === "token" && sub === "revoke") {
    const user = userName(flags, lang);
    try {
      const n = await withDb(target, (db) => revokeTokens(db, user));
      io.err(admin.revoked[lang](user, n));
      return EXIT.OK;
    } catch (e) {
      if (e instanceof UserNotFound) {
        io.err(admin.noUser[lang](user));
        return EXIT.USAGE;
      }
      throw e;
    }
  }
  if (cmd === "purge") {
    if ((flags.company === undefined) === (flags.person === undefined)) throw new Usage(purgeText.which[lang]);
    const id =
      flags.company !== undefined ? V.companyId(flags.company, "--company") : V.personId(flags.person, "--person");
    const report = await withDb(target, (db) => (flags.company !== undefined ? purgeCompany : purgePerson)(db, id));
    io.out(purgeText.report[lang](report));
    return EXIT.OK;
  }
  if (cmd === "ack-drift") return withDb(target, (db) => ackDrift(db, lang, (line) => io.out(line)));
  if (cmd === "budget") {
    if (flags.team !== undefined) {
      const b = budgetValue(flags.team, "--team", lang);
      await withDb(target, (db) => setTeamBudget(db, b));
      io.err(admin.budgetSet[lang](admin.team[lang], String(b ?? admin.none[lang])));
      return EXIT.OK;
    }
    const user = userName(flags, lang);
    if (flags["month-budget"] === undefined) throw new Usage(admin.missing[lang]("--month-budget"));
    const b = budgetValue(flags["month-budget"], "--month-budget", lang);
    if (!(await withDb(target, (db) => setUserBudget(db, user, b)))) {
      io.err(admin.noUser[lang](user));
      return EXIT.USAGE;
    }
    io.err(admin.budgetSet[lang](user, String(b ?? admin.none[lang])));
    return EXIT.OK;
  }
  if (cmd === "report") {
    const month = flags.month ?? monthOf(Date.now());
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new Usage(admin.badValue[lang]("--month", month));
    const r = await withDb(target, (db) => monthReport(db, month));
    if (flags.json) {
      io.out(JSON.stringify(r, null, 2));
      return EXIT.OK;
    }
    io.out(admin.reportTitle[lang](month));
    io.out(admin.reportHeader[lang]);
    for (const l of r.lines) io.out(`${l.user}\t${l.endpoint}\t${l.requests}\t${l.settled}\t${l.pending}`);
    io.out("");
    io.out(admin.reportUsers[lang]);
    for (const u of r.byUser) io.out(`${u.user}\t${u.spent}\t${u.saved}\t${u.budget ?? admin.none[lang]}`);
    io.out("");
    if (r.unsettled.length === 0) io.out(admin.reportNoUnsettled[lang]);
    else {
      io.out(admin.reportUnsettled[lang]);
      for (const u of r.unsettled)
        io.out(`${u.user}\t${u.rows}\t${u.credits}\t${u.first}\t${u.last}\t${u.ids.join(",")}`);
    }
    io.out("");
    io.out(
      admin.reportTotal[lang](
        r.totals.spent,
        r.totals.settled,
        r.totals.pending,
        r.totals.saved,
        String(r.team.budget ?? admin.none[lang]),
      ),
    );
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
      io.err(admin.locked[lang](e.dir, e.pid));
      return EXIT.LOCKED;
    }
    if (e instanceof NewerDatabaseError) {
      io.err(admin.newerDb[lang](e.unknown.join(", ")));
      return EXIT.INTERNAL;
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
