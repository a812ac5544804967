/**
 * "A job is running in this document": a marker in the document's state
 * (the add-on's state sheet, doc-state.ts, where a time-driven trigger and
 * every editor's sidebar see it) instead of the document lock held across
 * a whole step.
 *
 * A sidebar step or a scheduled check works for up to 280 s. Holding
 * LockService's document lock that long made every paid formula of the
 * document wait up to 5 s for its budget reservation and then go on
 * unprotected. Now the lock is taken only for the moment it takes to read and
 * write this marker (and, in custom functions, the budget); the marker keeps
 * a second run out. It expires by itself after the longest an execution can
 * live (6 minutes, https://developers.google.com/apps-script/guides/services/quotas
 * "Script runtime"), so a run the platform killed never blocks the document.
 *
 * LockService.getDocumentLock() is null outside a containing document
 * (https://developers.google.com/apps-script/reference/lock/lock-service#getDocumentLock():
 * "if this method is called outside of the context of a containing document
 * … null is returned"), e.g. in a time-driven trigger: the marker is then
 * written without the lock; two writers in the same millisecond are the
 * only race left, and the run that reads back someone else's token stops.
 */
import * as z from "zod/mini";
import { readSaved, savedKind, writeSaved } from "../shared/core/index.ts";
import { HostError } from "./quota.ts";
import type { KeyValues } from "./doc-state.ts";

/**
 * Where the marker is: a store written at once, or the execution's state
 * session (state-session.ts), which reads the sheet again under the lock
 * (`refresh`) and writes at `flush`.
 */
type Props = KeyValues & {
  refresh?(): void;
  flush?(lockedSinceRead: boolean): void;
  deleteIfStill?(key: string, value: string): void;
};
type Lock = GoogleAppsScript.Lock.Lock;

export const RUN_MARKER_KEY = "companyData.running";
/** Apps Script stops an execution after 6 minutes; a marker older than that belongs to a dead run. */
export const RUN_MARKER_TTL_MS = 6 * 60_000;
/** How long a run waits for the short lock around the marker. */
const MARKER_LOCK_WAIT_MS = 3_000;

export const BUSY = {
  de: "In dieser Tabelle läuft gerade schon ein Vorgang (Anreicherung oder Prüfung des Portfolios). Bitte in ein paar Minuten erneut versuchen.",
  en: "Another run (an enrichment or a portfolio check) is working on this spreadsheet. Please try again in a few minutes.",
} as const;

interface Marker {
  token: string;
  until: number;
  job?: string;
}

const markerShape: z.ZodMiniType<Marker> = z.object({
  token: z.string(),
  until: z.number(),
  job: z.optional(z.string()),
});
/**
 * Written without a version before v1: still read, or a run started by the
 * previous build during an update would be run over by a second one.
 */
export const RUN_MARKER = savedKind(1, markerShape, markerShape);

function read(props: Props): Marker | null {
  return readSaved(RUN_MARKER, props.read([RUN_MARKER_KEY])[0]) ?? null;
}

/** Runs `body` under the lock when it can be had; answers whether it was. */
function withShortLock(lock: Lock | null, body: (held: boolean) => void): boolean {
  const held = lock ? lock.tryLock(MARKER_LOCK_WAIT_MS) : false;
  try {
    body(held);
  } finally {
    if (held) lock!.releaseLock();
  }
  return held;
}

/**
 * Claim the document for one run; throws BUSY while another unexpired run
 * holds it. Answers the token to release with. `job` names a resumable job
 * (an enrichment's steps): its next step takes over a marker the same job
 * left, as the step before was stopped by the platform without releasing
 * it (its sidebar calls steps one after another, never two at once).
 */
export function claimRun(
  props: Props,
  lock: Lock | null,
  now: number,
  job?: string,
  random: () => number = Math.random,
): string {
  const token = `${now.toString(36)}-${Math.floor(random() * 2 ** 40).toString(36)}`;
  const mine = writeSaved(RUN_MARKER, { token, until: now + RUN_MARKER_TTL_MS, ...(job ? { job } : {}) });
  const locked = withShortLock(lock, (held) => {
    props.refresh?.();
    const other = read(props);
    if (other && other.until > now && !(job && other.job === job)) throw new HostError(BUSY, "run");
    props.write({ [RUN_MARKER_KEY]: mine });
    props.flush?.(held);
  });
  if (locked) return token;
  // Without a lock, the last writer wins: the one that lost sees another token and stops. A claim under the
  // lock appends its row (state-session.ts), so the loser's row may still stand above it: it takes it away.
  props.refresh?.();
  if (read(props)?.token === token) return token;
  if (props.deleteIfStill && props.flush) {
    props.deleteIfStill(RUN_MARKER_KEY, mine);
    props.flush(false);
  }
  throw new HostError(BUSY, "run");
}

/**
 * How long an undo waits for a run that holds the document (a scheduled
 * refresh or check step of the same sheet, at most 280 s), and how often it
 * looks: the undo's own step (280 s) still fits Apps Script's 6 minutes after it.
 */
export const UNDO_WAIT_MS = 60_000;
const WAIT_POLL_MS = 2_000;

/**
 * claimRun, waiting up to `waitMs` for another run to end (its marker gone
 * or expired), looking every WAIT_POLL_MS; then BUSY as claimRun says it.
 */
export function claimRunWaiting(
  props: Props,
  lock: Lock | null,
  clock: { now: () => number; sleep: (ms: number) => void },
  waitMs: number,
  job?: string,
): string {
  const until = clock.now() + waitMs;
  for (;;) {
    try {
      return claimRun(props, lock, clock.now(), job);
    } catch (e) {
      if (!(e instanceof HostError) || clock.now() + WAIT_POLL_MS > until) throw e;
      clock.sleep(WAIT_POLL_MS);
    }
  }
}

/**
 * Release the claim if it is still ours (an expired one may have been taken
 * over). A state session checks that when it writes, under the lock it
 * takes for its last flush, together with this execution's pending state.
 */
export function releaseRun(props: Props, lock: Lock | null, token: string): void {
  if (props.deleteIfStill && props.flush) {
    const [raw] = props.read([RUN_MARKER_KEY]);
    if (raw && readSaved(RUN_MARKER, raw)?.token === token) props.deleteIfStill(RUN_MARKER_KEY, raw);
    return props.flush(false);
  }
  withShortLock(lock, () => {
    if (read(props)?.token === token) props.write({ [RUN_MARKER_KEY]: null });
  });
}
