/**
 * The public surface of shared/doctor/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { DOCTOR_TEXTS, findingText, reportLines, spendText, verdictText, worstFirst } from "./report.ts";
export { runDoctor } from "./run.ts";
export type { DoctorReport, Finding, Verdict } from "./types.ts";
