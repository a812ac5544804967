/**
 * What the sheet job wrote beside which row, by the row's key (row-key.ts),
 * kept in the document's store beside the job's checkpoint.
 *
 * Output cells carry no trace of the input they were computed for, and a
 * user can move them apart (sort only the input columns, edit a name,
 * delete a row between steps). So before the job trusts a row's output
 * (to skip it, to count it, to keep a review pick) it asks the ledger: was
 * this outcome, this id, written for a row with this key? If not, the output
 * is someone else's and the row is redone.
 *
 * Entries are small ("<key hash>:<token>") and appended in parts, so a
 * thousand rows stay far below Apps Script's 9 KB per property value and its
 * 500 KB per document. A new run compacts the ledger to the entries that
 * still describe a row of the table.
 *
 * The record also keeps what a run needs to find its table again in a
 * later step: the keys of the rows it started with (to tell the table's own
 * rows from a totals row that moved up after a deletion), the row just below
 * the table and the header.
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { fnv1a32 } from "../core/index.ts";
import { readPart, readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import type { RowOutcome } from "./rows.ts";

/** A 32-bit hash of a key, in base 36: the ledger never holds the user's input itself. */
export const keyHash = (key: string): string => fnv1a32(key).toString(36);

/** Entries per stored part: about 27 bytes each, well below 9 KB a value. */
const ENTRIES_PER_PART = 250;
/** Key hashes per stored part (about 10 bytes each). */
const KEYS_PER_PART = 700;

interface Record_ {
  v: 1;
  /** Stored parts of written entries. */
  parts: number;
  /** The first part written by the current run. */
  runFrom: number;
  /** Stored parts of the current run's starting keys. */
  keyParts: number;
  /** Hash of the input cells of the row below the table when the run started. */
  below: string;
  /** Hash of the header row's input cells when the run started. */
  header: string;
}

/** Saved with `v: 1` from the start; its parts (lists of entries or key hashes) are versioned by it. */
export const ROW_LEDGER = savedKind<Record_>(
  1,
  z.object({
    v: z.literal(1),
    parts: z.number(),
    runFrom: z.number(),
    keyParts: z.number(),
    below: z.string(),
    header: z.string(),
  }),
);
export const ROW_LEDGER_PART = z.array(z.string());

/** What a written row says, as a ledger token; `pick`: the id is the user's choice from the review list. */
export function token(outcome: RowOutcome, id: string | null, pick = false): string {
  switch (outcome) {
    case "matched":
      return (pick ? "p" : "m") + (id ?? "");
    case "review":
      return "r";
    case "out_of_credits":
      return "o" + (id ?? "");
    case "unbought":
      return "u" + (id ?? "");
    case "not_found":
      return "n";
    case "empty":
      return "s";
    case "error":
      return "e";
  }
}

/** The token of a row marked "changed since it was enriched": an error to redo, never done for this run. */
export const CHANGED_TOKEN = "x";

export class RowLedger {
  private entries = new Set<string>();
  private runEntries = new Set<string>();
  private runKeys = new Set<string>();
  /** Key hashes of all entries. */
  private entryKeys = new Set<string>();
  private rec: Record_ = { v: 1, parts: 0, runFrom: 0, keyParts: 0, below: "", header: "" };

  private constructor(private readonly base: string) {}

  static *load(base: string): Operation<RowLedger> {
    const l = new RowLedger(base);
    const [raw] = yield* storeGet([base]);
    const rec = readSaved(ROW_LEDGER, raw);
    if (!rec) return l;
    l.rec = rec;
    const keys = [
      ...Array.from({ length: l.rec.parts }, (_, n) => `${base}:w${n}`),
      ...Array.from({ length: l.rec.keyParts }, (_, n) => `${base}:k${n}`),
    ];
    const raws = keys.length ? yield* storeGet(keys) : [];
    raws.forEach((r, n) => {
      const list = readPart(ROW_LEDGER_PART, r);
      if (!list) return;
      if (n < l.rec.parts) {
        for (const e of list) {
          l.add(e);
          if (n >= l.rec.runFrom) l.runEntries.add(e);
        }
      } else for (const k of list) l.runKeys.add(k);
    });
    return l;
  }

  /** True when no run of this table was ever recorded (outputs from before the ledger are trusted, once). */
  get empty(): boolean {
    return this.rec.header === "";
  }

  get header(): string {
    return this.rec.header;
  }

  get below(): string {
    return this.rec.below;
  }

  /** Was this outcome written beside a row with this key? */
  has(key: string, tok: string): boolean {
    return this.entries.has(`${keyHash(key)}:${tok}`);
  }

  /** Written for this key during the current run (for "all rows": not to be done again at a resume). */
  doneThisRun(key: string, tok: string): boolean {
    return this.runEntries.has(`${keyHash(key)}:${tok}`);
  }

  /** A row of the table: one the run started with, or one the ledger wrote for. */
  knows(key: string): boolean {
    if (key === "") return false;
    const h = keyHash(key);
    return this.runKeys.has(h) || this.entryKeys.has(h);
  }

  private add(e: string): void {
    this.entries.add(e);
    this.entryKeys.add(e.slice(0, e.indexOf(":")));
  }

  /**
   * Start a run: keep only `keep` (the entries that still describe a row),
   * remember the run's rows, the row below and the header.
   */
  *startRun(keep: readonly string[], rowKeys: readonly string[], below: string, header: string): Operation<void> {
    const drop: Record<string, string | null> = {};
    for (let n = 0; n < this.rec.parts; n++) drop[`${this.base}:w${n}`] = null;
    for (let n = 0; n < this.rec.keyParts; n++) drop[`${this.base}:k${n}`] = null;
    const kept = [...new Set(keep)];
    const hashes = [...new Set(rowKeys.filter((k) => k !== "").map(keyHash))];
    const put: Record<string, string | null> = { ...drop };
    let parts = 0;
    for (let i = 0; i < kept.length; i += ENTRIES_PER_PART)
      put[`${this.base}:w${parts++}`] = JSON.stringify(kept.slice(i, i + ENTRIES_PER_PART));
    let keyParts = 0;
    for (let i = 0; i < hashes.length; i += KEYS_PER_PART)
      put[`${this.base}:k${keyParts++}`] = JSON.stringify(hashes.slice(i, i + KEYS_PER_PART));
    this.rec = { v: 1, parts, runFrom: parts, keyParts, below, header };
    put[this.base] = writeSaved(ROW_LEDGER, this.rec);
    yield* storePut(put);
    this.entries = new Set();
    this.entryKeys = new Set();
    for (const e of kept) this.add(e);
    this.runEntries = new Set();
    this.runKeys = new Set(hashes);
  }

  /** The entry for a row with this key and token (for `startRun`'s keep list). */
  static entry(key: string, tok: string): string {
    return `${keyHash(key)}:${tok}`;
  }

  /** Record what a write put beside rows with these keys. */
  *record(written: readonly { key: string; tok: string }[]): Operation<void> {
    const list = written.filter((w) => w.key !== "").map((w) => RowLedger.entry(w.key, w.tok));
    if (list.length === 0) return;
    const put: Record<string, string> = {};
    for (let i = 0; i < list.length; i += ENTRIES_PER_PART)
      put[`${this.base}:w${this.rec.parts++}`] = JSON.stringify(list.slice(i, i + ENTRIES_PER_PART));
    put[this.base] = writeSaved(ROW_LEDGER, this.rec);
    yield* storePut(put);
    for (const e of list) {
      this.add(e);
      this.runEntries.add(e);
    }
  }
}
