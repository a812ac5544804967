/**
 * The portfolio check's public shapes and constants (what callers and the
 * check's modules share): options, the plan of one company, the summary of a
 * call, the run checkpoint and their store keys. A leaf: it imports no part
 * of the check, so the check's modules never import each other in a circle.
 */
import type { PortfolioPlanned } from "./estimate.ts";
import type { Bilingual } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";

export const PORTFOLIO_SHEET = "Portfolio";
/** Changes asked for per company and check (the API's largest page). */
export const CHANGES_PAGE = 100;
/** Rows per window: one block write and one parallel batch of calls each. */
export const DEFAULT_WINDOW_ROWS = 20;
/**
 * Calls in a row that a run continues for failed calls alone (no company
 * finished) before the companies still failing become error rows: a service
 * that keeps failing must not keep a run (and a Sheets trigger) paused forever.
 */
export const MAX_STALLED_CALLS = 3;

export interface CheckOptions {
  sheet?: string;
  /** The change log's sheet; default "Änderungen" (de) / "Changes" (en), an existing one under either name first. */
  changesSheet?: string;
  /** Credits this run may spend; null/undefined = no cap. */
  budget?: number | null;
  /** Epoch ms: no new window starts after it (the host's time limit, minus a margin). */
  deadline?: number;
  windowRows?: number;
  /** Plan and price only: no paid call, nothing written. */
  preview?: boolean;
  /** Alert channels ("email", "webhook") whose outboxes (alerts.ts) take new changes and risk moves for a later delivery. */
  alerts?: readonly string[];
  /**
   * Record every cell the check changes in the document's audit (shared/undo/)
   * as one run by `who` (a paused run's calls append to it); `id` names the
   * run (default: from the check's run id).
   */
  audit?: { who: string; id?: string };
}

export type RunStatus = "done" | "paused" | "budget" | "stopped" | "preview";

export interface PlanItem {
  id: string;
  profile: boolean;
  financials: boolean;
  changes: boolean;
  credits: number;
}

/**
 * Counts of one call. Every entry (a distinct company, or a row whose name did
 * not resolve to one) ends a call as exactly one of: earlier, checked,
 * unchanged, left, errors, notFound, ambiguous — they always add up to
 * `entries`, so no company drops out of a check unseen. A preview counts the
 * same way: `left` is what the run will do (plus what could not be priced).
 */
export interface RunSummary {
  runId: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  /** Distinct companies in the table (after resolution). */
  companies: number;
  /** Distinct companies plus rows whose name did not resolve to a company. */
  entries: number;
  /** Companies that earlier calls of this (continued) run finished. */
  earlier: number;
  /** Companies whose availability lists financial years (what a schedule's ceiling counts). */
  withFinancials: number;
  rows: number;
  /** Companies paid for in this call. */
  checked: number;
  /** Companies where availability showed nothing new (free). */
  unchanged: number;
  ambiguous: number;
  notFound: number;
  errors: number;
  groups: Record<"risk" | "watch" | "none", number>;
  newChanges: number;
  /**
   * Pages of changes beyond the first that companies with more than
   * CHANGES_PAGE new changes needed (1 credit each; see changesPages): the
   * only spend the plan cannot know in advance. spent = estimate + this.
   */
  extraChangePages: number;
  /** Exact price of the plan at the start of this call (what "Check now" shows). */
  estimate: number;
  plan: PortfolioPlanned;
  spent: number;
  /** Credits of the whole run: every call of a run continued after a pause, this one included (what the message says). */
  runSpent: number;
  requests: number;
  /**
   * What is left to do: companies deferred by the budget or a stop, not
   * reached before the time limit, or whose free or paid call failed for a
   * reason a later call can get past (rate limit, network, server); the run
   * pauses and its next call continues with them. `unpriced` of them (and
   * unresolved name rows) had no availability answer: their credits are not
   * in `credits`, except in a preview, where `credits` is the price shown:
   * the exact price of the priced ones plus MAX_ENTRY_CREDITS per unpriced one.
   */
  left: { companies: number; credits: number; unpriced: number };
  message: Bilingual;
}

export const RUN_KEY = (ctx: OpContext) => `doc:mon:${ctx.scope}:run`;
export const LAST_RUN_KEY = (ctx: OpContext) => `doc:mon:${ctx.scope}:last`;

export interface RunCheckpoint {
  id: string;
  startedAt: string;
  sheet: string;
  /** Calls in a row that ended with companies left by failed calls and finished none. */
  stalls?: number;
  /** Credits the run's earlier calls spent (the summary and the per-run budget count the whole run). */
  spent?: number;
}
