/**
 * The public surface of shared/enrich/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { priceAfterMatching } from "./after-matching.ts";
export { readBlockWithPrevious } from "./block-read.ts";
export { candidateLabel } from "./candidate-label.ts";
export { isEmptyTask, keyAnswer, taskFromRow } from "./chunk.ts";
export { enrichChunk } from "./chunk-run.ts";
export type { EnrichDeps } from "./chunk.ts";
export { INPUT_ROLES, MATCH_ROLES, NO_NAME_COLUMN, detectColumns, normaliseHeader } from "./columns.ts";
export type { ColumnMapping, InputRole } from "./columns.ts";
export { EnrichEstimator, estimateEnrichment, estimateTasks } from "./estimate.ts";
export type { EnrichEstimate, EnrichPlan } from "./estimate.ts";
export {
  DEFAULT_FIELDS,
  FIELDS,
  FIELD_GROUPS,
  GROUP_COST,
  GROUP_LABEL,
  companyCost,
  field,
  fieldNeeds,
  formatRegister,
  latestFinancials,
  parseFieldList,
  selectFields,
} from "./fields.ts";
export type { FieldDef } from "./fields.ts";
export { hash } from "./job-checkpoint.ts";
export { outOfCreditsResult, rowCeiling } from "./job-price.ts";
export { selectRows, taskWithPrevious } from "./job-select.ts";
export { countStats } from "./job-summary.ts";
export { outputBlock } from "./job.ts";
export type {
  EnrichOptions,
  OutcomeCounts,
  Rerun,
  SheetJobSpec,
  SheetRunResult,
  WriteAudit,
  WrittenRow,
} from "./job-types.ts";
export { RunMemo } from "./memo.ts";
export { namesAgree, pairByKey, rowKey } from "./row-key.ts";
export { savedKeyAnswer } from "./row-result-schema.ts";
export {
  findOutputBlock,
  isOutputHeader,
  isoDay,
  outputCells,
  outputHeader,
  readPrevious,
  readResult,
  reviewCandidates,
  reviewReason,
} from "./rows.ts";
export type { PreviousRow, RowResult } from "./rows.ts";
export { applyReviewPicks, coreDeps, enrichSheet } from "./run.ts";
export { StreamJob } from "./job-stream.ts";
export type { StreamEvents, StreamPlan, StreamSpec } from "./job-stream.ts";
export { STREAM_CHECKPOINT_KEY, STREAM_RESOLVED_PREFIX } from "./job-stream-state.ts";
export type { StreamStart } from "./job-stream-state.ts";
export type { RowTask } from "./task.ts";
export {
  TEAM_ESTIMATE_MAX_ROWS,
  TEAM_ESTIMATE_PATH,
  TeamEstimateAnswer,
  TeamEstimateRequest,
  tasksOfTeamRows,
  teamEstimate,
  teamPriceOf,
} from "./team-estimate.ts";
export type { RowChanges } from "./value-changes.ts";
