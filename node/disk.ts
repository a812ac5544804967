/**
 * Every write of the CLI's files goes through `written`: a full disk
 * (ENOSPC, or a quota: EDQUOT) becomes a DiskFullError naming the file, which
 * the commands turn into "disk full" with a documented exit code (EXIT.DISK_FULL)
 * instead of an internal error. What was written before stays: the journals
 * are append-only and read back with a torn last line skipped, so a rerun
 * after freeing space resumes and pays nothing again for answers on disk.
 *
 * Tests inject a full disk here (`injectDiskFull`): there is no tiny tmpfs
 * to fill on a shared machine, and the write paths are the same.
 */
export class DiskFullError extends Error {
  constructor(readonly file: string) {
    super(`ENOSPC: no space left on device, write ${file}`);
  }
}

let fault: ((file: string) => boolean) | null = null;

/** Tests: from now on, a write to a file for which `f` says true fails as on a full disk; null ends it. */
export function injectDiskFull(f: ((file: string) => boolean) | null): void {
  fault = f;
}

const FULL = new Set(["ENOSPC", "EDQUOT"]);

/** Run one write of `file`; a full disk is a DiskFullError naming it. */
export function written<T>(file: string, write: () => T): T {
  if (fault?.(file)) throw new DiskFullError(file);
  try {
    return write();
  } catch (e) {
    if (FULL.has((e as NodeJS.ErrnoException)?.code ?? "")) throw new DiskFullError(file);
    throw e;
  }
}

/** The DiskFullError behind `e` (itself or its cause), if any. */
export function diskFullIn(e: unknown): DiskFullError | null {
  for (let x: unknown = e, depth = 0; x && depth < 5; x = (x as { cause?: unknown }).cause, depth++)
    if (x instanceof DiskFullError) return x;
  return null;
}
