/**
 * The job's checkpoint (store key `doc:enrich:<scope>:<job>`), small on
 * purpose (Apps Script allows 9 KB a value): the run's signature, its
 * selection of rows as ranges, how far through the selection it got, and its
 * state. A run with the same signature resumes from it; a changed input or
 * field list starts a new run.
 */
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { fnv1a32 } from "../core/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import type { OpContext } from "../operations/index.ts";

export interface Checkpoint {
  v: 1;
  sig: string;
  /** The run's rows, as ranges "0-99,120". */
  selection: string;
  /** Entries of the selection done. */
  cursor: number;
  state: "running" | "out_of_credits" | "done";
  /** Pure form: how many result parts are stored. */
  parts?: number;
}

/** Saved since before versions were checked, always with `v: 1`. */
export const CHECKPOINT = savedKind<Checkpoint>(
  1,
  z.object({
    v: z.literal(1),
    sig: z.string(),
    selection: z.string(),
    cursor: z.number(),
    state: z.enum(["running", "out_of_credits", "done"]),
    parts: z.optional(z.number()),
  }),
);

export function encodeRanges(xs: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < xs.length;) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j]! + 1) j++; // j < xs.length throughout
    parts.push(i === j ? String(xs[i]) : `${xs[i]}-${xs[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}

export function decodeRanges(s: string): number[] {
  const out: number[] = [];
  for (const part of s.split(",")) {
    if (!part) continue;
    const [a = NaN, b = a] = part.split("-").map(Number);
    for (let x = a; x <= b; x++) out.push(x);
  }
  return out;
}

/** FNV-1a, for signatures: a changed input or field list starts a new run. */
export const hash = (s: string): string => fnv1a32(s).toString(36);

export const signature = (parts: unknown[]) => hash(JSON.stringify(parts));

export const checkpointKey = (ctx: OpContext, job: string) => `doc:enrich:${ctx.scope}:${job}`;

export function* loadCheckpoint(key: string): Operation<Checkpoint | null> {
  const [raw] = yield* storeGet([key]);
  return readSaved(CHECKPOINT, raw) ?? null;
}

export function* saveCheckpoint(key: string, cp: Checkpoint): Operation<void> {
  yield* storePut({ [key]: writeSaved(CHECKPOINT, cp) });
}
