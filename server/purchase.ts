/**
 * One answer for one user: the path every /v2 request and every extension
 * module's upstream call takes. Free endpoints go to the API through the
 * team's pacer; paid ones are served from the shared answers when the team
 * already bought them, and otherwise claimed, checked against the budgets,
 * recorded in the ledger, bought, stored and settled (cache.ts, ledger/budget.ts).
 * Batch endpoints are split per company (split.ts): what the team has is
 * served, only the rest is bought, at the catalogue's price for the rest.
 * Over 400 lines: one purchase is one sequence (claim, reserve, mark, send, store, settle) read best in one place.
 */
import { createHash } from "node:crypto";
import type { CallSpec } from "../shared/api/index.ts";
import { canonicalQuestion, endpoint, questionOf, type Endpoint } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { AuthUser } from "./auth/tokens.ts";
import { cacheDaysOf, claim, fill, fillAndSettle, recordHit, release, renew, type CacheDays } from "./cache.ts";
import type { Db } from "./db/db.ts";
import { errorAnswer, overBudgetAnswer, withCharge, type ErrorAnswer } from "./errors.ts";
import { msg } from "./i18n.ts";
import { fail, giveBack, markSent, monthOf, reserve, settle, type Reservation } from "./ledger/budget.ts";
import { writeOrKeep } from "./keep.ts";
import type { Reachability } from "./reachability.ts";
import { inLanguage } from "./labels.ts";
import type { Logger } from "./log.ts";
import { splitOf, type Split } from "./split.ts";
import type { Upstream, UpstreamAnswer } from "./upstream.ts";
import { hotAnswer, recentPaidRefusal, recordHitBatched } from "./hot-answers.ts";
import type { PaidGate } from "./gates.ts";
import { serverNow } from "./clock.ts";

export type Answer = ErrorAnswer;

/** How one call may be answered. */
export interface CallOptions {
  /** Only a shared answer bought at or after this instant (the database's clock) is served; an older one is bought again. */
  boughtAfter?: Date;
}

export interface PurchaseContext {
  db: Db;
  upstream: Upstream;
  log: Logger;
  /** This process's name in the ledger and in claims (host:pid:start). */
  process: string;
  /** How long a claim holds before another request may buy the answer itself (longer than the upstream timeout). */
  leaseMs: number;
  cacheDays: CacheDays;
  /** Whether the API answers (reachability.ts): while it does not, paid requests are refused before reserving. */
  reachability?: Reachability;
  /** The extensions' paid gates (gates.ts; the team server passes them): none when absent. */
  paidGates?: readonly PaidGate[];
}

/**
 * The question a call asks, as a short key: SHA-256 of its canonical form
 * (shared/api/question.ts questionOf, the hosts' caches key on the same), so
 * every spelling the API answers alike is one shared answer, bought once.
 */
export function questionKey(spec: CallSpec): string {
  return createHash("sha256").update(questionOf(spec)).digest("hex");
}

const json = (status: number, body: string, extra: Record<string, string> = {}): Answer => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...extra },
  body,
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What the API's failure becomes for the user: its own answer when there is one, else ours. */
function failureAnswer(a: UpstreamAnswer, lang: Language): Answer {
  if (a.status >= 400) {
    // The API's refusal charged nothing (its error answers carry no charge; emulator/README.md).
    const keep: Record<string, string> = { "x-credits-charged": "0" };
    for (const h of ["content-type", "retry-after"]) if (a.headers[h] !== undefined) keep[h] = a.headers[h];
    return { status: a.status, headers: keep, body: a.body };
  }
  if (!a.sent && a.error?.code === "RATE_LIMITED") {
    const retryAt = a.error.details.retryAt;
    const seconds = retryAt !== undefined ? Math.max(1, Math.ceil((retryAt - Date.now()) / 1000)) : 1;
    return errorAnswer("RATE_LIMITED", msg.rateLimited[lang], { retryAfterSeconds: seconds });
  }
  return errorAnswer("BAD_GATEWAY", msg.upstreamLost[lang]);
}

/** Free endpoints: straight to the API, paced for the team. */
async function freeAnswer(ctx: PurchaseContext, user: AuthUser, spec: CallSpec, lang: Language): Promise<Answer> {
  const a = await ctx.upstream.send(spec, lang, undefined, undefined, user.id);
  if (a.ok) return json(a.status, a.body, { "x-credits-charged": "0" });
  return failureAnswer(a, lang);
}

/**
 * Claims this process holds, by key: a request waiting for one of them waits
 * for its purchase here, in memory, instead of asking the database again and
 * again (which, with hundreds waiting, would crowd out the purchases
 * themselves). Coordination only: what is bought and spent is in the database.
 */
interface LocalClaim {
  done: Promise<void>;
  resolve: () => void;
}
const localClaims = new WeakMap<PurchaseContext, Map<string, LocalClaim>>();

