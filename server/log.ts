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

/**
 * The lines of one turn of the event loop in one write (the server's log on stdout: a request a line, and
 * stdout to a file or a pipe is written synchronously, a system call each; 2,000 requests at once were 2,000
 * writes). Order is kept; `flush` writes what waits (stdoutLine calls it on exit, so a stop loses no line).
 */
export function batchedLines(write: (chunk: string) => void): { line: (l: string) => void; flush: () => void } {
  let pending: string[] = [];
  let due = false;
  const flush = () => {
    due = false;
    if (pending.length === 0) return;
    const chunk = pending.join("\n") + "\n";
    pending = [];
    write(chunk);
  };
  return {
    line: (l) => {
      pending.push(l);
      if (!due) {
        due = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

let stdout: ReturnType<typeof batchedLines> | undefined;

/** A line to this process's stdout, batched per turn (batchedLines); one exit hook writes what waits. */
export function stdoutLine(l: string): void {
  if (!stdout) {
    stdout = batchedLines((chunk) => void process.stdout.write(chunk));
    process.on("exit", stdout.flush);
  }
  stdout.line(l);
}
