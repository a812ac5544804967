/**
 * A closed pipe is not an error: `company-data fields | head -2` closes
 * stdout after two lines, and the command should end as quietly as `cat`
 * does. Node raises EPIPE as an 'error' event on the stream, which without a
 * listener is an uncaught exception with a stack trace; this listener turns
 * it into "stop writing there". Other write errors (a full disk) still fail.
 */
export interface PipeGuard {
  /** True once the reader has gone; writes are dropped from then on. */
  readonly closed: boolean;
  write(text: string): void;
}

export function quietOnClosedPipe(stream: NodeJS.WritableStream): PipeGuard {
  const guard = {
    closed: false,
    write(text: string) {
      if (!guard.closed) stream.write(text);
    },
  };
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e?.code === "EPIPE" || e?.code === "ERR_STREAM_DESTROYED" || guard.closed) {
      guard.closed = true;
      return;
    }
    throw e;
  });
  return guard;
}
