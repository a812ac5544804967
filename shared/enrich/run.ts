/**
 * The enrichment bound to the core operations: what hosts, the app service
 * and the CLI call. job.ts takes its operations as a parameter so that it can
 * be tested with fakes; this module supplies the real ones.
 */
import { lookupMany } from "../operations/index.ts";
import { resolveMany } from "../operations/index.ts";
import { getAvailability, getProfiles } from "../operations/index.ts";
import type { Operation } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { EnrichDeps } from "./chunk.ts";
import { applyReviewPicks as applyPicksWith, enrichSheet as enrichSheetWith } from "./job.ts";
import type { SheetJobSpec, SheetRunResult } from "./job-types.ts";

export const coreDeps: EnrichDeps = { resolveMany, getProfiles, getAvailability, lookupMany };

/** Enrich a block of the active spreadsheet, writing the output beside it. */
export function enrichSheet(ctx: OpContext, spec: SheetJobSpec): Operation<SheetRunResult> {
  return enrichSheetWith(coreDeps, ctx, spec);
}

/** Enrich the review rows whose id cell now holds the user's pick. */
export function applyReviewPicks(ctx: OpContext, spec: SheetJobSpec): Operation<SheetRunResult> {
  return applyPicksWith(coreDeps, ctx, spec);
}
