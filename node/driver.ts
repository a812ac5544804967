/**
 * The Node host: node:http with a per-request timeout (node/send-http.ts), real sleeps, an in-memory
 * cache bounded in bytes (a 100,000-row file must not hold every profile; the
 * enrichment keeps its own compact memo of what it bought), and
 * an optional journal that makes paid answers survive a kill: every 2xx
 * answer is appended the moment it arrives, and on resume the same request is
 * answered from the journal instead of being bought again. What a kill can
 * still cost is only what was in flight at that instant: requests go through
 * shared/web/limited-http.ts (an AIMD limit under the `parallel` ceiling, and
 * at most `parallel` paid credits in flight).
 */
import { closeSync, existsSync, readFileSync, renameSync, writeSync } from "node:fs";
import { written } from "./disk.ts";
import { sendHttp } from "./send-http.ts";
import * as z from "zod/mini";
import type { AsyncDriver } from "../shared/core/index.ts";
import { readPart } from "../shared/core/index.ts";
import type { HttpRequest, HttpResponse } from "../shared/core/index.ts";
import type { AimdLimiter } from "../shared/core/index.ts";
import { limitedHttp } from "../shared/web/index.ts";
import { openPrivate, writePrivate } from "./private-file.ts";

export interface NodeDriverOptions {
  timeoutMs?: number;
  /** Largest number of cached answers kept (oldest dropped first). */
  cacheEntries?: number;
  /** Largest total size of the cached answers in UTF-16 code units (oldest dropped first). Default 4 Mi. */
  cacheChars?: number;
  /** File to which answers and cache writes are appended, and from which they are read back at start. */
  journal?: string;
  /** Ceiling of requests in flight, and of credits in flight for paid requests (default DEFAULT_PARALLEL). */
  parallel?: number;
  /** Requests in flight to start with; the limiter grows from it (default 8). */
  initialParallel?: number;
  /**
   * Most paid credits in flight (what a kill -9 can lose), under `parallel` (default `parallel`; see riskCredits);
   * a function when the job's price is known only after the driver is made (read before each request starts).
   */
  riskCredits?: number | (() => number);
  /**
   * Every answer that came from the network (never one replayed from the journal), as it arrives: after the
   * answer is kept in the journal, so that an answer counted as arrived is always one a resume replays.
   */
  onAnswer?: (req: HttpRequest, res: HttpResponse) => void;
  /**
   * Right before a request goes to the network (the CLI's intent journal records what may be charged). The
   * tag it returns (the intent's id) is kept with the answer in the journal and handed to `onKept` on resume.
   */
  beforeSend?: (req: HttpRequest) => string | void;
  /**
   * While the journal is read back: the tag of each answer kept in it. A kill between keeping an answer and
   * `onAnswer` leaves the intent open; this tells its owner the answer arrived (it is replayed, not bought again).
   */
  onKept?: (tag: string) => void;
  /** Which answers are journalled and replayed (default: all but the balance). */
  replayable?: (req: HttpRequest) => boolean;
}

/**
 * Ceiling of requests in flight, and of credits in flight for paid ones.
 * Every answer is journalled as it arrives and Ctrl-C waits for those in
 * flight (drainAll), so only a hard kill can lose what is out at that
 * instant: at most this many credits. 32 keeps a `kill -9` in the middle of
 * a job of 1,000 rows or more (at least about 700 paid credits) under 5 %
 * extra; --parallel / COMPANY_DATA_PARALLEL raises it for users who accept
 * the risk for speed (bench/README.md has the figures).
 */
export const DEFAULT_PARALLEL = 32;

/**
 * The share of a job's estimated credits a `kill -9` may lose at most, whatever `--parallel` (issue 43: ≤ 8 %
 * of what the job is charged; 7 % of the estimate, which is at least what is charged, keeps it under).
 */
export const KILL_RISK_SHARE = 0.07;

