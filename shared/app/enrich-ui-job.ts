/**
 * The UI's record of an enrichment run, saved in the document's store
 * between calls: which block it is about, what it spent so far, whether it
 * finished, and where a large run stands in its second confirmation. The
 * job in shared/enrich keeps the rows' progress (its checkpoint and the
 * sheet); this is only what the UI must remember besides.
 */
import { storeGet, storePut, invalid, type Operation } from "../core/index.ts";
import { ERROR_CODES, readSaved, savedBilingual, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import type { SheetJobSpec } from "../enrich/index.ts";
import type { errorView } from "./errors.ts";
import { contextFromSettings, loadSettings } from "./settings.ts";
import { record, text } from "./input.ts";
import type { AppDeps } from "./protocol.ts";

export interface UiJob {
  spec: SheetJobSpec;
  credits: number;
  finished: boolean;
  /** Stopped for lack of credits: not finished, the next step (after a top-up) continues where it stopped. */
  stoppedForCredits?: boolean;
  lastError: ReturnType<typeof errorView> | null;
  /** A large list (CONFIRM_AFTER_MATCHING): matched first, then bought at the exact price once the user confirms it. */
  confirm?: ConfirmState;
}

export interface ConfirmState {
  /** match: steps match names; waiting: matched, nothing bought until the user answers; buy: steps buy what the matching left. */
  phase: "match" | "waiting" | "buy";
  /** The first confirmation's figure for the profiles, shown beside the exact one. */
  ceiling: number;
  /** Rows the run works on. */
  rows: number;
  /** The exact price, set when the matching is complete: the buying phase's budget. */
  price?: { found: number; companies: number; credits: number };
  /** Spent since the user confirmed: the budget left is price.credits less this. */
  spentBuying: number;
  cancelled?: boolean;
  overBudget?: boolean;
}

/**
 * Written without a version before v1: still read (an unfinished run a new
 * build must continue). The spec is checked where the run needs it and kept
 * whole (`looseObject`), so a field added to it is never lost on the way.
 */
const uiJobShape = z.object({
  spec: z.looseObject({
    sheet: z.string(),
    row: z.number(),
    col: z.number(),
    rows: z.number(),
    cols: z.number(),
    fields: z.array(z.string()),
    mapping: z.optional(z.record(z.string(), z.number())),
    options: z.optional(
      z.looseObject({
        mode: z.optional(z.enum(["batch", "free"])),
        rerun: z.optional(z.union([z.enum(["all", "new-or-failed"]), z.object({ olderThanDays: z.number() })])),
        deadline: z.optional(z.number()),
        chunkSize: z.optional(z.number()),
      }),
    ),
  }),
  credits: z.number(),
  finished: z.boolean(),
  stoppedForCredits: z.optional(z.boolean()),
  lastError: z.nullable(
    z.object({
      code: z.enum(ERROR_CODES),
      message: savedBilingual,
      field: z.optional(z.string()),
      retryAt: z.optional(z.number()),
      teamServer: z.optional(z.literal(true)),
    }),
  ),
  confirm: z.optional(
    z.object({
      phase: z.enum(["match", "waiting", "buy"]),
      ceiling: z.number(),
      rows: z.number(),
      price: z.optional(z.object({ found: z.number(), companies: z.number(), credits: z.number() })),
      spentBuying: z.number(),
      cancelled: z.optional(z.boolean()),
      overBudget: z.optional(z.boolean()),
    }),
  ),
});
export const SAVED_JOB = savedKind<UiJob>(1, uiJobShape, uiJobShape);

const jobKey = (scope: string, id: string) => `doc:uijob:${scope}:${id}`;
/** The document's latest UI job: a sidebar opened later finds an unfinished run here (the store has no listing). */
const currentKey = (scope: string) => `doc:uijob:${scope}:current`;

function* jobScope(deps: AppDeps): Operation<string> {
  const settings = yield* loadSettings();
  return contextFromSettings(settings, deps).scope;
}

export function* loadJob(deps: AppDeps, jobId: string): Operation<UiJob> {
  const [raw] = yield* storeGet([jobKey(yield* jobScope(deps), jobId)]);
  // A damaged or foreign value is no run either (it threw a SyntaxError out of the host before).
  const job = readSaved(SAVED_JOB, raw);
  if (!job)
    throw invalid("jobId", {
      de: "in diesem Dokument gibt es keinen solchen Anreicherungslauf",
      en: "there is no such enrichment run in this document",
    });
  return job;
}

export function* saveJob(deps: AppDeps, jobId: string, job: UiJob): Operation<void> {
  yield* storePut({ [jobKey(yield* jobScope(deps), jobId)]: writeSaved(SAVED_JOB, job) });
}

/** A new run becomes the document's current one. */
export function* saveCurrentJob(deps: AppDeps, jobId: string, job: UiJob): Operation<void> {
  yield* saveJob(deps, jobId, job);
  yield* storePut({ [currentKey(yield* jobScope(deps))]: jobId });
}

/** The document's current run and its id, or null when there is none (never started, finished, unreadable). */
export function* currentJob(deps: AppDeps): Operation<{ jobId: string; job: UiJob } | null> {
  const scope = yield* jobScope(deps);
  const [jobId] = yield* storeGet([currentKey(scope)]);
  if (!jobId) return null;
  const [raw] = yield* storeGet([jobKey(scope, jobId)]);
  const job = readSaved(SAVED_JOB, raw);
  return job && !job.finished ? { jobId, job } : null;
}

export function readJobId(input: unknown): string {
  const id = text(record(input), "jobId", { min: 1, max: 40 });
  if (!/^[a-z0-9]+$/.test(id))
    throw invalid("jobId", { de: "keine gültige Kennung eines Laufs", en: "not a valid run identifier" });
  return id;
}
