/** What every command writes to and asks on (the terminal, or a test's capture), and how it ends with an exit code. */

export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Progress bar updates (only on a terminal). */
  progress?(done: number, total: number): void;
  /** Ask a yes/no question on the terminal; undefined when there is none. */
  ask?(question: string): Promise<boolean>;
  /** Milliseconds between progress lines on stderr (when it is not a terminal: CI, cron); none when absent. */
  progressEveryMs?: number;
}

/** A command's end with a documented exit code (./i18n.ts EXIT) and its message in the user's language. */
export class ExitError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
