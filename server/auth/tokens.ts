/**
 * Personal tokens: what a user sends instead of the API key
 * (`Authorization: Bearer cdt_…`). A token is 32 random bytes (256 bits),
 * shown once when created and stored only as its SHA-256. A slow password
 * hash (bcrypt, argon2) protects guessable secrets; a 256-bit random token
 * cannot be guessed or brute-forced from its hash, so one fast hash is
 * enough, and it lets every request find its token by an indexed equality
 * lookup, on every process, with no state in memory: a revoked token is
 * refused by the very next request.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Db, Sql } from "../db/db.ts";
import { checkUserName, findUserId, lockUserNames, UserNameRefused } from "./user-name.ts";

export const TOKEN_PREFIX = "cdt_";
const TOKEN_SHAPE = /^cdt_[A-Za-z0-9_-]{43}$/;

export interface AuthUser {
  id: number;
  name: string;
  monthBudget: number | null;
}

export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A user name: 1–64 letters, digits, dot, dash, underscore, @ (an e-mail address fits). */
export const USER_NAME = /^[\p{L}\p{N}._@-]{1,64}$/u;

export class UserNotFound extends Error {
  constructor(readonly user: string) {
    super(`no user ${user}`);
  }
}

async function userId(tx: Sql, name: string, monthBudget: number | null | undefined): Promise<number> {
  // One user per folded name, look-alikes refused (user-name.ts); the lock makes check and insert one step.
  await lockUserNames(tx);
  const verdict = await checkUserName(tx, name);
  if (!verdict.ok) throw new UserNameRefused(name, verdict.lookAlike);
  const found = verdict.existing
    ? await tx.query<{ id: number }>("select id from users where id = $1 for update", [verdict.existing.id])
    : [];
  if (found[0]) {
    if (monthBudget !== undefined)
      await tx.query("update users set month_budget = $2 where id = $1", [found[0].id, monthBudget]);
    return found[0].id;
  }
  const made = await tx.query<{ id: number }>("insert into users (name, month_budget) values ($1, $2) returning id", [
    name,
    monthBudget ?? null,
  ]);
  return made[0]!.id;
}

/**
 * A new token for `user` (created when new; `monthBudget` sets the user's
 * budget when given). The token itself is returned once and stored nowhere.
 */
export async function createToken(db: Db, user: string, monthBudget?: number | null): Promise<string> {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    const id = await userId(tx, user, monthBudget);
    await tx.query("insert into tokens (user_id, hash, hint) values ($1, $2, $3)", [
      id,
      hashToken(token),
      token.slice(-4),
    ]);
  });
  return token;
}

/** Revoke every live token of a user; returns how many. */
export async function revokeTokens(db: Db, user: string): Promise<number> {
  const id = await findUserId(db, user);
  if (id === null) throw new UserNotFound(user);
  const rows = await db.query(
    "update tokens set revoked_at = now() where user_id = $1 and revoked_at is null returning id",
    [id],
  );
  return rows.length;
}

/** The user a bearer token belongs to, or null (unknown, malformed or revoked). */
export async function authenticate(db: Sql, authorization: string | undefined): Promise<AuthUser | null> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const token = m?.[1];
  if (!token || !TOKEN_SHAPE.test(token)) return null;
  const rows = await db.query<{ id: number; name: string; month_budget: number | null }>(
    "select u.id, u.name, u.month_budget from tokens t join users u on u.id = t.user_id where t.hash = $1 and t.revoked_at is null",
    [hashToken(token)],
  );
  const r = rows[0];
  return r ? { id: r.id, name: r.name, monthBudget: r.month_budget } : null;
}

export interface UserRow {
  name: string;
  monthBudget: number | null;
  tokens: { hint: string; created: string; revoked: string | null }[];
}

/** Users, their budgets and their tokens (the last four characters only). */
export async function listUsers(db: Sql): Promise<UserRow[]> {
  const users = await db.query<{ id: number; name: string; month_budget: number | null }>(
    "select id, name, month_budget from users order by name",
  );
  const tokens = await db.query<{ user_id: number; hint: string; created: string; revoked: string | null }>(
    `select user_id, hint, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as created,
            to_char(revoked_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as revoked from tokens order by id`,
  );
  return users.map((u) => ({
    name: u.name,
    monthBudget: u.month_budget,
    tokens: tokens
      .filter((t) => t.user_id === u.id)
      .map((t) => ({ hint: t.hint, created: t.created, revoked: t.revoked })),
  }));
}
