/**
 * One app-service call's context: the settings read from the store, an
 * OpContext built from them, and a tally of what the call spent, which is
 * written to the document's ledger when the call ends (also when it fails
 * half-way: credits spent are spent).
 */
import type { Operation } from "../core/effects.ts";
import type { OpContext } from "../operations/context.ts";
import { CompanyDataError } from "../core/errors.ts";
import { contextFromSettings, loadSettings, type Settings } from "./settings.ts";
import type { AppDeps } from "./protocol.ts";
import { recordSpend } from "../credits/ledger.ts";

export interface Session {
  settings: Settings;
  ctx: OpContext;
  spent: { credits: number; requests: number };
}

/**
 * Run `body` with a context; `operation` names the ledger line
 * ("search", "enrich", "similar"…). Needs a key: without one it fails with
 * MISSING_KEY before anything is sent.
 */
export function* withSession<T>(deps: AppDeps, operation: string, body: (s: Session) => Operation<T>): Operation<T> {
  const settings = yield* loadSettings();
  if (!settings.apiKey) throw new CompanyDataError("MISSING_KEY");
  const spent = { credits: 0, requests: 0 };
  const ctx = contextFromSettings(settings, {
    ...deps,
    onSpend: (id, credits) => {
      spent.credits += credits;
      deps.onSpend?.(id, credits);
    },
    onRequest: (id) => {
      spent.requests += 1;
      deps.onRequest?.(id);
    },
  });
  const session: Session = { settings, ctx, spent };
  try {
    return yield* body(session);
  } finally {
    if (spent.credits > 0) yield* recordSpend(ctx, operation, spent.credits, spent.requests);
  }
}