function claimsOf(ctx: PurchaseContext) {
  let m = localClaims.get(ctx);
  if (!m) localClaims.set(ctx, (m = new Map<string, LocalClaim>()));
  return m;
}

/** This process's claim on `key` ended (stored or given back): its waiters look again. Only the claim's own entry goes. */
function claimEnded(ctx: PurchaseContext, key: string, claim: LocalClaim | undefined): void {
  if (!claim) return;
  claim.resolve();
  const m = claimsOf(ctx);
  if (m.get(key) === claim) m.delete(key);
}

/**
 * Claim what is free, take what is ready, and wait while others buy: for a
 * purchase of this process until it ends, for another process's by polling
 * (a dead owner's claim lapses with its lease and is claimed here). Returns
 * as soon as something is ours to buy, or everything is ready. Gives up
 * (false) only after several leases: by then every owner has finished or lapsed.
 */
async function claimAll(
  ctx: PurchaseContext,
  keys: string[],
  endpointId: string,
  companies: (string | null)[],
  ready: Map<string, string>,
  mine: string[],
  owned: Map<string, LocalClaim>,
  lang: Language,
  opts: CallOptions = {},
): Promise<boolean> {
  const giveUp = Date.now() + 4 * ctx.leaseMs + 10_000;
  const local = claimsOf(ctx);
  let pause = 20;
  for (;;) {
    let remote = 0;
    const localWaits: Promise<void>[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (ready.has(key) || mine.includes(key)) continue;
      const held = local.get(key);
      if (held) {
        localWaits.push(held.done);
        continue;
      }
      const c = await claim(
        ctx.db,
        key,
        endpointId,
        companies[i] ?? null,
        ctx.process,
        ctx.leaseMs,
        opts.boughtAfter ?? null,
      );
      // One purchase for every language: labels are given in the reader's (shared/api/labels.ts).
      if (c.kind === "ready") ready.set(key, inLanguage(c.answer.body, c.answer.lang ?? null, lang));
      else if (c.kind === "mine") {
        let resolve = () => undefined as void;
        const done = new Promise<void>((r) => (resolve = r));
        const own = { done, resolve };
        // A lapsed claim of this process may still be listed: its waiters move on to this one.
        local.get(key)?.resolve();
        local.set(key, own);
        owned.set(key, own);
        mine.push(key);
      } else remote++;
    }
    // What is ours is bought first; what others are buying is collected afterwards.
    if ((remote === 0 && localWaits.length === 0) || mine.length > 0) return true;
    if (Date.now() > giveUp) return false;
    // A purchase here ends its waiters' wait; a poll now and then covers the rest (another process, a lapsed claim).
    await Promise.race([sleep(remote > 0 ? pause : 5 * pause), ...localWaits]);
    pause = Math.min(500, pause * 2);
  }
}

async function releaseAll(ctx: PurchaseContext, keys: string[], owned: Map<string, LocalClaim>): Promise<void> {
  for (const k of keys) {
    try {
      await release(ctx.db, k, ctx.process);
    } catch {
      // The database failed: the claim lapses with this process's heartbeat or its lease.
    } finally {
      claimEnded(ctx, k, owned.get(k));
    }
  }
}

/**
 * Buy `keys` (claimed by this process) with one upstream call: reserve, send,
 * then store and settle together. Returns the answer's items or an answer
 * for the user (refused, failed).
 */
async function buy(
  ctx: PurchaseContext,
  user: AuthUser,
  ep: Endpoint,
  spec: CallSpec,
  price: number,
  company: string | null,
  keys: string[],
  owned: Map<string, LocalClaim>,
  lang: Language,
): Promise<{ ok: true; body: string; reservation: Reservation } | { ok: false; answer: Answer }> {
  const r = await reserve(ctx.db, user, [{ endpoint: ep.id, company, credits: price }], ctx.process, serverNow());
  if (!r.ok) {
    await releaseAll(ctx, keys, owned);
    ctx.log.info("refused.budget", {
      user: user.name,
      endpoint: ep.id,
      scope: r.over.scope,
      price,
      remaining: r.over.remaining,
    });
    return { ok: false, answer: overBudgetAnswer(r.over, lang) };
  }
  const reservation = r.reservations[0]!;
  // The lease runs from here: a purchase slowed by a queue for the database is not taken over before it is sent.
  await renew(ctx.db, keys, ctx.process, ctx.leaseMs);
  // The send mark, in the instant before the request's bytes go out (node/send-http.ts): reserved → sent.
  let markAsked = false;
  const mark = () => ((markAsked = true), markSent(ctx.db, reservation));
  const a = await ctx.upstream.send(spec, lang, `ledger-${reservation.ledgerId}`, mark, user.id);
  if (a.ok) return { ok: true, body: a.body, reservation };
  await releaseAll(ctx, keys, owned);
  const row = { user: user.name, endpoint: ep.id, ledger: reservation.ledgerId };
  if (!a.sent) {
    // Provably never left (refused, unresolved, TLS, the mark refused): not spent, not pending.
    await writeOrKeep(ctx.log, "give-back", row, () => giveBack(ctx.db, reservation));
    // No connection at all: the API does not answer (reachability.ts); paid requests wait for it without reserving.
    if (a.unreachable) await ctx.reachability?.lost();
  } else if (a.status >= 200 && a.status < 300) {
    // Charged, but not an answer the catalogue's schema accepts: paid for, never stored.
    await writeOrKeep(ctx.log, "settle", row, () => settle(ctx.db, reservation));
  } else if (a.status !== 0) {
    // The API answered an error: nothing charged.
    await writeOrKeep(ctx.log, "fail", row, () => fail(ctx.db, reservation));
  }
  // status 0 after sending: the answer was lost and may have been charged; the row stays pending.
  ctx.log.warn("upstream.failed", { ...row, status: a.status, code: a.error?.code, sent: a.sent });
  return { ok: false, answer: boughtNothing(ctx, a, markAsked, price, lang) };
}

