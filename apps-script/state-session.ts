/**
 * The add-on's state sheet (doc-state.ts, STATE_SHEET) for one execution:
 * read once, written once per flush. Spreadsheet calls are the slow part of
 * an Apps Script execution, and a 1,000-row enrichment made 291 of them on
 * this sheet when every store write read the sheet again and wrote a block
 * (issue 42, item 5).
 *
 * - **One read**: the first read (or the run marker's claim, which reads
 *   under the document lock: `refresh`) takes the whole data range in one
 *   call (sheet-values.ts); later
 *   reads come from that snapshot with this execution's pending writes laid
 *   over it. The run marker keeps other runs from writing the keys a run
 *   works on; what non-exclusive calls write meanwhile (a saved search) is
 *   never overwritten, see the next point.
 * - **One write per flush**: writes wait in `pending` until `flush` (the
 *   driver's commit, at the latest every 20 s of work, and the end of the
 *   execution, where the run marker's release joins them). A flush takes the
 *   document lock, reads back the block of rows it will write (one
 *   getValues on the same Range) and writes it with setValues: rows in the
 *   block that this execution does not change keep what the sheet holds
 *   now, so another execution's write since the snapshot is kept. When a row
 *   it means to write holds another key than the snapshot said (another
 *   execution placed a key there), the whole sheet is read again and the
 *   rows placed anew: the write of before (read, then write). Every write
 *   is committed (SpreadsheetApp.flush) before the lock is released, as
 *   Google asks (see `commit`).
 * - **The lock**: read-modify-writes that ran under the document lock still
 *   do (the marker's claim and release). A snapshot taken under the lock is
 *   trusted only while that lock is held (`flush(true)` right after
 *   `refresh`); any later flush reads its rows back under a new lock. A
 *   claim that adds the marker as a new key appends its row (`appendOne`).
 *
 * A write that is still pending when the platform stops the execution is
 * lost, as the sheet writes gathered with it are (sheet.ts): the job repeats
 * that chunk (its answers come from the cache), and its checkpoint is never
 * ahead of the sheet.
 */
import { keyOf, placeEntries, rowCells, STATE_SHEET, type KeyValues } from "./doc-state.ts";
import { sheetValues } from "./sheet-values.ts";

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Lock = GoogleAppsScript.Lock.Lock;

/** How long a flush waits for the document lock (merges take milliseconds). */
const FLUSH_LOCK_WAIT_MS = 3_000;

const asText = (grid: unknown[][]): string[][] => grid.map((r) => r.map((v) => (typeof v === "string" ? v : "")));

export class StateSession implements KeyValues {
  private found: Sheet | null | undefined;
  private grid: string[][] | null = null;
  private readonly pending = new Map<string, string | null>();
  /** Deletions that happen only if the sheet still holds this value when written (the run marker's release). */
  private readonly deleteIf = new Map<string, string>();

  constructor(
    private readonly ss: Spreadsheet,
    private readonly lock: () => Lock | null,
    /**
     * SpreadsheetApp.flush: "if you are working with a spreadsheet, you should call SpreadsheetApp.flush()
     * prior to releasing the lock, to commit all pending changes to the spreadsheet while you still have
     * exclusive access to it" (https://developers.google.com/apps-script/reference/lock/lock#releaseLock()).
     * Apps Script gathers writes and applies them later (write caching,
     * https://developers.google.com/apps-script/guides/support/best-practices#use_batch_operations):
     * without it the next execution to take the lock could read the sheet without this write.
     */
    private readonly commit: () => void,
    private readonly name = STATE_SHEET,
  ) {}

  private sheet(create: boolean): Sheet | null {
    if (this.found === undefined) this.found = this.ss.getSheetByName(this.name);
    if (!this.found && create) {
      const s = this.ss.insertSheet(this.name);
      s.hideSheet();
      // A warning, not a lock: every editor's sidebar and trigger must still write it.
      s.protect().setWarningOnly(true);
      this.found = s;
      this.grid = [];
    }
    return this.found;
  }

  private snapshot(): string[][] {
    if (this.grid) return this.grid;
    const s = this.sheet(false);
    return (this.grid = s ? asText(sheetValues(s)) : []);
  }

  /** Read the sheet again (the run marker's claim: under the lock, what it holds now). */
  refresh(): void {
    this.grid = null;
    this.snapshot();
  }

  read(keys: string[]): (string | null)[] {
    const map = new Map<string, string>();
    for (const row of this.snapshot()) {
      const k = keyOf(row);
      if (k)
        map.set(
          k,
          row
            .slice(1)
            .map((c) => c.slice(1))
            .join(""),
        );
    }
    return keys.map((k) => (this.pending.has(k) ? (this.pending.get(k) ?? null) : (map.get(k) ?? null)));
  }

  /** Kept until the next flush; null deletes. */
  write(entries: Record<string, string | null>): void {
    for (const [k, v] of Object.entries(entries)) {
      this.pending.set(k, v);
      this.deleteIf.delete(k);
    }
  }

  /** Delete `key` at the next flush if the sheet then still holds `value` (another run may have taken it over). */
  deleteIfStill(key: string, value: string): void {
    this.pending.delete(key);
    this.deleteIf.set(key, value);
  }

  hasPending(): boolean {
    return this.pending.size + this.deleteIf.size > 0;
  }

