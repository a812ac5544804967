/**
 * The public surface of shared/sheet/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { formatCell, formatCsvNumber, formatRow } from "./csv-write.ts";
export type { Delimiter } from "./csv-write.ts";
export { asText, needsNeutralising, sameCell } from "./text.ts";
export { MAX_COLS, MAX_ROWS, normalise as normaliseRange, Workbook } from "./workbook.ts";
export type { Range, Sheet } from "./workbook.ts";
