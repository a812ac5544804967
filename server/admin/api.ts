/**
 * The admin API (issue 38 item 1): one JSON surface for everything
 * `company-data server token|budget|report|ack-drift|backup` does. The server
 * offers it at /admin/… to an admin token (routes.ts: auth "admin") and on
 * its admin channel (channel.ts: a Unix socket only the server's user can
 * open); with no server running the CLI calls the same functions on the
 * database it opens itself (commands.ts). So there is one implementation,
 * whichever way the command reaches the data.
 *
 *   GET  /admin/tokens                 users, budgets, tokens (hint, admin, created, expires, last used, state)
 *   POST /admin/tokens                 {user, monthBudget?, admin?, expiresInSeconds?, maxTokens?} → {token, …} (201)
 *   POST /admin/tokens/rotate          {user, graceSeconds?, expiresInSeconds?, admin?} → {token, rotated, graceUntil}
 *   POST /admin/tokens/revoke          {user} → {revoked}
 *   PUT  /admin/budget                 {team: n|null} or {user, monthBudget: n|null}
 *   GET  /admin/report?month=YYYY-MM   the month's report (ledger/report.ts)
 *   POST /admin/ack-drift              {code, lines}
 *   GET  /admin/backup                 the backup as NDJSON (backup.ts), streamed
 */
import { UserNameRefused, userNameText } from "../auth/user-name.ts";
import { z } from "zod";
import type { Language } from "../../shared/i18n/index.ts";
import {
  createToken,
  listUsers,
  revokeTokens,
  rotateTokens,
  TokenCapReached,
  USER_NAME,
  UserNotFound,
} from "../auth/tokens.ts";
import type { Db } from "../db/db.ts";
import { ackDrift } from "../doctor/ack.ts";
import { errorAnswer, type ErrorAnswer } from "../errors.ts";
import { admin as texts, msg } from "../i18n.ts";
import { monthOf, setTeamBudget, setUserBudget } from "../ledger/budget.ts";
import { monthReport } from "../ledger/report.ts";

export interface AdminRequest {
  method: string;
  /** The path below /admin ("/tokens", "/budget", …). */
  path: string;
  query: URLSearchParams;
  /** The JSON body as text ("" for none). */
  body: string;
  lang: Language;
}

export interface AdminAnswer {
  status: number;
  /** The JSON answer (an error answer's body is the API's error shape). */
  json: unknown;
}

const MAX_BUDGET = 1_000_000_000;
const Budget = z.number().int().min(0).max(MAX_BUDGET).nullable();
const Seconds = z
  .number()
  .int()
  .min(0)
  .max(100 * 365 * 86400);
const User = z.string().regex(USER_NAME);

const CreateBody = z.object({
  user: User,
  monthBudget: Budget.optional(),
  admin: z.boolean().optional(),
  expiresInSeconds: Seconds.min(60).optional(),
  maxTokens: z.number().int().min(1).max(1000).optional(),
});
const RotateBody = z.object({
  user: User,
  graceSeconds: Seconds.optional(),
  expiresInSeconds: Seconds.min(60).optional(),
  admin: z.boolean().optional(),
});
const UserBody = z.object({ user: User });
const BudgetBody = z.union([
  z.object({ team: Budget }).strict(),
  z.object({ user: User, monthBudget: Budget }).strict(),
]);

const fromError = (e: ErrorAnswer): AdminAnswer => ({ status: e.status, json: JSON.parse(e.body) as unknown });
const invalid = (field: string, lang: Language) =>
  fromError(errorAnswer("INVALID_INPUT", texts.badValue[lang](field, "…"), { field }));

function parse<T>(schema: z.ZodType<T>, body: string, lang: Language): T | AdminAnswer {
  let value: unknown;
  try {
    value = body.trim() === "" ? {} : JSON.parse(body);
  } catch {
    return fromError(errorAnswer("INVALID_INPUT", msg.badJson[lang], { field: "body" }));
  }
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const field = String(r.error.issues[0]?.path[0] ?? "body");
  return invalid(field, lang);
}
const isAnswer = (v: unknown): v is AdminAnswer =>
  typeof v === "object" && v !== null && "status" in v && "json" in v && Object.keys(v).length === 2;

async function tokens(db: Db, r: AdminRequest): Promise<AdminAnswer | null> {
  if (r.path === "/tokens" && r.method === "GET") return { status: 200, json: { users: await listUsers(db) } };
  if (r.path === "/tokens" && r.method === "POST") {
    const b = parse(CreateBody, r.body, r.lang);
    if (isAnswer(b)) return b;
    const token = await createToken(db, b.user, b.monthBudget, b);
    return {
      status: 201,
      json: { user: b.user, token, admin: b.admin === true, expiresInSeconds: b.expiresInSeconds },
    };
  }
  if (r.path === "/tokens/rotate" && r.method === "POST") {
    const b = parse(RotateBody, r.body, r.lang);
    if (isAnswer(b)) return b;
    return { status: 200, json: { user: b.user, ...(await rotateTokens(db, b.user, b)) } };
  }
  if (r.path === "/tokens/revoke" && r.method === "POST") {
    const b = parse(UserBody, r.body, r.lang);
    if (isAnswer(b)) return b;
    return { status: 200, json: { user: b.user, revoked: await revokeTokens(db, b.user) } };
  }
  return null;
}

async function others(db: Db, r: AdminRequest): Promise<AdminAnswer | null> {
  if (r.path === "/budget" && (r.method === "PUT" || r.method === "POST")) {
    const b = parse(BudgetBody, r.body, r.lang);
    if (isAnswer(b)) return b;
    if ("team" in b) {
      await setTeamBudget(db, b.team);
      return { status: 200, json: { team: b.team } };
    }
    if (!(await setUserBudget(db, b.user, b.monthBudget))) throw new UserNotFound(b.user);
    return { status: 200, json: { user: b.user, monthBudget: b.monthBudget } };
  }
  if (r.path === "/report" && r.method === "GET") {
    const month = r.query.get("month") ?? monthOf(Date.now());
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) return invalid("month", r.lang);
    return { status: 200, json: await monthReport(db, month) };
  }
  if (r.path === "/ack-drift" && r.method === "POST") {
    const lines: string[] = [];
    const code = await ackDrift(db, r.lang, (l) => lines.push(l));
    return { status: 200, json: { code, lines } };
  }
  return null;
}

/** Answer one admin request on `db` (the caller has established that it comes from an admin). */
export async function adminApi(db: Db, r: AdminRequest): Promise<AdminAnswer> {
  try {
    const a = (await tokens(db, r)) ?? (await others(db, r));
    return a ?? fromError(errorAnswer("NOT_FOUND", msg.notFound[r.lang]));
  } catch (e) {
    if (e instanceof UserNotFound)
      return fromError(errorAnswer("NOT_FOUND", texts.noUser[r.lang](e.user), { field: "user" }));
    if (e instanceof TokenCapReached)
      return fromError(errorAnswer("INVALID_INPUT", texts.tokenCap[r.lang](e.user, e.max), { field: "user" }));
    if (e instanceof UserNameRefused)
      return fromError(
        errorAnswer("INVALID_INPUT", userNameText.refused[r.lang](e.user, e.lookAlike), { field: "user" }),
      );
    throw e;
  }
}
