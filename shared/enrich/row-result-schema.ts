/** The saved form of a row's result (checkpoint parts, CLI checkpoints): see core/saved.ts. */
import * as z from "zod/mini";
import { savedBilingual, savedCell } from "../core/index.ts";
import { ERROR_CODES } from "../core/index.ts";
import { DOUBT_FIELDS, type Doubt, type MatchNote } from "../operations/index.ts";
import { STATUS, type Candidate, type RowOutcome, type RowResult } from "./rows.ts";
import type { KeyAnswer } from "./memo.ts";

/** Every outcome has a status text: its keys are the outcomes. */
const OUTCOMES = Object.keys(STATUS) as RowOutcome[];

const candidate: z.ZodMiniType<Candidate> = z.object({ id: z.string(), name: z.string(), city: z.string() });
// New fields and the note are additions: what earlier versions saved still reads.
const doubt: z.ZodMiniType<Doubt> = z.object({ field: z.enum(DOUBT_FIELDS), given: z.string(), found: z.string() });
const note: z.ZodMiniType<MatchNote> = z.object({ kind: z.literal("formerName"), name: z.string() });

export const savedRowResult: z.ZodMiniType<RowResult> = z.object({
  outcome: z.enum(OUTCOMES),
  id: z.nullable(z.string()),
  confidence: z.nullable(z.number()),
  candidates: z.optional(z.array(candidate)),
  doubt: z.optional(doubt),
  note: z.optional(note),
  error: z.optional(z.object({ code: z.enum(ERROR_CODES), text: savedBilingual })),
  asOf: z.nullable(z.string()),
  values: z.array(savedCell),
});

/** A resolve answer as the CLI's resolution journal keeps it (one `[key, answer]` a line). */
export const savedKeyAnswer: z.ZodMiniType<KeyAnswer> = z.union([
  z.object({
    o: z.literal("m"),
    id: z.string(),
    c: z.nullable(z.number()),
    v: z.optional(z.array(savedCell)),
    n: z.optional(note),
  }),
  z.object({ o: z.literal("n") }),
  z.object({ o: z.literal("r"), c: z.nullable(z.number()), k: z.array(candidate), d: z.optional(doubt) }),
]);
