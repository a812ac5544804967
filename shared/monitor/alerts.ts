/**
 * Alerts from portfolio checks, once for every host (sans IO): what is news
 * since the last delivery, the digest in the user's language, and a delivery
 * record so that each piece of news reaches people exactly once.
 *
 * News is
 *  - a register change appended to the change log (the line keys of
 *    changelog.ts say which lines are new: a line already in the log is never
 *    news again), and
 *  - a company whose screening moves into or out of "risk" between two checks
 *    (the first check of a company is history, not news: the same rule as the
 *    change log's first watermark).
 *
 * The check notes news in the document's outbox (`doc:mon:<scope>:alerts:outbox`)
 * *before* it appends the lines and saves the watermarks of a window, so a
 * crash in between repeats the window and the outbox takes the news again
 * without doubling it (changes merge by line key, moves by company). A
 * delivery sends the whole outbox as one digest; only when the channel
 * accepted it are the delivered items removed. A failed delivery leaves them
 * for the next run, which sends them together with whatever is new then, and
 * its error is kept in the delivery record the panel and the CLI show.
 * (What cannot be excluded: the channel accepted the digest and the host died
 * before the outbox was cleared: the next run sends it again. Never lost,
 * at worst twice.)
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import { readSaved, savedBilingual, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import type { Bilingual, Language } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { LogLine } from "./changelog.ts";
import { GROUP_LABEL, SCREENING_NOTE, type RiskGroup } from "./risk.ts";
import { isoInstant, type CompanyState } from "./watermark.ts";

/** One register change as alerted (the change log's line, without its sheet layout). */
export interface AlertChange {
  /** The change log's line key: language-independent, the identity of the change. */
  key: string;
  /** ISO date (-time) of the change in the register. */
  date: string;
  kind: string;
  text: string;
  source: string;
}

/** A company with news: its group before and after, and its new changes. */
export interface AlertCompany {
  id: string;
  name: string | null;
  /** The group before the first news in this digest; null when it was not screened before. */
  from: RiskGroup | null;
  /** The group now (null: not screened again since its changes). */
  to: RiskGroup | null;
  /** The flag behind `to`, in both languages. */
  flag: Bilingual | null;
  changes: AlertChange[];
}

/** A company's screening group before and after a check (a move when they differ). */
export interface GroupMove {
  id: string;
  name: string | null;
  from: RiskGroup;
  to: RiskGroup;
  flag: Bilingual;
}

interface Outbox {
  v: 1;
  companies: AlertCompany[];
}

/** The last delivery attempt: what the panel and the CLI show. */
export interface DeliveryRecord {
  at: string;
  ok: boolean;
  /** "webhook" | "email". */
  channel: string;
  companies: number;
  changes: number;
  /** Why it failed, already safe to show (never the webhook's address: it is a secret). */
  error?: Bilingual;
  /** Failed attempts in a row for what is waiting (0 after a success). */
  failures: number;
}

/**
 * Each channel ("email", "webhook") has its own outbox and delivery record:
 * a digest the webhook took is never sent to it again because the e-mail failed.
 */
const group = z.enum(["risk", "watch", "none"]);
/** Saved with `v: 1` from the start. */
export const OUTBOX = savedKind<Outbox>(
  1,
  z.object({
    v: z.literal(1),
    companies: z.array(
      z.object({
        id: z.string(),
        name: z.nullable(z.string()),
        from: z.nullable(group),
        to: z.nullable(group),
        flag: z.nullable(savedBilingual),
        changes: z.array(
          z.object({ key: z.string(), date: z.string(), kind: z.string(), text: z.string(), source: z.string() }),
        ),
      }),
    ),
  }),
);
const deliveryRecord = z.object({
  at: z.string(),
  ok: z.boolean(),
  channel: z.string(),
  companies: z.number(),
  changes: z.number(),
  error: z.optional(savedBilingual),
  failures: z.number(),
});
/** Written without a version before v1: still read (its count of failures in a row). */
export const DELIVERY = savedKind<DeliveryRecord>(1, deliveryRecord, deliveryRecord);

export const OUTBOX_KEY = (ctx: OpContext, channel: string) => `doc:mon:${ctx.scope}:alerts:${channel}:outbox`;
export const DELIVERY_KEY = (ctx: OpContext, channel: string) => `doc:mon:${ctx.scope}:alerts:${channel}:last`;

/** A damaged outbox is an empty one: nothing to send is better than a crash every run. */
const parseOutbox = (raw: string | null | undefined): Outbox => readSaved(OUTBOX, raw) ?? { v: 1, companies: [] };

/** Is this move news? Into risk, or out of it (the all-clear is news too). */
export const isAlertMove = (from: RiskGroup | null, to: RiskGroup): boolean =>
  from !== null && from !== to && (from === "risk" || to === "risk");

/**
 * Moves between the stored states and the states a check is about to save,
 * plus the (perhaps unmoved) group of the companies in `withNews` (those
 * with new changes: the digest shows their group too). A company without a
 * stored state is seen for the first time: never a move.
 */
