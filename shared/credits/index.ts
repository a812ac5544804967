/**
 * The public surface of shared/credits/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { budgetStatus, releaseBudget, reserveBudget } from "./budget.ts";
export type { BudgetStatus } from "./budget.ts";
export type { AllOf, CallOperation, Estimate, EstimateLine } from "./estimate-types.ts";
export { FORMULA_LEDGER, readLedger, recordSpend } from "./ledger.ts";
export type { LedgerEntry } from "./ledger.ts";
export { PRICE, fillPrices, priced } from "./prices.ts";
export { NOUNS, countText, counted, groupDigits, includeList } from "./wording.ts";
export type { Noun } from "./wording.ts";
