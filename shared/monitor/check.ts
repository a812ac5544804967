/**
 * The portfolio check ("Check now", and every scheduled run), sans IO: the
 * run's lifecycle (start or continue, pause, finish) over four steps, each a
 * module with one job:
 *
 *  1. read    (check-read.ts)    the table; names resolved free, ambiguous
 *             ones never guessed (the ID cell gets a dropdown of candidates).
 *  2. plan    (check-plan.ts)    the free availability call decides per
 *             company what must be paid for; the sum is the exact price,
 *             known before a credit is spent.
 *  3. windows (check-pay.ts, check-write.ts) pay for a window's companies
 *             in one parallel batch, log their new changes, save watermarks,
 *             write the window's rows where they are now. A per-run budget
 *             defers what would exceed it; a deadline pauses at a window
 *             boundary and a later call resumes the same run.
 *  4. summary (check-summary.ts) every entry accounted for (see RunSummary),
 *             the status and the bilingual message.
 *
 * Each company's state within a call is one value of a discriminated union
 * (check-progress.ts). A company whose free or paid call failed for a passing
 * reason is left to do and the run pauses, so the next call continues with it
 * (a bounded number of times, then it is an error row); what was paid before
 * the failure is kept, never paid again. The caller records the spend in the
 * ledger (the app session does).
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { got, rule } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import { openLog } from "./changelog.ts";
import { planPortfolio } from "./check-plan.ts";
import { readPortfolio } from "./check-read.ts";
import { finishSummary, previewSummary, startSummary } from "./check-summary.ts";
import {
  DEFAULT_WINDOW_ROWS,
  LAST_RUN_KEY,
  MAX_STALLED_CALLS,
  PORTFOLIO_SHEET,
  RUN_KEY,
  type CheckOptions,
  type RunCheckpoint,
  type RunSummary,
} from "./check-types.ts";
import { payWindow, windowCompanies, type WindowRun } from "./check-pay.ts";
import type { Row } from "./check-read.ts";
import { writeNewHeaders, writeWindow } from "./check-write.ts";
import { isoInstant, loadStates } from "./watermark.ts";
import { readSaved, writeSaved } from "../core/index.ts";
import { LAST_RUN, RUN_STATE } from "./state-schema.ts";
import { auditRun, type RunAudit } from "../undo/index.ts";
import { checkAuditTable, type CheckAudit } from "./check-audit.ts";
import type { Layout } from "./layout.ts";

export {
  CHANGES_PAGE,
  DEFAULT_WINDOW_ROWS,
  LAST_RUN_KEY,
  MAX_STALLED_CALLS,
  PORTFOLIO_SHEET,
  RUN_KEY,
} from "./check-types.ts";
export type { CheckOptions, PlanItem, RunStatus, RunSummary } from "./check-types.ts";

/** The last run's summary (for the sidebar, and Excel's "is a check due"). */
export function* lastRun(ctx: OpContext): Operation<RunSummary | null> {
  const [raw] = yield* storeGet([LAST_RUN_KEY(ctx)]);
  const last: RunSummary | undefined = readSaved(LAST_RUN, raw);
  return last ?? null;
}

export function* checkPortfolio(ctx: OpContext, opts: CheckOptions = {}): Operation<RunSummary> {
  const lang = ctx.client.language;
  const { sheetName, changesSheetOpt, windowRows, budget, preview } = checkedOptions(opts);
  const { fresh, counted } = freshContext(ctx);
  const nowIso = () => isoInstant(ctx.client.now());

  // ---- 1. the run (a continued run counts its stalled calls) and the table
  const [rawRun] = yield* storeGet([RUN_KEY(ctx)]);
  let run: RunCheckpoint | null = readSaved(RUN_STATE, rawRun) ?? null;
  if (run && run.sheet !== sheetName) run = null;
  const resumed = run !== null;
  if (!run) run = { id: `r${ctx.client.now().toString(36)}`, startedAt: nowIso(), sheet: sheetName };
  const runId = run.id;
  const spentBefore = preview ? 0 : (run.spent ?? 0);
  // The last call a run may make for failed calls: what still fails becomes an error row.
  const final = !preview && (run.stalls ?? 0) >= MAX_STALLED_CALLS;

  const { table, layout, keysThen, rows, ids, nameOf } = yield* readPortfolio(ctx, sheetName, final);

  // ---- 2. the plan
  if (!preview && !resumed) yield* storePut({ [RUN_KEY(ctx)]: writeSaved(RUN_STATE, run) });
  const states = yield* loadStates(ctx, ids);
  const { progress, planned, estimate, withFinancials } = yield* planPortfolio(fresh, ids, states, runId, final);
  const summary = startSummary({
    runId,
    startedAt: run.startedAt,
    rows,
    companies: ids.length,
    progress,
    withFinancials,
    estimate,
    planned,
    spentBefore,
  });
  if (preview) return previewSummary(summary, rows, progress);

  // ---- 3. windows
  const audit = opts.audit && auditOf(ctx, opts.audit, runId, sheetName, layout);
  yield* writeNewHeaders(sheetName, layout, audit, table[0]);
  const log = yield* openLog(lang, changesSheetOpt);
  const payRun: WindowRun = {
    fresh,
    ctx,
    runId,
    progress,
    states,
    nameOf,
    log,
    budget,
    runSpent: () => spentBefore + counted.spent,
    alerts: opts.alerts ?? [],
    nowIso,
  };
  const write = { lang, sheetName, layout, table, keysThen, progress, states, audit };
  const done = yield* payWindows(ctx, payRun, write, rows, windowRows, opts.deadline);

  // ---- 4. the summary: every entry is earlier, checked, unchanged, left, an error, not found or ambiguous
  finishSummary(summary, {
    runId,
    ids,
    rows,
    progress,
    states,
    spent: counted.spent,
    spentBefore,
    requests: counted.requests,
    newChanges: done.newChanges,
    extraChangePages: done.extraChangePages,
    budget,
    timeUp: done.timeUp,
  });
  // The audit's run takes this call's credits (and is closed when the check is) in the run's own store write.
  const closing = audit ? yield* audit.rec.finish(counted.spent, summary.status !== "paused") : {};
  yield* closeRun(ctx, run, summary, done, nowIso, closing);
  return summary;
}