export function movesOf(
  before: ReadonlyMap<string, CompanyState | null | undefined>,
  after: ReadonlyMap<string, CompanyState>,
  withNews: ReadonlySet<string> = new Set(),
): GroupMove[] {
  const moves: GroupMove[] = [];
  for (const [id, s] of after) {
    const from = before.get(id)?.result.group ?? null;
    if (isAlertMove(from, s.result.group) || (from !== null && withNews.has(id)))
      moves.push({ id, name: s.name, from: from!, to: s.result.group, flag: s.result.text });
  }
  return moves;
}

/** A change log line as an alerted change (the log's row: date, id, name, kind, text, source, key). */
export function changeOf(line: LogLine): { id: string; name: string | null; change: AlertChange } {
  const r = line.row;
  const s = (v: unknown) => (v === null || v === undefined ? "" : String(v));
  return {
    id: s(r[1]),
    name: s(r[2]) || null,
    change: { key: line.key, date: line.date, kind: s(r[3]), text: s(r[4]), source: s(r[5]) },
  };
}

/** Merge news into a list of companies: changes by line key, moves by company (the first `from` stays). */
export function mergeNews(
  companies: AlertCompany[],
  news: { changes?: readonly LogLine[]; moves?: readonly GroupMove[] },
): AlertCompany[] {
  const byId = new Map(companies.map((c) => [c.id, { ...c, changes: [...c.changes] }]));
  const entry = (id: string, name: string | null) => {
    let c = byId.get(id);
    if (!c) {
      c = { id, name, from: null, to: null, flag: null, changes: [] };
      byId.set(id, c);
    }
    if (!c.name && name) c.name = name;
    return c;
  };
  for (const line of news.changes ?? []) {
    const { id, name, change } = changeOf(line);
    const c = entry(id, name);
    if (!c.changes.some((x) => x.key === change.key)) c.changes.push(change);
  }
  for (const m of news.moves ?? []) {
    // An unmoved group only completes a company that has news.
    if (m.from === m.to && !byId.has(m.id)) continue;
    const c = entry(m.id, m.name);
    // A repeated window sees the same move again: the group it came from is the first one noted.
    if (c.from === null) c.from = m.from;
    c.to = m.to;
    c.flag = m.flag;
  }
  for (const c of byId.values()) c.changes.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  // A company that moved out of risk and back in before anyone was told has no news left in its groups.
  return [...byId.values()].filter((c) => c.changes.length > 0 || (c.to !== null && c.from !== c.to));
}

/** Note news in the channels' outboxes (called by the check before it appends the lines and saves the watermarks). */
export function* noteNews(
  ctx: OpContext,
  channels: readonly string[],
  news: { changes?: readonly LogLine[]; moves?: readonly GroupMove[] },
): Operation<void> {
  if ((!news.changes?.length && !news.moves?.length) || channels.length === 0) return;
  const keys = channels.map((c) => OUTBOX_KEY(ctx, c));
  const raw = yield* storeGet(keys);
  const entries: Record<string, string> = {};
  keys.forEach((k, i) => {
    entries[k] = writeSaved(OUTBOX, { v: 1, companies: mergeNews(parseOutbox(raw[i] ?? null).companies, news) });
  });
  yield* storePut(entries);
}

/** What is waiting to be delivered. */
export function* pendingAlerts(ctx: OpContext, channel: string): Operation<AlertCompany[]> {
  const [raw] = yield* storeGet([OUTBOX_KEY(ctx, channel)]);
  return parseOutbox(raw).companies;
}

/** The last delivery attempt, or null. */
export function* lastDelivery(ctx: OpContext, channel: string): Operation<DeliveryRecord | null> {
  const [raw] = yield* storeGet([DELIVERY_KEY(ctx, channel)]);
  return readSaved(DELIVERY, raw) ?? null;
}

// ---- the digest

export interface Digest {
  language: Language;
  /** One line: the e-mail subject. */
  subject: string;
  /** Plain text, one block per company (e-mail body; the webhook's `text`). */
  text: string;
  companies: AlertCompany[];
  /** How many companies moved into risk. */
  intoRisk: number;
  changes: number;
  generatedAt: string;
}

const groupText = (g: RiskGroup | null, lang: Language) =>
  g === null ? (lang === "de" ? "nicht geprüft" : "not screened") : GROUP_LABEL[g][lang];

/** Risk moves first, then by name: what needs acting on is at the top. */
function ordered(companies: readonly AlertCompany[]): AlertCompany[] {
  const rank = (c: AlertCompany) =>
    c.to === "risk" && c.from !== "risk" ? 0 : c.from === "risk" && c.to !== "risk" && c.to !== null ? 1 : 2;
  return [...companies].sort((a, b) => rank(a) - rank(b) || (a.name ?? a.id).localeCompare(b.name ?? b.id));
}

