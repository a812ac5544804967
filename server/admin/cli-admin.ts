/**
 * The administration subcommands of `company-data server` (token, budget,
 * report, ack-drift, backup, restore): flags to an admin API request
 * (commands.ts decides whether the running server or this process answers
 * it), the answer to the lines an admin reads.
 */
import type { Language } from "../../shared/i18n/index.ts";
import { DEFAULT_MAX_TOKENS, DEFAULT_ROTATE_GRACE_SECONDS, USER_NAME } from "../auth/tokens.ts";
import type { DbTarget } from "../db/db.ts";
import { admin } from "../i18n.ts";
import type { Report } from "../ledger/report.ts";
import {
  adminCall,
  backupTo,
  durationSeconds,
  restoreFrom,
  tokenListLines,
  type AdminIo,
  type ListedToken,
  type OpenDb,
} from "./commands.ts";

export class Usage extends Error {}

export const ADMIN_COMMANDS = new Set(["token", "budget", "report", "ack-drift", "backup", "restore"]);

export interface AdminFlags {
  user?: string;
  "month-budget"?: string;
  team?: string;
  month?: string;
  json?: boolean;
  admin?: boolean;
  expires?: string;
  grace?: string;
  "max-tokens"?: string;
  to?: string;
  from?: string;
}

function budgetValue(v: string, flag: string, lang: Language): number | null {
  if (v.trim().toLowerCase() === "none") return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 1_000_000_000) throw new Usage(admin.badValue[lang](flag, v));
  return n;
}

function userName(flags: AdminFlags, lang: Language): string {
  const u = flags.user;
  if (u === undefined) throw new Usage(admin.missing[lang]("--user"));
  if (!USER_NAME.test(u)) throw new Usage(admin.badValue[lang]("--user", u));
  return u;
}

function seconds(v: string | undefined, flag: string, lang: Language, min: number): number | undefined {
  if (v === undefined) return undefined;
  const s = durationSeconds(v);
  if (s !== undefined && !(s >= min)) throw new Usage(admin.badValue[lang](flag, v));
  return s;
}

function whole(v: string | undefined, flag: string, lang: Language): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new Usage(admin.badValue[lang](flag, v));
  return n;
}

type Ctx = { flags: AdminFlags; io: AdminIo; lang: Language; target: DbTarget; openDb: OpenDb };
const call = (c: Ctx, method: string, path: string, body?: unknown, query?: Record<string, string>) =>
  adminCall(c.target, c.openDb, {
    method,
    path,
    body: body === undefined ? "" : JSON.stringify(body),
    lang: c.lang,
    query,
  });

async function token(c: Ctx, sub: string | undefined): Promise<number> {
  const { flags, io, lang } = c;
  if (sub === "list") {
    const r = (await call(c, "GET", "/tokens")) as {
      users: { name: string; monthBudget: number | null; tokens: ListedToken[] }[];
    };
    for (const line of tokenListLines(r.users, lang)) io.out(line);
    return 0;
  }
  const user = userName(flags, lang);
  if (sub === "create") {
    const monthBudget =
      flags["month-budget"] !== undefined ? budgetValue(flags["month-budget"], "--month-budget", lang) : undefined;
    const r = (await call(c, "POST", "/tokens", {
      user,
      monthBudget,
      admin: flags.admin === true,
      expiresInSeconds: seconds(flags.expires, "--expires", lang, 60),
      maxTokens: whole(flags["max-tokens"], "--max-tokens", lang) ?? DEFAULT_MAX_TOKENS,
    })) as { token: string };
    io.err(admin.tokenCreated[lang](user));
    // Alone on the last line of stdout, so a script can take it with `tail -n 1`.
    io.out(r.token);
    return 0;
  }
  if (sub === "rotate") {
    const r = (await call(c, "POST", "/tokens/rotate", {
      user,
      admin: flags.admin === true ? true : undefined,
      graceSeconds: seconds(flags.grace, "--grace", lang, 0) ?? DEFAULT_ROTATE_GRACE_SECONDS,
      expiresInSeconds: seconds(flags.expires, "--expires", lang, 60),
    })) as { token: string; rotated: number; graceUntil: string };
    io.err(admin.rotated[lang](user, r.rotated, r.graceUntil));
    io.out(r.token);
    return 0;
  }
  if (sub === "revoke") {
    const r = (await call(c, "POST", "/tokens/revoke", { user })) as { revoked: number };
    io.err(admin.revoked[lang](user, r.revoked));
    return 0;
  }
  throw new Usage(admin.unknown[lang](`server token ${sub ?? ""}`));
}

async function budget(c: Ctx): Promise<number> {
  const { flags, io, lang } = c;
  if (flags.team !== undefined) {
    const b = budgetValue(flags.team, "--team", lang);
    await call(c, "PUT", "/budget", { team: b });
    io.err(admin.budgetSet[lang](admin.team[lang], String(b ?? admin.none[lang])));
    return 0;
  }
  const user = userName(flags, lang);
  if (flags["month-budget"] === undefined) throw new Usage(admin.missing[lang]("--month-budget"));
  const b = budgetValue(flags["month-budget"], "--month-budget", lang);
  await call(c, "PUT", "/budget", { user, monthBudget: b });
  io.err(admin.budgetSet[lang](user, String(b ?? admin.none[lang])));
  return 0;
}

function printReport(r: Report, io: AdminIo, lang: Language): void {
  io.out(admin.reportTitle[lang](r.month));
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
  const t = r.totals;
  io.out(admin.reportTotal[lang](t.spent, t.settled, t.pending, t.saved, String(r.team.budget ?? admin.none[lang])));
}

/** Run one administration subcommand; its exit code. */
export async function adminCommand(
  cmd: string,
  sub: string | undefined,
  flags: AdminFlags,
  io: AdminIo,
  lang: Language,
  target: DbTarget,
  openDb: OpenDb,
): Promise<number> {
  const c: Ctx = { flags, io, lang, target, openDb };
  if (cmd === "token") return token(c, sub);
  if (cmd === "budget") return budget(c);
  if (cmd === "ack-drift") {
    const r = (await call(c, "POST", "/ack-drift")) as { code: number; lines: string[] };
    for (const l of r.lines) io.out(l);
    return r.code;
  }
  if (cmd === "report") {
    const month = flags.month;
    if (month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
      throw new Usage(admin.badValue[lang]("--month", month));
    const r = (await call(c, "GET", "/report", undefined, month ? { month } : undefined)) as Report;
    if (flags.json) io.out(JSON.stringify(r, null, 2));
    else printReport(r, io, lang);
    return 0;
  }
  if (cmd === "backup") {
    if (!flags.to) throw new Usage(admin.missing[lang]("--to"));
    const counts = await backupTo(target, openDb, flags.to);
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    io.err(admin.backupDone[lang](flags.to, rows, Object.keys(counts).length));
    return 0;
  }
  if (cmd === "restore") {
    if (!flags.from) throw new Usage(admin.missing[lang]("--from"));
    const counts = await restoreFrom(target, openDb, flags.from, lang);
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    io.err(admin.restoreDone[lang](rows, Object.keys(counts).length));
    return 0;
  }
  throw new Usage(admin.unknown[lang](`server ${cmd}`));
}
