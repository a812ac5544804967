/**
 * What the UI needs from its host: one async call into the app service.
 * Sheets answers through google.script.run, Excel and the playground run the
 * app service in the page with runAsync. The UI never sees a driver.
 */
import type { AppError, AppInput, AppMethodName, AppOutput, AppResult, HostKind } from "../app/index.ts";

export interface UiHost {
  kind: HostKind;
  /** Resolves with the method's output; rejects with a UiCallError. */
  call<M extends AppMethodName>(method: M, input: AppInput<M>): Promise<AppOutput<M>>;
  call(method: string, input: unknown): Promise<unknown>;
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
export function hostFromEnvelopes(
  kind: HostKind,
  send: (method: string, input: unknown) => Promise<AppResult>,
): UiHost {
  return {
    kind,
    async call(method: string, input: unknown) {
      let result: AppResult;
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
  } as UiHost;
}
