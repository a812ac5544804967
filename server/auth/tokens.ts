/**
 * Personal tokens: what a user sends instead of the API key
 * (`Authorization: Bearer cdt_…`). A token is 32 random bytes (256 bits),
 * shown once when created and stored only as its SHA-256. A slow password
 * hash (bcrypt, argon2) protects guessable secrets; a 256-bit random token
 * cannot be guessed or brute-forced from its hash, so one fast hash is
 * enough, and it lets every request find its token by an indexed equality
 * lookup, on every process. The server keeps an accepted token's user in
 * memory for at most a second (token-cache.ts): a revoked token is refused
 * within a second on every process.
 *
 * Lifecycle (issue 38 item 3): a token may expire (`expires_at`; none by
 * default); rotation gives the user a new token and ends the old ones after
 * a grace period (their `revoked_at` set in the future); `last_used_at` is
 * written at most once a minute per token, so a request costs no write. A
 * user holds at most `maxTokens` live tokens (DEFAULT_MAX_TOKENS).
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
  /**
   * The request carries an admin token (`token create --admin`): admin routes
   * (`auth: "admin"`) accept it. It is still the token of its own user: no route
   * lets it stand for another user's data.
   */
  admin: boolean;
}

export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A user name: 1–64 letters, digits, dot, dash, underscore, @ (an e-mail address fits). */
export const USER_NAME = /^[\p{L}\p{N}._@-]{1,64}$/u;

export class UserNotFound extends Error {
  constructor(readonly user: string) {
    super(`no user ${user}`);
  }
}

/** Live tokens per user unless the admin says otherwise (`token create --max-tokens N`). */
export const DEFAULT_MAX_TOKENS = 10;
/** How long a rotated token stays valid unless the admin says otherwise (`token rotate --grace`). */
export const DEFAULT_ROTATE_GRACE_SECONDS = 24 * 3600;
/** last_used_at is written at most this often per token (across processes: the update's own condition). */
const LAST_USED_EVERY = "1 minute";

/** A token that still opens the door: not revoked (or revoked only later: a rotation's grace). Expiry is told apart. */
const NOT_REVOKED = "(t.revoked_at is null or t.revoked_at > now())";
/** A token counted against the cap: neither revoked (nor rotated) nor expired. */
const LIVE = "(t.revoked_at is null and (t.expires_at is null or t.expires_at > now()))";