const shortDate = (iso: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso;

/** The digest of some companies' news in one language. */
export function digestOf(companies: readonly AlertCompany[], lang: Language, now: number): Digest {
  const list = ordered(companies);
  const intoRisk = list.filter((c) => c.to === "risk" && c.from !== "risk").length;
  const changes = list.reduce((s, c) => s + c.changes.length, 0);
  const n = list.length;
  const subject =
    lang === "de"
      ? `Firmendaten: Neuigkeiten zu ${n} ${n === 1 ? "Firma" : "Firmen"}${intoRisk ? ` (${intoRisk} neu im Risiko)` : ""}`
      : `Company data: news on ${n} ${n === 1 ? "company" : "companies"}${intoRisk ? ` (${intoRisk} moved to risk)` : ""}`;
  const blocks = list.map((c) => {
    const head = `${c.name ?? c.id} (${c.id})`;
    const move =
      c.to !== null && c.from !== c.to
        ? `${groupText(c.from, lang)} → ${groupText(c.to, lang)}${c.flag ? ` (${c.flag[lang]})` : ""}`
        : c.to !== null
          ? `${groupText(c.to, lang)}`
          : "";
    const lines = c.changes.map(
      (x) => `  ${shortDate(x.date)} · ${x.kind}: ${x.text}${x.source ? ` (${x.source})` : ""}`,
    );
    return [move ? `${head}: ${move}` : head, ...lines].join("\n");
  });
  const intro =
    lang === "de"
      ? `${n} ${n === 1 ? "Firma" : "Firmen"} mit Neuigkeiten seit der letzten Benachrichtigung: ${intoRisk} neu im Risiko, ${changes} neue Registeränderungen.`
      : `${n} ${n === 1 ? "company" : "companies"} with news since the last alert: ${intoRisk} moved to risk, ${changes} new register changes.`;
  const note = lang === "de" ? `Risiko: ${SCREENING_NOTE.de}.` : `Risk: ${SCREENING_NOTE.en}.`;
  return {
    language: lang,
    subject,
    text: [intro, "", blocks.join("\n\n"), "", note].join("\n"),
    companies: list,
    intoRisk,
    changes,
    generatedAt: isoInstant(now),
  };
}

// ---- delivery

/** A channel refused or could not take the digest; the text is safe to show. */
export class DeliveryError extends Error {
  constructor(readonly text: Bilingual) {
    super(text.en);
  }
}

function reasonOf(e: unknown): Bilingual {
  if (e instanceof DeliveryError) return e.text;
  if (e instanceof CompanyDataError) return { de: e.text("de"), en: e.text("en") };
  return { de: "Die Benachrichtigung konnte nicht gesendet werden.", en: "The alert could not be sent." };
}

export type DeliveryOutcome =
  { status: "nothing" } | { status: "sent" | "failed"; record: DeliveryRecord; digest: Digest };

/**
 * Send what is waiting as one digest through `send` (a webhook post, an
 * e-mail). On success the delivered items leave the outbox (news noted while
 * it was being sent stays); on failure everything stays for the next run.
 */
export function* deliverAlerts(
  ctx: OpContext,
  channel: string,
  send: (d: Digest) => Operation<void>,
): Operation<DeliveryOutcome> {
  const [rawBox, rawLast] = yield* storeGet([OUTBOX_KEY(ctx, channel), DELIVERY_KEY(ctx, channel)]);
  const waiting = parseOutbox(rawBox).companies;
  if (waiting.length === 0) return { status: "nothing" };
  const before = readSaved(DELIVERY, rawLast) ?? null;
  const digest = digestOf(waiting, ctx.client.language, ctx.client.now());
  const base = {
    at: isoInstant(ctx.client.now()),
    channel,
    companies: digest.companies.length,
    changes: digest.changes,
  };
  try {
    yield* send(digest);
  } catch (e) {
    const record: DeliveryRecord = {
      ...base,
      ok: false,
      error: reasonOf(e),
      failures: (before && !before.ok ? before.failures : 0) + 1,
    };
    yield* storePut({ [DELIVERY_KEY(ctx, channel)]: writeSaved(DELIVERY, record) });
    return { status: "failed", record, digest };
  }
  const record: DeliveryRecord = { ...base, ok: true, failures: 0 };
  const [rawNow] = yield* storeGet([OUTBOX_KEY(ctx, channel)]);
  const left = withoutDelivered(parseOutbox(rawNow).companies, waiting);
  yield* storePut({
    [OUTBOX_KEY(ctx, channel)]: left.length ? writeSaved(OUTBOX, { v: 1, companies: left }) : null,
    [DELIVERY_KEY(ctx, channel)]: writeSaved(DELIVERY, record),
  });
  return { status: "sent", record, digest };
}

/** The outbox minus what a digest delivered: changes by key; a move only if it is still the one delivered. */
function withoutDelivered(now: AlertCompany[], sent: AlertCompany[]): AlertCompany[] {
  const sentById = new Map(sent.map((c) => [c.id, c]));
  const out: AlertCompany[] = [];
  for (const c of now) {
    const s = sentById.get(c.id);
    if (!s) {
      out.push(c);
      continue;
    }
    const keys = new Set(s.changes.map((x) => x.key));
    const changes = c.changes.filter((x) => !keys.has(x.key));
    const moved = c.to !== s.to ? { from: s.to, to: c.to, flag: c.flag } : { from: null, to: null, flag: null };
    if (changes.length || (moved.to !== null && moved.from !== moved.to)) out.push({ ...c, ...moved, changes });
  }
  return out;
}
