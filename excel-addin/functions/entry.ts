/**
 * What the generated functions bundle calls: the runtime over the registry,
 * created on the first call (nothing runs when Excel evaluates the bundle).
 */
import { functionsFor } from "../../shared/functions/index.ts";
import { displayLanguage, entityValuesSupported, officeDriver, workbookId, workbookIdentity } from "../host/office.ts";
import { afterMs } from "./gather.ts";
import { createCustomFunctions, type CustomFunctionsRuntime } from "./runtime.ts";

/** Excel hands over a column of formulas within a few milliseconds; wait this long for the rest of the burst. */
export const GATHER_WINDOW_MS = 25;

let runtime: CustomFunctionsRuntime | undefined;

function get(): CustomFunctionsRuntime {
  runtime ??= createCustomFunctions(functionsFor("excel"), {
    driver: officeDriver(),
    documentId: workbookId,
    now: () => Date.now(),
    random: Math.random,
    schedule: afterMs(GATHER_WINDOW_MS),
    error: (kind, message) => new CustomFunctions.Error(CustomFunctions.ErrorCode[kind], message),
    cardsSupported: entityValuesSupported,
    cardLanguage: async () => (await workbookIdentity()).cardLanguage,
    fallbackLanguage: displayLanguage,
  });
  return runtime;
}

/** Call one registry function as Excel invoked it. */
export function callFunction(id: string, args: unknown[]): Promise<unknown> {
  const fn = get().functions[id];
  // Excel shows a cell error only for a CustomFunctions.Error, which is not an Error subclass.
  if (!fn)
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    return Promise.reject(new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, `unknown function ${id}`));
  return fn(...args);
}
