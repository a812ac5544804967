/**
 * Step 2 of the portfolio check: what each company needs and costs. The free
 * availability endpoint carries the last change date and the financial years,
 * which decide per company what must be paid for:
 *   first check                 → profile (+ financials if any exist)
 *   last change on/after the wm → profile + changes since the watermark
 *   new financial year          → profile with financials
 *   otherwise                   → nothing (the stored result is shown)
 * The sum is the run's exact price, known before a credit is spent.
 */
import type { Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import { getAvailability, type Availability } from "../operations/index.ts";
import { PortfolioProgress } from "./check-progress.ts";
import type { PlanItem } from "./check-types.ts";
import { planCredits, type PortfolioPlanned } from "./estimate.ts";
import { changedSince, financialsChanged, type CompanyState } from "./watermark.ts";

/** Availability calls per parallel batch (a rate-limited endpoint). */
const AVAILABILITY_GROUP = 25;

export function planFor(id: string, a: Availability, st: CompanyState | null, runId: string): PlanItem {
  const hasFin = a.financials === true && (a.financialYears?.length ?? 0) > 0;
  let item: Omit<PlanItem, "credits">;
  if (!st) item = { id, profile: true, financials: hasFin, changes: false };
  else {
    const changed = changedSince(a.lastChangeDate, st.wm);
    const fin = hasFin && financialsChanged(st.finYears, a.financialYears);
    // This run already holds the profile (its changes call failed): only the changes are still to pay.
    const profile = (changed || fin || st.needProfile === true) && st.profiledRun !== runId;
    item = { id, profile, financials: profile && fin, changes: changed };
  }
  return {
    ...item,
    credits: planCredits({
      availability: 0,
      profiles: item.profile && !item.financials ? 1 : 0,
      profilesWithFinancials: item.financials ? 1 : 0,
      changes: item.changes ? 1 : 0,
    }),
  };
}

function tally(items: Iterable<PlanItem>, availability: number): PortfolioPlanned {
  const p: PortfolioPlanned = { kind: "portfolio", availability, profiles: 0, profilesWithFinancials: 0, changes: 0 };
  for (const i of items) {
    if (i.profile && !i.financials) p.profiles++;
    if (i.financials) p.profilesWithFinancials++;
    if (i.changes) p.changes++;
  }
  return p;
}

export interface PortfolioPlan {
  progress: PortfolioProgress;
  planned: PortfolioPlanned;
  /** Exact price of the plan (the priced companies). */
  estimate: number;
  /** Companies whose availability lists financial years (what a schedule's ceiling counts). */
  withFinancials: number;
}

/**
 * Asks availability for every company this run has not finished yet and
 * prices each; a company whose availability call failed is settled (left to
 * do, an error, or not found) and has no price.
 * @param fresh the context without cache: monitoring needs today's answers.
 */
export function* planPortfolio(
  fresh: OpContext,
  ids: readonly string[],
  states: ReadonlyMap<string, CompanyState | null>,
  runId: string,
  final: boolean,
): Operation<PortfolioPlan> {
  const progress = new PortfolioProgress(final);
  const todo: string[] = [];
  for (const id of ids) {
    if (states.get(id)?.run === runId) progress.set(id, { kind: "earlier" });
    else todo.push(id);
  }
  const avail = new Map<string, Availability | CompanyDataError>();
  for (let i = 0; i < todo.length; i += AVAILABILITY_GROUP) {
    const part = yield* getAvailability(fresh, todo.slice(i, i + AVAILABILITY_GROUP));
    for (const [id, a] of part) avail.set(id, a);
  }
  const items: PlanItem[] = [];
  let withFinancials = 0;
  for (const id of todo) {
    const a = avail.get(id) ?? new CompanyDataError("INTERNAL");
    if (a instanceof CompanyDataError) {
      progress.settle(id, a);
      continue;
    }
    const plan = planFor(id, a, states.get(id) ?? null, runId);
    progress.set(id, { kind: "todo", avail: a, plan });
    items.push(plan);
    if (a.financials === true && (a.financialYears?.length ?? 0) > 0) withFinancials++;
  }
  const planned = tally(items, todo.length);
  return { progress, planned, estimate: planCredits(planned), withFinancials };
}
