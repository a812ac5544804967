/**
 * What the streamed job (./job-stream.ts) keeps in its store between runs:
 * the checkpoint (which input, which job, how many rows are kept and the
 * output's mark after them) and the resolve phase's answers, one part per
 * group as it returns. From the checkpoint and the host's facts about its
 * files it decides how a run starts: resume, start over, or afresh.
 */
import { readPart, readSaved, savedKind, storeGet, storePut, writeSaved, type Operation } from "../core/index.ts";
import type { TableFacts } from "../core/index.ts";
import * as z from "zod/mini";
import type { KeyAnswer } from "./memo.ts";
import { savedKeyAnswer } from "./row-result-schema.ts";

export interface StreamCheckpoint {
  v: 2;
  input: string;
  content: string;
  encoding: string;
  sig: string;
  rowsDone: number;
  /** The unfinished output's mark after the rows done: a resume cuts it back to this. */
  bytesDone: number;
  /** An earlier finished output is paired with the input. */
  previous: boolean;
  outOfCredits: boolean;
  /** The resolve phase is over: a resume goes straight to the rows. */
  resolved?: boolean;
}

/** Saved with `v: 2`; a checkpoint of another version or shape is not resumed (its run starts again). */
const CHECKPOINT = savedKind<StreamCheckpoint>(
  2,
  z.object({
    v: z.literal(2),
    input: z.string(),
    content: z.string(),
    encoding: z.string(),
    sig: z.string(),
    rowsDone: z.number(),
    bytesDone: z.number(),
    previous: z.boolean(),
    outOfCredits: z.boolean(),
    resolved: z.optional(z.boolean()),
  }),
);

/** Store keys: the checkpoint, and the resolve phase's answers, one part per group. */
export const STREAM_CHECKPOINT_KEY = "enrich:stream:checkpoint";
export const STREAM_RESOLVED_PREFIX = "enrich:stream:resolved:";
const partKey = (n: number) => `${STREAM_RESOLVED_PREFIX}${n}`;
/** A part: the group's `[key, answer]` pairs. No version of its own: it lives only until its run finishes. */
const RESOLVED_PART = z.array(z.tuple([z.string(), savedKeyAnswer]));

export type StreamStart = "resume" | "restart" | "fresh";

/**
 * How a run starts: the same job on the same content resumes after its last
 * kept chunk; the same job on changed content (the user fixed a row after
 * Ctrl-C) starts over, keeping what it paid for; anything else starts afresh.
 * `cut`: where the unfinished output is cut back to first (null: not at all).
 */
export function streamStart(
  old: StreamCheckpoint | null,
  facts: TableFacts,
  sig: string,
): { start: StreamStart; cp: StreamCheckpoint; cut: number | null } {
  const sameJob =
    !!old &&
    old.input === facts.input &&
    old.sig === sig &&
    facts.unfinishedSize !== null &&
    facts.unfinishedSize >= old.bytesDone;
  const same = sameJob && old.content === facts.content && old.encoding === facts.encoding;
  if (same) return { start: "resume", cp: old, cut: old.bytesDone };
  const cp: StreamCheckpoint = {
    v: 2,
    input: facts.input,
    content: facts.content,
    encoding: facts.encoding,
    sig,
    rowsDone: 0,
    bytesDone: 0,
    previous: facts.finishedUsable,
    outOfCredits: false,
  };
  return sameJob ? { start: "restart", cp, cut: old.bytesDone } : { start: "fresh", cp, cut: null };
}

export function* loadStreamCheckpoint(): Operation<StreamCheckpoint | null> {
  const [raw] = yield* storeGet([STREAM_CHECKPOINT_KEY]);
  return readSaved(CHECKPOINT, raw) ?? null;
}

export function* saveStreamCheckpoint(cp: StreamCheckpoint): Operation<void> {
  yield* storePut({ [STREAM_CHECKPOINT_KEY]: writeSaved(CHECKPOINT, cp) });
}

/** The resolve phase's parts kept so far, in order. */
export function* readResolvedParts(): Operation<(readonly [string, KeyAnswer][])[]> {
  const parts: (readonly [string, KeyAnswer][])[] = [];
  for (let n = 0; ; n += 64) {
    const raws = yield* storeGet(Array.from({ length: 64 }, (_, k) => partKey(n + k)));
    for (const raw of raws) {
      if (raw === null) return parts;
      // A part torn by a kill is read as none: its answers are replayed from the host's answer journal.
      parts.push(readPart(RESOLVED_PART, raw) ?? []);
    }
  }
}

/** Keep one group's answers as part `n`. */
export function* keepResolvedPart(n: number, answers: readonly [string, KeyAnswer][]): Operation<void> {
  yield* storePut({ [partKey(n)]: JSON.stringify(answers) });
}

/** Drop the first `count` parts (a fresh start drops another job's; a finished job its own). */
export function* dropResolvedParts(count: number): Operation<void> {
  if (count > 0) yield* storePut(Object.fromEntries(Array.from({ length: count }, (_, n) => [partKey(n), null])));
}

/** The job is done: its checkpoint and its parts go (after its output replaced the finished one). */
export function* dropStreamState(parts: number): Operation<void> {
  yield* storePut({
    [STREAM_CHECKPOINT_KEY]: null,
    ...Object.fromEntries(Array.from({ length: parts }, (_, n) => [partKey(n), null])),
  });
}