/**
 * Paid credits in flight for a job of `jobCredits` (its estimate): 7 % of it, at least DEFAULT_PARALLEL. The
 * limiter ramps to `--parallel` quickly (slow start); a job of 1,000 rows at `--parallel 1000` still keeps
 * a kill in its middle under 8 % extra, and a job of 100,000 rows gets the whole ceiling.
 */
export const riskCredits = (jobCredits: number): number =>
  Math.max(DEFAULT_PARALLEL, Math.ceil((Math.round(KILL_RISK_SHARE * 100) * Math.max(0, jobCredits)) / 100));
export const DEFAULT_CACHE_CHARS = 4 * 1024 * 1024;

/** The journal holds no secret: the key travels only in headers, which are not part of the signature. */
const signature = (r: HttpRequest) => `${r.method} ${r.url}\n${r.body ?? ""}`;
/**
 * A journal line: a cache entry (key, value, expiry) or a paid answer to replay.
 * No version of its own: a journal lives only until its run finishes.
 */
const httpResponse: z.ZodMiniType<HttpResponse> = z.object({
  status: z.number(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  networkError: z.optional(z.enum(["timeout", "connection"])),
});
const JOURNAL_LINE = z.union([
  z.object({ s: z.string(), r: httpResponse, t: z.optional(z.string()) }),
  z.object({ k: z.string(), v: z.string(), e: z.number() }),
]);

/** The balance must be asked afresh, never replayed. */
const replayable = (r: HttpRequest) => !/\/v2\/account(\?|$)/.test(r.url);

/** Drivers whose requests are in flight: an interrupted CLI waits for their answers (see drainAll). */
const live = new Set<{ stop(): void; idle(): Promise<void> }>();

/**
 * Start no new request and wait (at most `timeoutMs`) until every request in
 * flight has its answer journalled: Ctrl-C then loses nothing that was paid.
 */
export async function drainAll(timeoutMs: number): Promise<void> {
  const all = [...live];
  for (const d of all) d.stop();
  await Promise.race([Promise.all(all.map((d) => d.idle())), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
}

/** Requests in flight of one driver (its own scope: the registry must not keep a driver's cache alive). */
function tracker() {
  let stopping = false;
  let inflight = 0;
  let idle: (() => void)[] = [];
  const t = {
    stop: () => {
      stopping = true;
    },
    stopped: () => stopping,
    idle: () => (inflight === 0 ? Promise.resolve() : new Promise<void>((r) => idle.push(r))),
    begin: () => {
      if (inflight++ === 0) live.add(t);
    },
    end: () => {
      if (--inflight > 0) return;
      live.delete(t);
      const wake = idle;
      idle = [];
      for (const w of wake) w();
    },
  };
  return t;
}

/**
 * The answer journal's file: appended with one write(2) per answer on a descriptor kept open (an answer used to
 * cost an open, a chmod, a write and a close: issue 43, item 2), rewritten beside it and renamed over it.
 */
function journalFile(file: string) {
  let fd = -1;
  const close = () => {
    if (fd >= 0) closeSync(fd);
    fd = -1;
  };
  return {
    append: (text: string) =>
      written(file, () => {
        if (fd < 0) fd = openPrivate(file, "a");
        writeSync(fd, text);
      }),
    replace: (text: string) => {
      close();
      written(file, () => writePrivate(file + ".tmp", text));
      renameSync(file + ".tmp", file);
    },
    close,
  };
}

/** The answer cache: at most `cap` entries and `capChars` characters, the oldest dropped first. */
function answerCache(cap: number, capChars: number) {
  const cache = new Map<string, { value: string; expires: number }>();
  let chars = 0;
  const drop = (k: string) => {
    const old = cache.get(k);
    if (!old) return;
    chars -= k.length + old.value.length;
    cache.delete(k);
  };
  const put = (k: string, value: string, expires: number) => {
    drop(k);
    if (k.length + value.length > capChars) return;
    cache.set(k, { value, expires });
    chars += k.length + value.length;
    while (cache.size > cap || chars > capChars) drop(cache.keys().next().value as string);
  };
  return { cache, put };
}

/** An earlier run's journal: its answers to replay (their tags kept, `onKept`) and its cache entries. */
function readJournal(
  journal: string,
  replay: Map<string, HttpResponse>,
  put: (k: string, value: string, expires: number) => void,
  onKept: NodeDriverOptions["onKept"],
): void {
  if (!existsSync(journal)) return;
  // A torn last line from a kill, or a line that does not fit, is ignored.
  for (const line of readFileSync(journal, "utf8").split("\n")) {
    if (!line) continue;
    const entry = readPart(JOURNAL_LINE, line);
    if (!entry) continue;
    if ("s" in entry) {
      replay.set(entry.s, entry.r);
      if (entry.t) onKept?.(entry.t);
    } else put(entry.k, entry.v, entry.e);
  }
}

export function nodeDriver(
  opts: NodeDriverOptions = {},
): AsyncDriver & { clearJournal(all?: boolean): void; closeJournal(): void; limiter: AimdLimiter } {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const { cache, put } = answerCache(opts.cacheEntries ?? 20_000, opts.cacheChars ?? DEFAULT_CACHE_CHARS);
  const store = new Map<string, string>();
  const replay = new Map<string, HttpResponse>();
  const parallel = Math.max(1, Math.floor(opts.parallel ?? DEFAULT_PARALLEL));
  const flight = tracker();
  const journal = opts.journal ? journalFile(opts.journal) : null;
  const net = limitedHttp(
    async (r) => {
      const tag = opts.beforeSend?.(r);
      flight.begin();
      try {
        const sent = await sendHttp(r, { timeoutMs });
        const res: HttpResponse = sent.left || sent.res.status !== 0 ? sent.res : { ...sent.res, unsent: true };
        // Kept first, then counted as arrived: a kill in between leaves an intent whose answer the journal holds
        // (onKept closes it on resume), never one counted as arrived that the resume would buy again.
        if (journal && res.status >= 200 && res.status < 300 && (opts.replayable ?? replayable)(r))
          journal.append(
            JSON.stringify(tag ? { s: signature(r), r: res, t: tag } : { s: signature(r), r: res }) + "\n",
          );
        opts.onAnswer?.(r, res);
        return res;
      } finally {
        flight.end();
      }
    },
    { ceiling: parallel, initial: opts.initialParallel, creditCeiling: opts.riskCredits, stopped: flight.stopped },
  );
  if (opts.journal) readJournal(opts.journal, replay, put, opts.onKept);
  return {
    http: (reqs) =>
      Promise.all(
        reqs.map((r) => {
          const sig = signature(r);
          const replayed = replay.get(sig);
          if (replayed) {
            replay.delete(sig);
            return Promise.resolve(replayed);
          }
          return net.send(r);
        }),
      ),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    cacheGet: async (keys) =>
      keys.map((k) => {
        const hit = cache.get(k);
        return hit && hit.expires > Date.now() ? hit.value : null;
      }),
    cachePut: async (entries, ttl) => {
      const expires = Date.now() + ttl * 1000;
      let lines = "";
      for (const [k, v] of Object.entries(entries)) {
        put(k, v, expires);
        if (opts.journal) lines += JSON.stringify({ k, v, e: expires }) + "\n";
      }
      if (journal && lines) journal.append(lines);
    },
    storeGet: async (keys) => keys.map((k) => store.get(k) ?? null),
    storePut: async (entries) => {
      for (const [k, v] of Object.entries(entries)) v === null ? store.delete(k) : store.set(k, v);
    },
    limiter: net.limiter,
    // Answers journalled by an earlier run and not asked for again yet stay (at most the requests of the chunk
    // that run did not finish), unless `all`: a run that starts over on a changed input may still ask them later.
    clearJournal: (all = false) => {
      if (all) replay.clear();
      // Written beside it, then renamed over it: a full disk leaves the journal as it was, never half cut.
      journal?.replace([...replay].map(([s, r]) => JSON.stringify({ s, r }) + "\n").join(""));
    },
    closeJournal: () => journal?.close(),
  };
}
