/**
 * The public surface of shared/undo/: the audit of every write a run makes,
 * and the undo of a run (README.md). Import from here, never from a module
 * inside (eslint-rules/layers.js); modules of this folder import each other directly.
 */
export { AUDIT_INDEX_KEY, AUDIT_LIMITS, auditSize, readIndex } from "./audit-store.ts";
export type { AuditIndex, AuditRun, AuditTable } from "./audit-store.ts";
export { auditRun, newRunId } from "./audit-run.ts";
export type { RunAudit, RunMeta } from "./audit-run.ts";
export { listRuns, runCells } from "./runs.ts";
export { auditKey, keyAfter } from "./audit-key.ts";
export type { RunView, RunsView } from "./runs.ts";
export { a1, beginUndo, undoRun } from "./undo.ts";
export type { KeptCell, UndoResult } from "./undo.ts";
