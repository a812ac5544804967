/**
 * What the service hosts (the MCP server, the reconciliation service, the
 * team server) share in their settings: where they listen unless told
 * otherwise (this machine only), the loopback test that decides whether a
 * token is required, the HTTP defaults of a session host, and the per-run
 * budget of credits with its wording. Apart from the servers, so that a
 * host's configuration reads them without importing a server.
 */
import { isLoopbackHost } from "../shared/api/index.ts";
import { invalid } from "../shared/core/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got } from "../shared/i18n/index.ts";

/** Loopback only unless asked otherwise: a service spends the key's credits for whoever can reach it. */
export const DEFAULT_HOST = "127.0.0.1";

/** Defaults of --max-sessions and --session-idle (seconds): a few clients of one person, a working session's pause. */
export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_SESSION_IDLE_SECONDS = 30 * 60;

/** Is this host name or address this machine only? A URL's host (shared/api), or a listen address ("::1"). */
export const isLoopback = (host: string) => host === "::1" || isLoopbackHost(host);

/** Credits a service run may spend when neither --budget nor COMPANY_DATA_BUDGET says otherwise. */
export const DEFAULT_BUDGET = 100;

/** `none` (no limit) or a whole number of credits ≥ 0; empty = DEFAULT_BUDGET. */
export function parseBudget(v: string | undefined, field: string): number | null {
  if (v === undefined || v.trim() === "") return DEFAULT_BUDGET;
  if (v.trim().toLowerCase() === "none") return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw invalid(field, got({ de: "eine ganze Zahl ≥ 0 oder none", en: "a whole number ≥ 0 or none" }, v));
  return n;
}

/** A process's own budget (directly against the API), as a service's banner and answers say it. */
export const budgetText = (b: { limit: number | null; spent: number; remaining: number | null }, lang: Language) =>
  b.limit === null
    ? lang === "de"
      ? `Budget: unbegrenzt, ${b.spent} verbraucht.`
      : `Budget: unlimited, ${b.spent} spent.`
    : lang === "de"
      ? `Budget: ${b.spent} von ${b.limit} verbraucht, ${b.remaining} übrig.`
      : `Budget: ${b.spent} of ${b.limit} spent, ${b.remaining} left.`;