  /**
   * Write what is pending in one block. `lockedSinceRead`: the caller has
   * held the document lock since `refresh`, so the snapshot is what the
   * sheet holds; otherwise the flush takes the lock and reads its rows back.
   */
  flush(lockedSinceRead = false): void {
    if (!this.hasPending()) return;
    let lock: Lock | null = null;
    if (!lockedSinceRead) {
      try {
        lock = this.lock();
        if (lock && !lock.tryLock(FLUSH_LOCK_WAIT_MS)) lock = null;
      } catch {
        lock = null;
      }
    }
    try {
      this.writeBlock(lockedSinceRead);
    } finally {
      if (lock) lock.releaseLock();
    }
  }

  private writeBlock(trusted: boolean): void {
    const existed = this.sheet(false) !== null;
    const base = this.snapshot();
    if (trusted && this.appendOne(base)) return this.commit();
    const plan = this.plan(base);
    if (!plan) return this.settle(base);
    const sheet = this.sheet(true)!;
    let range = sheet.getRange(plan.from + 1, 1, plan.rows.length, plan.width);
    if (existed && !trusted) {
      const now = asText(range.getValues());
      const merged = this.merge(base, plan, now);
      if (merged) plan.rows = merged;
      else {
        // Another execution placed a key where this one meant to write: place everything anew on what the sheet holds.
        this.refresh();
        const again = this.plan(this.snapshot());
        if (!again) return this.settle(this.snapshot());
        plan.rows = again.rows;
        plan.from = again.from;
        plan.width = again.width;
        range = sheet.getRange(plan.from + 1, 1, plan.rows.length, plan.width);
      }
    }
    range.setValues(plan.rows.map((r) => Array.from({ length: plan.width }, (_, j) => r[j] ?? "")));
    this.commit();
    const grid = this.snapshot().map((r) => r);
    plan.rows.forEach((r, i) => (grid[plan.from + i] = r));
    this.settle(grid);
  }

  /**
   * One new key and nothing else, under the lock held since the read (the
   * run marker's claim): appended below the data with Sheet.appendRow, one
   * call where a block write is two. appendRow "Appends a row to the bottom
   * of the current data region in the sheet"
   * (https://developers.google.com/apps-script/reference/spreadsheet/sheet#appendRow(Object)):
   * it never writes over a row, so a row another execution wrote without the
   * lock (a trigger has none) stays, and the new row lands below it. The
   * snapshot places it after its last row; a later flush reads its block
   * back and places keys anew when that was wrong (`merge`).
   */
  private appendOne(base: string[][]): boolean {
    if (this.pending.size !== 1 || this.deleteIf.size) return false;
    const [entry] = [...this.pending];
    if (!entry) return false;
    const [key, value] = entry;
    if (value === null || base.some((r) => keyOf(r) === key)) return false;
    const cells = rowCells(key, value);
    this.sheet(true)!.appendRow(cells);
    this.settle([...withoutTrailingFree(base), cells]);
    return true;
  }

  private settle(grid: string[][]): void {
    this.grid = grid;
    this.pending.clear();
    this.deleteIf.clear();
  }

  /** The block to write: rows from..from+n of `base` with the pending entries placed (null when nothing changes). */
  private plan(base: string[][]): { from: number; width: number; rows: string[][]; touched: Set<number> } | null {
    const work = base.map((r) => [...r]);
    const touched: number[] = [];
    // Every row of the key that still holds the value: after a race of two claims (one appended, one wrote a
    // row without the lock) a key may stand in two rows, and the one that lost removes its own.
    for (const [k, v] of this.deleteIf) {
      const cells = rowCells(k, v);
      work.forEach((r, i) => {
        if (keyOf(r) === k && same(cells, r)) {
          work[i] = [];
          touched.push(i);
        }
      });
    }
    touched.push(...placeEntries(work, Object.fromEntries(this.pending)));
    if (!touched.length) return null;
    const from = Math.min(...touched);
    const to = Math.max(...touched);
    const width = Math.max(
      2,
      ...base.slice(from, to + 1).map((r) => r.length),
      ...work.slice(from, to + 1).map((r) => r.length),
    );
    return { from, width, rows: work.slice(from, to + 1), touched: new Set(touched) };
  }

  /**
   * The block with what the sheet holds now in the rows this execution does
   * not change; null when a row it changes no longer holds the key the
   * snapshot had there (or a conditional deletion no longer applies).
   */
  private merge(
    base: string[][],
    plan: { from: number; rows: string[][]; touched: Set<number> },
    now: string[][],
  ): string[][] | null {
    const out: string[][] = [];
    for (let j = 0; j < plan.rows.length; j++) {
      const i = plan.from + j;
      const fresh = trimRow(now[j] ?? []);
      if (!plan.touched.has(i)) out.push(fresh);
      else if (keyOf(fresh) !== keyOf(base[i] ?? [])) return null;
      else if (this.deleteIf.has(keyOf(fresh)) && !same(fresh, base[i] ?? [])) return null;
      else out.push(nth(plan.rows, j));
    }
    return out;
  }
}

const nth = (rows: string[][], i: number): string[] => rows[i] ?? [];

const same = (a: string[], b: string[]) => JSON.stringify(trimRow(a)) === JSON.stringify(trimRow(b));

/** The grid without its trailing rows that hold no key: appendRow writes below the last row with content. */
function withoutTrailingFree(grid: string[][]): string[][] {
  let n = grid.length;
  while (n > 0 && trimRow(nth(grid, n - 1)).length === 0) n--;
  return grid.slice(0, n);
}

function trimRow(r: string[]): string[] {
  let n = r.length;
  while (n > 0 && r[n - 1] === "") n--;
  return r.slice(0, n);
}
