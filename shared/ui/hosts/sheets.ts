/**
 * The Sheets sidebar's host: every call is one google.script.run round trip
 * to the server function `uiCall(method, inputJson)`, which answers the
 * AppResult envelope as JSON text.
 */
import type { AppInput, AppMethodName, AppOutput, AppResult } from "../../app/index.ts";
import { hostFromEnvelopes, type UiHost } from "../host.ts";

interface ScriptRun {
  withSuccessHandler(fn: (value: unknown) => void): ScriptRun;
  withFailureHandler(fn: (error: unknown) => void): ScriptRun;
  uiCall(method: string, inputJson: string): void;
}
interface GoogleGlobal {
  script: { run: ScriptRun; host?: { close(): void } };
}

export function sheetsHost(google: GoogleGlobal = (globalThis as unknown as { google: GoogleGlobal }).google): UiHost {
  const host = hostFromEnvelopes(
    "sheets",
    <M extends AppMethodName>(method: M, input: AppInput<M>) =>
      new Promise<AppResult<AppOutput<M>>>((resolve, reject) => {
        google.script.run
          .withSuccessHandler((value) => {
            // JSON from the server's uiCall, which ran this very method (shared/app/dispatch.ts): the one
            // place the protocol's types cross a wire the compiler cannot see across.
            type Answer = AppResult<AppOutput<M>>;
            try {
              resolve(typeof value === "string" ? (JSON.parse(value) as Answer) : (value as Answer));
            } catch (e) {
              reject(e);
            }
          })
          .withFailureHandler(reject)
          .uiCall(method, JSON.stringify(input ?? {}));
      }),
  );
  if (google.script.host) host.close = () => google.script.host!.close();
  return host;
}
