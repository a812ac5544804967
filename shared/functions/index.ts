export * from "./types.ts";
export { FUNCTIONS, functionsFor, functionByName, hostName, invoke } from "./registry.ts";
export { errorCell, squared } from "./cells.ts";
export { requestCredits, withBudget } from "./guard.ts";
export { cardOf, cardIncludes, CARD_FIELDS, CARD_FIGURES, PROFILE_DEFAULT_FIELDS, METRICS } from "./company.ts";
export { runFormula, type FormulaInputs } from "./formula.ts";
