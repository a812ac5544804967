/**
 * What the generated functions bundle calls: the runtime over the registry,
 * created on the first call (nothing runs when Excel evaluates the bundle).
 */
import { functionsFor } from "../../shared/functions/index.ts";
import { displayLanguage, entityValuesSupported, officeDriver, workbookId, workbookIdentity } from "../host/office.ts";
import { afterMs } from "./gather.ts";
import { networkExplainer } from "./network.ts";
import { createCustomFunctions, type CustomFunctionsRuntime } from "./runtime.ts";

/** Excel hands over a column of formulas within a few milliseconds; wait this long for the rest of the burst. */
export const GATHER_WINDOW_MS = 25;

let runtime: CustomFunctionsRuntime | undefined;

function get(): CustomFunctionsRuntime {
  if (runtime) return runtime;
  const driver = officeDriver();
  // The page the functions run in (the shared runtime's): where a failed fetch came from, for its diagnosis.
  const page = typeof location === "undefined" ? undefined : { pageHost: location.hostname, origin: location.origin };
  runtime = createCustomFunctions(functionsFor("excel"), {
    driver,
    documentId: workbookId,
    now: () => Date.now(),
    random: Math.random,
    schedule: afterMs(GATHER_WINDOW_MS),
    error: (kind, message) => new CustomFunctions.Error(CustomFunctions.ErrorCode[kind], message),
    cardsSupported: entityValuesSupported,
    cardLanguage: async () => (await workbookIdentity()).cardLanguage,
    fallbackLanguage: displayLanguage,
    ...(page ? { explainNetwork: networkExplainer({ driver, ...page, now: () => Date.now() }) } : {}),
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