/** The check's run in the audit: one run per check (its id from the check's), continued over its calls. */
function auditOf(
  ctx: OpContext,
  opts: NonNullable<CheckOptions["audit"]>,
  runId: string,
  sheetName: string,
  layout: Layout,
): CheckAudit & { rec: RunAudit } {
  const table = checkAuditTable(sheetName, layout);
  const rec = auditRun({
    id: opts.id ?? `m-${runId}`,
    kind: "check",
    who: opts.who,
    now: () => ctx.client.now(),
    table,
  });
  return { rec, table };
}

/** The options, checked (INVALID_INPUT names the field). */
function checkedOptions(opts: CheckOptions) {
  const sheetName = opts.sheet?.trim() || PORTFOLIO_SHEET;
  // No name given: the log in the user's language, or the one kept under the other language's name.
  const changesSheetOpt = opts.changesSheet?.trim() || undefined;
  const windowRows = opts.windowRows ?? DEFAULT_WINDOW_ROWS;
  if (!Number.isInteger(windowRows) || windowRows < 1)
    throw invalid("windowRows", got(rule.number({ value: 1, inclusive: true }, undefined, true), windowRows));
  const budget = opts.budget ?? null;
  if (budget !== null && (!Number.isInteger(budget) || budget < 0))
    throw invalid("budget", got(rule.number({ value: 0, inclusive: true }, undefined, true, "Credits"), budget));
  return { sheetName, changesSheetOpt, windowRows, budget, preview: opts.preview === true };
}

/** Monitoring needs today's answers: no cache for availability, profiles and changes; spend and requests counted. */
function freshContext(ctx: OpContext): { fresh: OpContext; counted: { spent: number; requests: number } } {
  const counted = { spent: 0, requests: 0 };
  const fresh: OpContext = {
    ...ctx,
    cacheTtlSeconds: 0,
    client: {
      ...ctx.client,
      onSpend: (ep, c) => {
        counted.spent += c;
        ctx.client.onSpend?.(ep, c);
      },
      onRequest: (ep) => {
        counted.requests++;
        ctx.client.onRequest?.(ep);
      },
    },
  };
  return { fresh, counted };
}

interface WindowsDone {
  progressed: boolean;
  newChanges: number;
  extraChangePages: number;
  timeUp: boolean;
}

/** Pay and write window after window, until the rows or the time (the deadline, checked between windows) run out. */
function* payWindows(
  ctx: OpContext,
  payRun: WindowRun,
  write: Parameters<typeof writeWindow>[0],
  rows: readonly Row[],
  windowRows: number,
  deadline: number | undefined,
): Operation<WindowsDone> {
  const done: WindowsDone = { progressed: false, newChanges: 0, extraChangePages: 0, timeUp: false };
  const { progress } = payRun;
  let worked = false;
  for (let w = 0; w < rows.length; w += windowRows) {
    // At least one window per call, so a call that spent its time on the free checks still moves on.
    if (deadline !== undefined && worked && ctx.client.now() >= deadline) {
      done.timeUp = true;
      break;
    }
    const windowRowsList = rows.slice(w, w + windowRows);
    const windowIds = windowCompanies(progress, windowRowsList);
    // A resumed run skips windows it finished before the pause.
    if (
      windowRowsList.every((r) => r.kind === "empty" || (r.id !== null && progress.is(r.id, "earlier") && !r.writeId))
    )
      continue;
    worked = true;
    const tally = yield* payWindow(payRun, windowIds);
    done.progressed ||= tally.progressed;
    done.newChanges += tally.newChanges;
    done.extraChangePages += tally.extraChangePages;
    yield* writeWindow(write, windowRowsList);
  }
  return done;
}

/** A paused run keeps its checkpoint (stalls, spend so far); a finished one is cleared and kept as the last run. */
function* closeRun(
  ctx: OpContext,
  run: RunCheckpoint,
  summary: RunSummary,
  done: WindowsDone,
  nowIso: () => string,
  audit: Record<string, string>,
): Operation<void> {
  // A run paused only by failed calls counts the calls in a row that finished nothing (MAX_STALLED_CALLS).
  if (summary.status === "paused" && !done.timeUp) run.stalls = done.progressed ? 0 : (run.stalls ?? 0) + 1;
  // A paused run carries what it spent so far into its next call.
  if (summary.status === "paused")
    yield* storePut({ ...audit, [RUN_KEY(ctx)]: writeSaved(RUN_STATE, { ...run, spent: summary.runSpent }) });
  else {
    summary.finishedAt = nowIso();
    yield* storePut({ ...audit, [RUN_KEY(ctx)]: null, [LAST_RUN_KEY(ctx)]: writeSaved(LAST_RUN, summary) });
  }
}
