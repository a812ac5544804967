/**
 * What one run already knows, so that nothing is bought twice within it or
 * across its resumes, whatever the answer cache (bounded, evictable) still
 * holds: per normalised resolve key the answer it got, and per company the
 * output cells of a row that paid for its profile. Both are small (ids,
 * confidences and the chosen fields' values, never raw answers) and are
 * rebuilt on resume from the rows already written.
 */
import type { Doubt, MatchNote } from "../operations/index.ts";
import { normaliseKey } from "../batch/index.ts";
import type { Cell } from "../core/index.ts";
import type { FieldNeeds } from "./fields.ts";
import type { RowTask } from "./task.ts";
import type { Candidate, RowResult } from "./rows.ts";

/** A resolve answer: matched (with the row values when no profile is needed), not found, or review. */
export type KeyAnswer =
  | { o: "m"; id: string; c: number | null; v?: Cell[]; n?: MatchNote }
  | { o: "n" }
  | { o: "r"; c: number | null; k: Candidate[]; d?: Doubt };

/** The output of a row whose company's profile was bought. */
export interface DoneCompany {
  v: Cell[];
  a: string | null;
}

export interface Needs {
  resolved: FieldNeeds;
  givenId: FieldNeeds;
}

export class RunMemo {
  readonly keys = new Map<string, KeyAnswer>();
  readonly companies = new Map<string, DoneCompany>();

  constructor(readonly needs: Needs) {}

  /** The row's whole result when the memo has it, without sending or paying anything. */
  answer(t: RowTask, today: string): RowResult | null {
    if (t.id) {
      const d = this.needs.givenId.profile ? this.companies.get(t.id) : undefined;
      return d ? { outcome: "matched", id: t.id, confidence: t.confidence, asOf: d.a, values: [...d.v] } : null;
    }
    if (!t.query) return null;
    const a = this.keys.get(normaliseKey(t.query));
    if (!a) return null;
    if (a.o === "n") return { outcome: "not_found", id: null, confidence: null, asOf: null, values: [] };
    if (a.o === "r")
      return {
        outcome: "review",
        id: null,
        confidence: a.c,
        candidates: a.k.map((x) => ({ ...x })),
        ...(a.d ? { doubt: a.d } : {}),
        asOf: null,
        values: [],
      };
    const note = a.n ? { note: a.n } : {};
    if (!this.needs.resolved.profile)
      return a.v ? { outcome: "matched", id: a.id, confidence: a.c, ...note, asOf: today, values: [...a.v] } : null;
    const d = this.companies.get(a.id);
    return d ? { outcome: "matched", id: a.id, confidence: a.c, ...note, asOf: d.a, values: [...d.v] } : null;
  }

  /** A matched key whose company still has to be fetched: its id (the row needs no resolve). */
  matchedId(t: RowTask): { id: string; confidence: number | null; note?: MatchNote } | null {
    if (t.id || !t.query || !this.needs.resolved.profile) return null;
    const a = this.keys.get(normaliseKey(t.query));
    return a?.o === "m" ? { id: a.id, confidence: a.c, ...(a.n ? { note: a.n } : {}) } : null;
  }

  /** The normalised key this row must still resolve, or null (it has an id, or the memo answers it). */
  pendingKey(t: RowTask): string | null {
    if (t.id || !t.query) return null;
    const key = normaliseKey(t.query);
    const a = this.keys.get(key);
    if (!a) return key;
    // A match remembered without the values it needs (read back from a file) is asked again.
    return a.o === "m" && !this.needs.resolved.profile && !a.v ? key : null;
  }

  rememberKey(key: string, a: KeyAnswer): void {
    this.keys.set(key, a);
  }

  rememberCompany(id: string, values: readonly Cell[], asOf: string | null): void {
    this.companies.set(id, { v: [...values], a: asOf });
  }

  /**
   * A row finished earlier (this run before a resume, or a finished row an
   * earlier run left): `base` is the row's own task (its input), `r` what it
   * holds. Only final answers are kept; a review row without its candidates
   * (read back from a sheet or file) is not.
   */
  rememberRow(
    base: RowTask,
    r: Pick<RowResult, "outcome" | "id" | "confidence" | "asOf" | "values" | "candidates">,
  ): void {
    const key = base.query && !base.id ? normaliseKey(base.query) : null;
    if (r.outcome === "not_found" && key) this.keys.set(key, { o: "n" });
    else if (r.outcome === "review" && key && r.candidates?.length)
      this.keys.set(key, { o: "r", c: r.confidence, k: r.candidates });
    // Matched in a matching phase, profile not bought: the name is not matched again.
    else if (r.outcome === "unbought" && key && r.id && !this.keys.has(key))
      this.keys.set(key, { o: "m", id: r.id, c: r.confidence });
    if (r.outcome !== "matched" || !r.id) return;
    const { resolved, givenId } = this.needs;
    if (key) {
      // Values read from the match alone only when the row was resolved (not carried) is unknowable here: kept without them.
      if (!this.keys.has(key)) this.keys.set(key, { o: "m", id: r.id, c: r.confidence });
      if (resolved.profile && givenId.profile) this.rememberCompany(r.id, r.values, r.asOf);
    } else if (base.id && givenId.profile) {
      this.rememberCompany(r.id, r.values, r.asOf);
    }
  }
}
