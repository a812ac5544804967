/**
 * The saved forms of the portfolio check's own state (core/saved.ts): the run
 * in progress and the last run's summary. Both were written without a version
 * before v1 and are still read: a continued run must not forget what it has
 * spent, and Excel decides from the last run whether a check is due.
 */
import * as z from "zod/mini";
import { savedBilingual, savedKind } from "../core/index.ts";

const runCheckpoint = z.object({
  id: z.string(),
  startedAt: z.string(),
  sheet: z.string(),
  stalls: z.optional(z.number()),
  spent: z.optional(z.number()),
});
export const RUN_STATE = savedKind(1, runCheckpoint, runCheckpoint);

const count = z.number();
const runSummary = z.object({
  runId: z.string(),
  status: z.enum(["done", "paused", "budget", "stopped", "preview"]),
  startedAt: z.string(),
  finishedAt: z.nullable(z.string()),
  companies: count,
  entries: count,
  earlier: count,
  withFinancials: count,
  rows: count,
  checked: count,
  unchanged: count,
  ambiguous: count,
  notFound: count,
  errors: count,
  groups: z.object({ risk: count, watch: count, none: count }),
  newChanges: count,
  extraChangePages: count,
  estimate: count,
  plan: z.object({
    kind: z.literal("portfolio"),
    availability: count,
    profiles: count,
    profilesWithFinancials: count,
    changes: count,
  }),
  spent: count,
  runSpent: count,
  requests: count,
  left: z.object({ companies: count, credits: count, unpriced: count }),
  message: savedBilingual,
});
export const LAST_RUN = savedKind(1, runSummary, runSummary);