export class TokenCapReached extends Error {
  constructor(
    readonly user: string,
    readonly max: number,
  ) {
    super(`${user} holds ${max} live tokens already`);
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

export interface TokenOptions {
  /** An admin token: accepted by admin routes (the console, /health?deep=1, /admin/…). */
  admin?: boolean;
  /** Seconds until the token expires; none (undefined) = never. */
  expiresInSeconds?: number;
  /** Live tokens this user may hold, this one included (DEFAULT_MAX_TOKENS). */
  maxTokens?: number;
}

async function insertToken(tx: Sql, userId: number, admin: boolean, expiresInSeconds?: number): Promise<string> {
  const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
  await tx.query(
    `insert into tokens (user_id, hash, hint, admin, expires_at)
     values ($1, $2, $3, $4, case when $5::double precision is null then null else now() + $5::double precision * interval '1 second' end)`,
    [userId, hashToken(token), token.slice(-4), admin, expiresInSeconds ?? null],
  );
  return token;
}

/**
 * A new token for `user` (created when new; `monthBudget` sets the user's
 * budget when given). The token itself is returned once and stored nowhere.
 * Refused (TokenCapReached) when the user holds `maxTokens` live tokens.
 */
export async function createToken(
  db: Db,
  user: string,
  monthBudget?: number | null,
  opts: TokenOptions = {},
): Promise<string> {
  const max = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
  return db.transaction(async (tx) => {
    const id = await userId(tx, user, monthBudget);
    const [live] = await tx.query<{ n: number }>(
      `select count(*)::int as n from tokens t where t.user_id = $1 and ${LIVE}`,
      [id],
    );
    if ((live?.n ?? 0) >= max) throw new TokenCapReached(user, max);
    return insertToken(tx, id, opts.admin === true, opts.expiresInSeconds);
  });
}

export interface Rotation {
  token: string;
  /** Tokens that now end at `graceUntil`. */
  rotated: number;
  graceUntil: string;
  admin: boolean;
}

/**
 * `token rotate`: a new token for `user`; every live token of theirs stays
 * valid `graceSeconds` more, then ends. The new token is an admin token when
 * asked, or when one of the rotated tokens was.
 */
export async function rotateTokens(
  db: Db,
  user: string,
  opts: { graceSeconds?: number; expiresInSeconds?: number; admin?: boolean } = {},
): Promise<Rotation> {
  const grace = opts.graceSeconds ?? DEFAULT_ROTATE_GRACE_SECONDS;
  return db.transaction(async (tx) => {
    const [u] = await tx.query<{ id: number }>("select id from users where name = $1 for update", [user]);
    if (!u) throw new UserNotFound(user);
    const old = await tx.query<{ admin: boolean; until: string }>(
      `update tokens t set revoked_at = now() + $2::double precision * interval '1 second'
       where t.user_id = $1 and ${LIVE}
       returning t.admin, ${utc("t.revoked_at")} as until`,
      [u.id, grace],
    );
    const admin = opts.admin === true || old.some((r) => r.admin === true);
    const token = await insertToken(tx, u.id, admin, opts.expiresInSeconds);
    const [until] = await tx.query<{ until: string }>(
      `select ${utc("now() + $1::double precision * interval '1 second'")} as until`,
      [grace],
    );
    tokensChanged += 1;
    return { token, rotated: old.length, graceUntil: until!.until, admin };
  });
}

/** Revoke every token of a user that still opens the door (a rotation's grace included); returns how many. */
export async function revokeTokens(db: Db, user: string): Promise<number> {
  const id = await findUserId(db, user);
  if (id === null) throw new UserNotFound(user);
  const rows = await db.query(
    `update tokens t set revoked_at = now() where t.user_id = $1 and ${NOT_REVOKED} returning t.id`,
    [id],
  );
  tokensChanged += 1;
  return rows.length;
}

/**
 * How many revocations and rotations this process has made: the token cache
 * (token-cache.ts) starts afresh when it changes, so a token revoked through
 * this server (console, admin API, admin channel) is refused at once; one
 * revoked by another process is refused within the cache's second.
 */
let tokensChanged = 0;
export const tokenChanges = (): number => tokensChanged;

/** What a bearer token is: its user, or why it is refused (an expired token is told as such: 401 "expired"). */
export type TokenCheck =
  { user: AuthUser; refused?: undefined } | { refused: "invalid" } | { refused: "expired"; expiredAt: string };

/** Tokens (by hash) whose last use this process wrote, and when (one entry per token: bounded by the tokens table). */
const touched = new Map<string, number>();

export async function checkToken(db: Sql, authorization: string | undefined): Promise<TokenCheck> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const token = m?.[1];
  if (!token || !TOKEN_SHAPE.test(token)) return { refused: "invalid" };
  const rows = await db.query<{
    id: number;
    name: string;
    month_budget: number | null;
    admin: boolean;
    token_id: number;
    expired: boolean;
    expires: string | null;
    stale: boolean;
  }>(
    `select u.id, u.name, u.month_budget, t.admin, t.id as token_id,
            coalesce(t.expires_at <= now(), false) as expired, ${utc("t.expires_at")} as expires,
            (t.last_used_at is null or t.last_used_at < now() - interval '${LAST_USED_EVERY}') as stale
     from tokens t join users u on u.id = t.user_id where t.hash = $1 and ${NOT_REVOKED}`,
    [hashToken(token)],
  );
  const r = rows[0];
  if (!r) return { refused: "invalid" };
  if (r.expired) return { refused: "expired", expiredAt: r.expires ?? "" };
  // At most one write a minute per token, whatever the traffic and the number of processes: the first request of
  // this process to see the mark stale writes it (the others of a burst do not queue on the row), and the
  // update's own condition keeps other processes from writing it again within the minute.
  const hash = hashToken(token);
  if (r.stale && Date.now() - (touched.get(hash) ?? 0) >= 60_000) {
    touched.set(hash, Date.now());
    await db.query(
      `update tokens set last_used_at = now() where id = $1 and (last_used_at is null or last_used_at < now() - interval '${LAST_USED_EVERY}')`,
      [r.token_id],
    );
  }
  return { user: { id: r.id, name: r.name, monthBudget: r.month_budget, admin: r.admin === true } };
}

/** The user a bearer token belongs to, or null (unknown, malformed, revoked or expired). */
export async function authenticate(db: Sql, authorization: string | undefined): Promise<AuthUser | null> {
  const c = await checkToken(db, authorization);
  return "user" in c ? c.user : null;
}

/** A timestamp column as the admin reads it: UTC, to the minute. */
const utc = (col: string) => `to_char((${col}) at time zone 'UTC', 'YYYY-MM-DD HH24:MI')`;

export interface TokenRow {
  hint: string;
  admin: boolean;
  created: string;
  /** null: never expires. */
  expires: string | null;
  /** null: never used. */
  lastUsed: string | null;
  /** null: not revoked; a time in the future: rotated, valid until then. */
  revoked: string | null;
  state: "live" | "grace" | "expired" | "revoked";
}

export interface UserRow {
  name: string;
  monthBudget: number | null;
  tokens: TokenRow[];
}

/** Users, their budgets and their tokens (the last four characters only), with expiry and last use. */
export async function listUsers(db: Sql): Promise<UserRow[]> {
  const users = await db.query<{ id: number; name: string; month_budget: number | null }>(
    "select id, name, month_budget from users order by name",
  );
  const tokens = await db.query<TokenRow & { user_id: number }>(
    `select t.user_id, t.hint, t.admin, ${utc("t.created_at")} as created, ${utc("t.expires_at")} as expires,
            ${utc("t.last_used_at")} as "lastUsed", ${utc("t.revoked_at")} as revoked,
            case when t.revoked_at is not null and t.revoked_at <= now() then 'revoked'
                 when t.expires_at is not null and t.expires_at <= now() then 'expired'
                 when t.revoked_at is not null then 'grace' else 'live' end as state
     from tokens t order by t.id`,
  );
  return users.map((u) => ({
    name: u.name,
    monthBudget: u.month_budget,
    tokens: tokens.filter((t) => t.user_id === u.id).map(({ user_id: _, ...t }) => ({ ...t, admin: t.admin === true })),
  }));
}
