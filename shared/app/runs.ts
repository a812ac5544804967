/**
 * The Runs view's methods (shared/undo/): the document's audited runs, and
 * the undo of one. An undo writes only what the run wrote (cells changed
 * since are kept and listed), is itself a run, and refunds no credits.
 *
 *   auditRuns            runs newest first, the audit's size and limits
 *   undoRun {run}        take run `run` back; a second call answers the first undo's result
 */
import type { Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { listRuns, undoRun, type RunsView, type UndoResult } from "../undo/index.ts";
import { record } from "./input.ts";
import type { AppDeps } from "./protocol.ts";

export function* auditRunsMethod(_deps: AppDeps, _input: unknown): Operation<RunsView> {
  return yield* listRuns();
}

export function* undoRunMethod(deps: AppDeps, input: unknown): Operation<UndoResult> {
  const run = record(input).run;
  if (typeof run !== "string" || !run || run.length > 100)
    throw invalid("run", { de: "kein Lauf angegeben", en: "no run given" });
  return yield* undoRun(run, { who: deps.who ?? "", now: deps.now });
}
