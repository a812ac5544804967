/** The saved form of a row's result (checkpoint parts, CLI checkpoints): see core/saved.ts. */
import * as z from "zod/mini";
import { savedBilingual, savedCell } from "../core/saved.ts";
import { ERROR_CODES } from "../core/errors.ts";
import type { Doubt } from "../operations/contradiction.ts";
import { STATUS, type Candidate, type RowOutcome, type RowResult } from "./rows.ts";
import type { KeyAnswer } from "./memo.ts";

/** Every outcome has a status text: its keys are the outcomes. */
const OUTCOMES = Object.keys(STATUS) as RowOutcome[];

const candidate: z.ZodMiniType<Candidate> = z.object({ id: z.string(), name: z.string(), city: z.string() });
const doubt: z.ZodMiniType<Doubt> = z.object({ field: z.enum(["city", "zip", "register"]), given: z.string(), found: z.string() });

export const savedRowResult: z.ZodMiniType<RowResult> = z.object({
  outcome: z.enum(OUTCOMES),
  id: z.nullable(z.string()),
  confidence: z.nullable(z.number()),
  candidates: z.optional(z.array(candidate)),
  doubt: z.optional(doubt),
  error: z.optional(z.object({ code: z.enum(ERROR_CODES), text: savedBilingual })),
  asOf: z.nullable(z.string()),
  values: z.array(savedCell),
});

/** A resolve answer as the CLI's resolution journal keeps it (one `[key, answer]` a line). */
export const savedKeyAnswer: z.ZodMiniType<KeyAnswer> = z.union([
  z.object({ o: z.literal("m"), id: z.string(), c: z.nullable(z.number()), v: z.optional(z.array(savedCell)) }),
  z.object({ o: z.literal("n") }),
  z.object({ o: z.literal("r"), c: z.nullable(z.number()), k: z.array(candidate), d: z.optional(doubt) }),
]);
