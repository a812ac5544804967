/**
 * A full garbage collection between chunks, kept on purpose (measured, see
 * cli/README.md "Memory"). A 100,000-row run allocates far more than it
 * keeps (its live heap is the memo and the answer cache, about 55 MB), and
 * V8 lets the heap grow to several times the live size before a full
 * collection: without one now and then the peak RSS follows the garbage
 * (302 MiB = 2.2x the 1,000-row run), not the data. A smaller answer cache
 * and no cache lines in the journal did not change that (307 MiB): the heap
 * limit follows the allocation rate. Node offers no supported call that
 * collects, and a V8 flag on the command line cannot be set by
 * `npx company-data`, so the collector is reached by enabling `--expose-gc`
 * at run time (v8.setFlagsFromString) and taking `gc` from a fresh context.
 * Every step is guarded: on a Node where that does not work this does
 * nothing (the run is then only larger in memory), and it never throws.
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | null | undefined;
let liveAfterLast = 0;

/**
 * Heap in use above which collectGarbage may collect at all. A 1,000-row run stays below it and so has no full
 * collection (each costs CPU in proportion to the live heap, about 50 ms: issue 43, item 2).
 */
export const GC_ABOVE_BYTES = 32 * 1024 * 1024;
/** Collect once the heap holds this much more than it kept after the previous collection… */
export const GC_GROWTH = 1.25;
/**
 * …and at least this many bytes more (the larger of the two steps counts). The 100,000-row run keeps about
 * 40 MB live: it collects after 16 MB of growth. Measured on it (bench module `cli`, four runs each): with
 * steps of 1.5× and 32 MB its peak RSS was 194–196 MiB, 1.44–1.5× the 1,000-row run's (whose baseline fell
 * by 20 MiB when the Node hosts stopped loading fetch), with 1.25× and 16 MB 177–185 MiB, for about 10 % more
 * time on that run.
 */
export const GC_MIN_GROWTH_BYTES = 16 * 1024 * 1024;

function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  gc = null;
  try {
    const existing = (globalThis as { gc?: unknown }).gc;
    if (typeof existing === "function") return (gc = existing as () => void);
    setFlagsFromString("--expose-gc");
    const found: unknown = runInNewContext("typeof gc === 'function' ? gc : null");
    if (typeof found === "function") gc = found as () => void;
  } catch {
    gc = null;
  }
  return gc;
}

function heapUsed(): number {
  try {
    return getHeapStatistics().used_heap_size;
  } catch {
    return 0;
  }
}

/**
 * Collect when the heap in use is above `above` bytes and has grown enough since the last collection (by
 * GC_GROWTH and by GC_MIN_GROWTH_BYTES; cheap to call between chunks).
 */
export function collectGarbage(above = GC_ABOVE_BYTES): void {
  const used = heapUsed();
  if (used <= above || used <= liveAfterLast * GC_GROWTH || used <= liveAfterLast + GC_MIN_GROWTH_BYTES) return;
  const run = collector();
  if (!run) return;
  try {
    run();
  } catch {
    gc = null;
  }
  liveAfterLast = heapUsed();
}