/** The answer to a purchase that brought nothing back. */
function boughtNothing(
  ctx: PurchaseContext,
  a: UpstreamAnswer,
  markAsked: boolean,
  price: number,
  lang: Language,
): Answer {
  // Settled: the user was charged for an answer the server could not use, and is told so.
  if (a.status >= 200 && a.status < 300) return withCharge(errorAnswer("BAD_GATEWAY", msg.upstreamLost[lang]), price);
  if (!a.sent && markAsked) return errorAnswer("UNAVAILABLE", msg.busy[lang], { retryAfterSeconds: 1 });
  if (a.unreachable)
    return errorAnswer("UNAVAILABLE", msg.apiUnreachable[lang], {
      retryAfterSeconds: ctx.reachability?.refusal() ?? 3,
    });
  return failureAnswer(a, lang);
}

/** Store bought items and settle their ledger row in one transaction. */
async function store(
  ctx: PurchaseContext,
  user: AuthUser,
  ep: Endpoint,
  items: { key: string; body: string; credits: number }[],
  reservation: Reservation,
  owned: Map<string, LocalClaim>,
  lang: Language,
): Promise<void> {
  const days = cacheDaysOf(ctx.cacheDays, ep.id);
  const write = async () => {
    if (items.length === 1) {
      const it = items[0]!;
      await fillAndSettle(ctx.db, it.key, ctx.process, it.body, it.credits, days, user.id, reservation.ledgerId, lang);
    } else {
      await ctx.db.transaction(async (tx) => {
        for (const it of items)
          await fill(tx, it.key, ctx.process, { status: 200, body: it.body, lang }, it.credits, days, user.id);
        await settle(tx, reservation);
      });
    }
  };
  try {
    // The API has charged: a database error must not lose the answer (keep.ts), the user gets it anyway.
    await writeOrKeep(ctx.log, "store", { user: user.name, endpoint: ep.id, ledger: reservation.ledgerId }, write);
  } finally {
    for (const it of items) claimEnded(ctx, it.key, owned.get(it.key));
  }
}

/** A single paid question: served from the team's answers, or bought once. */
async function paidAnswer(
  ctx: PurchaseContext,
  user: AuthUser,
  ep: Endpoint,
  spec: CallSpec,
  lang: Language,
  opts: CallOptions,
): Promise<Answer> {
  const key = questionKey(spec);
  const company = spec.path?.id ?? spec.path?.personId ?? null;
  const price = ep.cost(spec.cost);
  const ready = new Map<string, string>();
  const mine: string[] = [];
  const owned = new Map<string, LocalClaim>();
  // The team's answer, from memory or one read batched with the requests beside it (hot-answers.ts).
  const hot = opts.boughtAfter ? null : await hotAnswer(ctx.db, key, lang);
  if (hot === null && !(await claimAll(ctx, [key], ep.id, [company], ready, mine, owned, lang, opts)))
    return errorAnswer("UNAVAILABLE", msg.busy[lang], { retryAfterSeconds: 1 });
  const cached = hot ?? ready.get(key);
  if (cached !== undefined) {
    // Charged nothing; what it would have cost is recorded (the report's savings) before the answer goes.
    await recordHitBatched(ctx.db, {
      month: monthOf(serverNow()),
      userId: user.id,
      endpoint: ep.id,
      company,
      saved: price,
    });
    return json(200, cached, { "x-credits-charged": "0", "x-cache": "hit" });
  }
  try {
    const bought = await buy(ctx, user, ep, spec, price, company, [key], owned, lang);
    if (!bought.ok) return bought.answer;
    await store(ctx, user, ep, [{ key, body: bought.body, credits: price }], bought.reservation, owned, lang);
    ctx.log.info("bought", {
      user: user.name,
      endpoint: ep.id,
      company,
      credits: price,
      ledger: bought.reservation.ledgerId,
    });
    return json(200, bought.body, { "x-credits-charged": String(price), "x-cache": "miss" });
  } finally {
    // Whatever happened (an error included), this process's waiters look again.
    claimEnded(ctx, key, owned.get(key));
  }
}

