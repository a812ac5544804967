/**
 * The public surface of shared/functions/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { errorCell } from "./cells.ts";
export { CARD_FIELDS, CARD_FIGURES, cardIncludes, cardOf } from "./company.ts";
export { runFormula } from "./formula.ts";
export { withBudget } from "./guard.ts";
export { FUNCTIONS, functionByName, functionsFor, hostName, invoke } from "./registry.ts";
export { isCellCard, isCellError } from "./types.ts";
export type { CardData, CardProperty, CellOut, FunctionContext, FunctionDef, ParamDef } from "./types.ts";
