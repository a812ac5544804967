/**
 * One app-service call's context: the settings read from the store, an
 * OpContext built from them, and a tally of what the call spent, which is
 * written to the document's ledger when the call ends (also when it fails
 * half-way: credits spent are spent).
 */
import type { Operation } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import { missingKey } from "../api/index.ts";
import { activeConnection, contextFromSettings, loadSettings, type ContextInputs, type Settings } from "./settings.ts";
import type { AppDeps } from "./protocol.ts";
import { recordSpend } from "../credits/index.ts";

export interface Session {
  settings: Settings;
  ctx: OpContext;
  spent: { credits: number; requests: number };
}

/**
 * A context built from the settings that also tallies what it spends, for
 * the ledger line the caller writes when it is done (app calls, formulas).
 */
export function spendingContext(
  settings: Settings,
  inputs: ContextInputs,
): { ctx: OpContext; spent: { credits: number; requests: number } } {
  const spent = { credits: 0, requests: 0 };
  const ctx = contextFromSettings(settings, {
    ...inputs,
    onSpend: (id, credits) => {
      spent.credits += credits;
      inputs.onSpend?.(id, credits);
    },
    onRequest: (id) => {
      spent.requests += 1;
      inputs.onRequest?.(id);
    },
  });
  return { ctx, spent };
}

/**
 * Run `body` with a context; `operation` names the ledger line
 * ("search", "enrich", "similar"…). Needs a key: without one it fails with
 * MISSING_KEY before anything is sent.
 */
export function* withSession<T>(deps: AppDeps, operation: string, body: (s: Session) => Operation<T>): Operation<T> {
  const settings = yield* loadSettings();
  const connection = activeConnection(settings);
  if (!connection.secret) throw missingKey(connection);
  const { ctx, spent } = spendingContext(settings, deps);
  const session: Session = { settings, ctx, spent };
  try {
    return yield* body(session);
  } finally {
    if (spent.credits > 0) yield* recordSpend(ctx, operation, spent.credits, spent.requests);
  }
}