/** A batch: the team's answers per company, one purchase for the rest. */
async function splitAnswer(
  ctx: PurchaseContext,
  user: AuthUser,
  ep: Endpoint,
  spec: CallSpec,
  split: Split,
  lang: Language,
  opts: CallOptions,
): Promise<Answer> {
  const ready = new Map<string, string>();
  let charged = 0;
  for (;;) {
    const mine: string[] = [];
    const owned = new Map<string, LocalClaim>();
    // What was bought for this call before a failure is said with it: the user was charged for it.
    if (!(await claimAll(ctx, split.keys, ep.id, split.companies, ready, mine, owned, lang, opts)))
      return withCharge(errorAnswer("UNAVAILABLE", msg.busy[lang], { retryAfterSeconds: 1 }), charged);
    if (mine.length === 0) break;
    try {
      const positions = mine.map((k) => split.keys.indexOf(k));
      const sub: CallSpec = { ...spec, body: split.subBody(positions), cost: { ...spec.cost, count: mine.length } };
      const price = ep.cost(sub.cost);
      const company = split.ledgerCompany(positions);
      const bought = await buy(ctx, user, ep, sub, price, company, mine, owned, lang);
      if (!bought.ok) return withCharge(bought.answer, charged);
      const items = split.itemsOf(bought.body, positions);
      if (!items) {
        // Paid, but not one item per company asked: settle it, store nothing, say so (and what it cost).
        await releaseAll(ctx, mine, owned);
        const row = { user: user.name, endpoint: ep.id, ledger: bought.reservation.ledgerId };
        await writeOrKeep(ctx.log, "settle", row, () => settle(ctx.db, bought.reservation));
        return withCharge(errorAnswer("BAD_GATEWAY", msg.upstreamLost[lang]), charged + price);
      }
      // The price of the call, spread over its items for the record (the whole is what was charged).
      await store(
        ctx,
        user,
        ep,
        mine.map((key, i) => ({ key, body: items[i]!, credits: i === 0 ? price : 0 })),
        bought.reservation,
        owned,
        lang,
      );
      for (let i = 0; i < mine.length; i++) ready.set(mine[i]!, items[i]!);
      charged += price;
      ctx.log.info("bought", {
        user: user.name,
        endpoint: ep.id,
        items: mine.length,
        credits: price,
        ledger: bought.reservation.ledgerId,
      });
    } finally {
      for (const k of mine) claimEnded(ctx, k, owned.get(k));
    }
  }
  const distinct = new Set(split.keys).size;
  const saved = ep.cost({ ...spec.cost, count: distinct }) - charged;
  if (saved > 0) await recordHit(ctx.db, monthOf(serverNow()), user.id, ep.id, null, saved);
  return json(200, split.assemble(split.keys.map((k) => ready.get(k)!)), {
    "x-credits-charged": String(charged),
    "x-cache": charged === 0 ? "hit" : "partial",
  });
}

/** The answer to one call for one user (the proxy's and every extension module's way to the API). */
export async function answerFor(
  ctx: PurchaseContext,
  user: AuthUser,
  spec: CallSpec,
  lang: Language,
  opts: CallOptions = {},
): Promise<Answer> {
  // The canonical spelling is what is keyed, priced and sent (every caller's: the proxy's and the modules').
  spec = canonicalQuestion(spec);
  const ep = endpoint(spec.endpoint);
  if (ep.billing === "rate-limited") return freeAnswer(ctx, user, spec, lang);
  // An extension's gate (server/gates.ts: the doctor's drift refusal) may stop a paid request before anything is
  // reserved; its answer is kept at most a second (hot-answers.ts).
  const refusal = await recentPaidRefusal(ctx.paidGates ?? [], ctx.db, lang);
  if (refusal) return refusal;
  // While the API does not answer (reachability.ts), nothing is reserved: 503 with when to ask again.
  const wait = ctx.reachability?.refusal();
  if (wait != null) return errorAnswer("UNAVAILABLE", msg.apiUnreachable[lang], { retryAfterSeconds: wait });
  const split = splitOf(ep, spec);
  return split ? splitAnswer(ctx, user, ep, spec, split, lang, opts) : paidAnswer(ctx, user, ep, spec, lang, opts);
}
