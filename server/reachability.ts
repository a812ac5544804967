/**
 * Whether the API answers, as this process knows it. At start one free probe
 * (GET /v2/account, 0 credits) says so in one line on stdout (event `api`:
 * its address, whether it answered, the status). A paid request that
 * provably never left for want of the API (refused, unresolved, TLS failed,
 * no connection within the timeout) makes it down once a probe confirms; while it is down, paid
 * requests are answered 503 with Retry-After before anything is reserved,
 * and a free probe runs every PROBE_EVERY_MS until the API answers again
 * (any HTTP status counts: it answered). A failed connection is confirmed by
 * a probe at once before the API counts as down (one blip is no outage).
 * Each process learns for itself.
 */
import type { Logger } from "./log.ts";
import type { Upstream } from "./upstream.ts";

export const PROBE_EVERY_MS = 3_000;
const PROBE_TIMEOUT_MS = 5_000;

export interface Reachability {
  /** Null while the API answers; else the seconds until the next probe (a Retry-After). */
  refusal(): number | null;
  /** A request found no connection: a probe at once confirms it (one at a time), and then it is down until a probe answers. */
  lost(): Promise<void>;
  stop(): void;
}

/** The address as it may be shown: scheme, host, port and path, never credentials or a query. */
export function shownAddress(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
  } catch {
    return "(invalid address)";
  }
}

export async function startReachability(
  upstream: Upstream,
  baseUrl: string,
  log: Logger,
  everyMs = PROBE_EVERY_MS,
): Promise<Reachability> {
  let down = false;
  let nextProbe = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let confirming: Promise<void> | undefined;
  const url = shownAddress(baseUrl);
  const probe = async (): Promise<number> => upstream.probe(Math.min(PROBE_TIMEOUT_MS, everyMs * 2)).catch(() => 0);
  const schedule = () => {
    if (stopped || timer) return;
    nextProbe = Date.now() + everyMs;
    timer = setTimeout(() => {
      timer = undefined;
      void probe().then((status) => {
        if (status > 0) {
          down = false;
          log.info("api.answers", { url, status });
        } else schedule();
      });
    }, everyMs);
    timer.unref();
  };
  const status = await probe();
  log.info("api", { url, answered: status > 0, status });
  if (status === 0) {
    down = true;
    schedule();
  }
  return {
    refusal: () => (down ? Math.max(1, Math.ceil((nextProbe - Date.now()) / 1000)) : null),
    lost() {
      if (down) return Promise.resolve();
      // One failed connection may be a blip (an overloaded listener): the probe decides.
      confirming ??= probe().then((status) => {
        confirming = undefined;
        if (status > 0 || down) return;
        down = true;
        log.warn("api.unreachable", { url });
        schedule();
      });
      return confirming;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
