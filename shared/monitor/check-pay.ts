/**
 * Step 3 of the portfolio check, one window of rows: pay for the window's
 * companies (all calls in one parallel batch), append their new changes to the
 * change log (deduplicated by line key), note news for the alert outboxes,
 * and save the new watermarks. The window's rows are written after it
 * (check-write.ts). A per-run budget defers the companies that would exceed
 * it; a failed call leaves its company to do (or an error row) and keeps what
 * was paid before the failure, so a continued run never pays for it twice.
 *
 * Financials ride on the profile (include=financials, 1 + 4) rather than a
 * separate call (4) because a company needing financials always needs its
 * profile too: same credits, one request fewer.
 */
import type { Company } from "../api/index.ts";
import { all, type Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import { getChanges, getProfiles, type Availability, type ChangesResult } from "../operations/index.ts";
import { movesOf, noteNews } from "./alerts.ts";
import { appendNew, logLine, type LogLine } from "./changelog.ts";
import type { PortfolioProgress, Priced } from "./check-progress.ts";
import type { Row } from "./check-read.ts";
import { CHANGES_PAGE, type PlanItem } from "./check-types.ts";
import { screen } from "./risk.ts";
import { laterOf, saveStates, type CompanyState, type StoredResult } from "./watermark.ts";

/** What one call of the check brings to each of its windows. */
export interface WindowRun {
  /** The context without cache (monitoring needs today's answers), counting spend and requests. */
  fresh: OpContext;
  /** The caller's context: the alert outboxes are the document's. */
  ctx: OpContext;
  runId: string;
  progress: PortfolioProgress;
  /** Every company's stored state; a window's saved states replace their entries. */
  states: Map<string, CompanyState | null>;
  /** Names from the table, for change lines of a company without a profile at hand. */
  nameOf: ReadonlyMap<string, string>;
  /** The change log: its sheet and the line keys it already holds. */
  log: { name: string; keys: Set<string> };
  budget: number | null;
  /** Credits of the run so far (its earlier calls and this one): the budget counts the whole run. */
  runSpent: () => number;
  alerts: readonly string[];
  nowIso: () => string;
}

/** What a window did besides moving its companies' states. */
export interface WindowTally {
  /** A company finished, or paid work was kept: the run is not stalled. */
  progressed: boolean;
  newChanges: number;
  /** Pages of changes beyond the first (1 credit each), the only spend the plan cannot know. */
  extraChangePages: number;
}

/** The companies a window pays for: its priced companies not met in an earlier window of this call, in table order. */
export function windowCompanies(progress: PortfolioProgress, rows: readonly Row[]): string[] {
  return [...new Set(rows.flatMap((r) => (r.id && progress.todo(r.id) ? [r.id] : [])))];
}

export function* payWindow(w: WindowRun, ids: readonly string[]): Operation<WindowTally> {
  const { priced, pay } = budgeted(w, ids);
  const paid = yield* fetchPaid(w, pay);
  // New change lines first, watermarks after: a crash in between re-fetches, and the line keys keep the log single.
  const { newLines, appended } = yield* logChanges(w, paid);
  const tally: WindowTally = { progressed: false, newChanges: 0, extraChangePages: 0 };
  const now = w.nowIso();
  const updated = new Map<string, CompanyState>();
  for (const [id, item] of priced) settleCompany(w, id, item, paid, appended, now, tally, updated);
  if (w.alerts.length && updated.size)
    yield* noteNews(w.ctx, w.alerts, {
      moves: movesOf(w.states, updated, new Set(newLines.map((l) => String(l.row[1])))),
    });
  if (updated.size) yield* saveStates(w.ctx, updated);
  for (const [id, s] of updated) w.states.set(id, s);
  return tally;
}

/** The window's priced companies, and what is paid for: in table order, whatever would go over the budget is deferred. */
function budgeted(w: WindowRun, ids: readonly string[]): { priced: Map<string, Priced>; pay: PlanItem[] } {
  const { progress } = w;
  const priced = new Map<string, Priced>();
  for (const id of ids) {
    const p = progress.todo(id);
    if (p) priced.set(id, p);
  }
  // Once over the budget (or stopped), all further paid work is deferred.
  const pay: PlanItem[] = [];
  for (const [id, { avail, plan }] of priced) {
    if (plan.credits === 0) continue;
    if (
      progress.stopped ||
      progress.count("deferred") > 0 ||
      (w.budget !== null && w.runSpent() + pay.reduce((s, x) => s + x.credits, 0) + plan.credits > w.budget)
    )
      progress.set(id, { kind: "deferred", avail, plan });
    else pay.push(plan);
  }
  return { priced, pay };
}

interface Paid {
  profiles: Map<string, Company | CompanyDataError>;
  changes: Map<string, ChangesResult | CompanyDataError>;
}

/** The window's paid calls, all in one parallel batch; a failure is a value per company. */
function* fetchPaid(w: WindowRun, pay: readonly PlanItem[]): Operation<Paid> {
  const plain = pay.filter((p) => p.profile && !p.financials).map((p) => p.id);
  const withFin = pay.filter((p) => p.financials).map((p) => p.id);
  const changesOf = pay.filter((p) => p.changes);
  const results = (yield* all<unknown>([
    getProfiles(w.fresh, plain),
    getProfiles(w.fresh, withFin, ["financials"]),
    // A company with changes to fetch has been checked before: its state (and watermark) is there.
    ...changesOf.map((p) => catching(getChanges(w.fresh, p.id, w.states.get(p.id)!.wm, CHANGES_PAGE))),
  ])) as [
    Map<string, Company | CompanyDataError>,
    Map<string, Company | CompanyDataError>,
    ...(ChangesResult | CompanyDataError)[],
  ];
  const changes = new Map<string, ChangesResult | CompanyDataError>(
    changesOf.map((p, k) => [
      p.id,
      (results[2 + k] as ChangesResult | CompanyDataError | undefined) ?? new CompanyDataError("INTERNAL"),
    ]),
  );
  return { profiles: new Map([...results[0], ...results[1]]), changes };
}

/** The new changes into the alert outboxes, then into the log; answers the news and the lines appended per company. */
function* logChanges(w: WindowRun, paid: Paid): Operation<{ newLines: LogLine[]; appended: Map<string, number> }> {
  const lines: LogLine[] = [];
  for (const [id, c] of paid.changes) {
    if (c instanceof CompanyDataError) continue;
    const prof = paid.profiles.get(id);
    const name =
      prof && !(prof instanceof CompanyDataError)
        ? (prof.name ?? null)
        : (w.states.get(id)?.name ?? w.nameOf.get(id) ?? null);
    for (const ch of c.changes) lines.push(logLine(id, name, ch));
  }
  // News goes to the alert outbox before the log has it: a line in the log is never news again.
  const newLines = w.alerts.length ? lines.filter((l) => !w.log.keys.has(l.key)) : [];
  if (newLines.length) yield* noteNews(w.ctx, w.alerts, { changes: newLines });
  const appended = lines.length ? yield* appendNew(w.log.keys, lines, w.log.name) : new Map<string, number>();
  return { newLines, appended };
}

/** One company's outcome of the window: its progress, its tally, and its new state (into `updated`). */
function settleCompany(
  w: WindowRun,
  id: string,
  { avail: a, plan: p }: Priced,
  paid: Paid,
  appended: Map<string, number>,
  now: string,
  tally: WindowTally,
  updated: Map<string, CompanyState>,
): void {
  const { progress } = w;
  const st = w.states.get(id) ?? null;
  if (progress.is(id, "deferred")) return;
  if (p.credits === 0) {
    // Nothing can have changed: keep the result, move the watermark up to now
    // (availability dates the last change before the watermark's day). Only a company checked before costs nothing.
    updated.set(id, {
      ...st!,
      wm: laterOf(st!.wm, now),
      lastChange: a.lastChangeDate ?? st!.lastChange,
      checkedAt: now,
      run: w.runId,
      newChanges: 0,
    });
    progress.set(id, { kind: "unchanged", avail: a, plan: p });
    tally.progressed = true;
    return;
  }
  const prof = p.profile ? paid.profiles.get(id) : undefined;
  const ch = p.changes ? paid.changes.get(id) : undefined;
  const profErr = prof instanceof CompanyDataError ? prof : undefined;
  const profile = prof instanceof CompanyDataError ? undefined : prof;
  const chErr = ch instanceof CompanyDataError ? ch : undefined;
  const c = ch instanceof CompanyDataError ? undefined : ch;
  let wm = st ? st.wm : now;
  if (c) {
    for (const x of c.changes) wm = laterOf(wm, x.date);
    // getChanges pages to the end; only if it had to stop early does the watermark stay at the newest entry.
    if (c.complete) wm = laterOf(wm, c.until ?? now);
    // The plan priced one page per company: more than CHANGES_PAGE new changes cost a credit per extra page.
    tally.extraChangePages += c.pages - 1;
  }
  const failure = profErr ?? chErr;
  if (failure) {
    progress.settle(id, failure);
    // Keep what was paid for, so a continued run never pays for it twice.
    if (st && c && profErr) {
      // Changes logged, profile failed: the watermark moves, the profile is owed.
      updated.set(id, {
        ...st,
        wm,
        lastChange: a.lastChangeDate ?? st.lastChange,
        needProfile: true,
        newChanges: appended.get(id) ?? 0,
      });
      tally.newChanges += appended.get(id) ?? 0;
      tally.progressed = true;
    } else if (st && profile && chErr) {
      // Profile fetched, changes failed: keep the new screening, the watermark stays; this run owes only the changes.
      updated.set(id, { ...stateFrom(profile, p, a, st, st.wm, now, st.run, st.newChanges), profiledRun: w.runId });
      tally.progressed = true;
    }
    return;
  }
  updated.set(id, stateFrom(profile, p, a, st, wm, now, w.runId, appended.get(id) ?? 0));
  progress.set(id, { kind: "checked", avail: a, plan: p });
  tally.newChanges += appended.get(id) ?? 0;
  tally.progressed = true;
}

/** A company's state after its paid calls; a profile not refetched keeps the stored screening. */
function stateFrom(
  profile: Company | undefined,
  p: PlanItem,
  a: Availability,
  st: CompanyState | null,
  wm: string,
  now: string,
  run: string,
  newChanges: number,
): CompanyState {
  let result: StoredResult;
  if (!profile)
    result = st!.result; // no profile was due, so the company was checked before
  else {
    const financials = p.financials ? (profile.financials ?? []) : null;
    // Figures not refetched are the stored ones (same years as last time).
    const kf = st?.result.keyFigure;
    const years = a.financialYears ?? [];
    const screened =
      financials !== null || !st
        ? screen(profile, financials)
        : screen(
            profile,
            kf
              ? [{ year: kf.year, profit: kf.netIncome, revenue: kf.revenue }]
              : years.length
                ? [{ year: Math.max(...years), profit: null }]
                : null,
          );
    result = {
      group: screened.group,
      code: screened.flag.code,
      text: screened.flag.text,
      keyFigure: screened.keyFigure,
    };
  }
  return {
    v: 1,
    wm,
    lastChange: a.lastChangeDate ?? profile?.lastChangeDate ?? st?.lastChange ?? null,
    // Without a new profile the financial years stay those the stored screening is based on.
    finYears: profile ? [...(a.financialYears ?? [])].sort((x, y) => x - y) : st!.finYears,
    name: profile?.name ?? st?.name ?? null,
    result,
    checkedAt: now,
    run,
    newChanges,
  };
}

/** A getter that throws becomes a value, so one company's failure never fails the window. */
function* catching<T>(op: Operation<T>): Operation<T | CompanyDataError> {
  try {
    return yield* op;
  } catch (e) {
    return e instanceof CompanyDataError ? e : new CompanyDataError("INTERNAL");
  }
}
