/**
 * A full garbage collection between chunks. A 100,000-row run allocates far
 * more than it keeps (its live heap is the memo, a few tens of MB), and V8
 * grows the heap lazily: without a collection now and then, the peak RSS
 * follows the garbage, not the data. The collector is reached without a
 * command-line flag by enabling it at run time (V8's documented flag API);
 * where that is not possible this does nothing.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | null | undefined;

/** Heap in use above which collectGarbage collects (just above what the CLI holds at start: the heap then holds little garbage). */
export const GC_ABOVE_BYTES = 16 * 1024 * 1024;

/** Collect when the heap in use is above `above` bytes (cheap to call between chunks). */
export function collectGarbage(above = GC_ABOVE_BYTES): void {
  if (process.memoryUsage().heapUsed <= above) return;
  if (gc === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      gc = runInNewContext("gc") as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
}
