/**
 * Structured logs: one JSON object per line (time, level, event, fields).
 * What goes in is chosen field by field at the call site; there is no
 * "log the request" helper, so headers (the token) and the key can never
 * slip in. Users are named, never their tokens.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export function jsonLogger(write: (line: string) => void, now: () => number = Date.now): Logger {
  const line =
    (level: string) =>
    (event: string, fields: LogFields = {}) => {
      write(JSON.stringify({ t: new Date(now()).toISOString(), level, event, ...fields }));
    };
  return { info: line("info"), warn: line("warn"), error: line("error") };
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
