/**
 * What the UI needs from its host: one async call into the app service.
 * Sheets answers through google.script.run, Excel and the playground run the
 * app service in the page with runAsync. The UI never sees a driver.
 */
import type { AppError, AppInput, AppMethodName, AppOutput, AppResult, HostKind } from "../app/index.ts";

/** One call of a method of the protocol (AppApi): its input in, its output out. */
export type AppCall = <M extends AppMethodName>(method: M, input: AppInput<M>) => Promise<AppOutput<M>>;

/** A transport: one method's call in, its AppResult envelope out. */
export type EnvelopeCall = <M extends AppMethodName>(method: M, input: AppInput<M>) => Promise<AppResult<AppOutput<M>>>;

export interface UiHost {
  kind: HostKind;
  /** Resolves with the method's output; rejects with a UiCallError. */
  call: AppCall;
  /** Optional: close the sidebar (Sheets: google.script.host.close). */
  close?(): void;
}

export class UiCallError extends Error {
  readonly error: AppError;
  constructor(error: AppError) {
    super(error.message.en);
    this.name = "UiCallError";
    this.error = error;
  }
}

/** A host from a function that answers AppResult envelopes. */
export function hostFromEnvelopes(kind: HostKind, send: EnvelopeCall): UiHost {
  return {
    kind,
    async call<M extends AppMethodName>(method: M, input: AppInput<M>): Promise<AppOutput<M>> {
      let result: AppResult<AppOutput<M>>;
      try {
        result = await send(method, input);
      } catch {
        // The transport failed (server function threw, script quota): a neutral message, never a stack.
        throw new UiCallError({
          code: "INTERNAL",
          message: {
            de: "Interner Fehler des Add-ons. Bitte erneut versuchen.",
            en: "Internal error in the add-on. Please try again.",
          },
        });
      }
      if (!result || typeof result !== "object")
        throw new UiCallError({ code: "INTERNAL", message: { de: "Unerwartete Antwort.", en: "Unexpected answer." } });
      if (result.ok) return result.value;
      throw new UiCallError(result.error);
    },
  };
}

/** Handlers that take the place of the host's call for some methods (each typed as AppApi says). */
export type CallOverrides = { [M in AppMethodName]?: (input: AppInput<M>) => Promise<AppOutput<M>> };

/** A call that goes to `overrides` for the methods it has, to `call` for every other. */
export function overrideCalls(call: AppCall, overrides: CallOverrides): AppCall {
  return <M extends AppMethodName>(method: M, input: AppInput<M>): Promise<AppOutput<M>> => {
    const own: CallOverrides[M] = overrides[method];
    return own ? own(input) : call(method, input);
  };
}
