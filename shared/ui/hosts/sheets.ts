/**
 * The Sheets sidebar's host: every call is one google.script.run round trip
 * to the server function `uiCall(method, inputJson)`, which answers the
 * AppResult envelope as JSON text.
 */
import type { AppResult } from "../../app/index.ts";
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
    (method, input) =>
      new Promise<AppResult>((resolve, reject) => {
        google.script.run
          .withSuccessHandler((value) => {
            try {
              resolve(typeof value === "string" ? (JSON.parse(value) as AppResult) : (value as AppResult));
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
