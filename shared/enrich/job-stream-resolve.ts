/**
 * The streamed job's resolve phase: every name its estimate pass found still
 * unknown, resolved before the rows are worked, in groups of whole batch
 * calls sent at once (at most RESOLVE_GROUP_CALLS, which keeps the answers
 * held at once small), each group's answers kept in the store as it returns
 * (./job-stream-state.ts). Names whose call failed otherwise are asked again
 * with their chunk. A whole file so pays ceil(names/10) batch resolves, and
 * the profiles' price is exact before they are bought.
 */
import type { Operation } from "../core/index.ts";
import { normaliseKey } from "../batch/index.ts";
import type { ResolveQuery } from "../api/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { Language } from "../i18n/index.ts";
import { priceAfterMatching, type PriceAfterMatching } from "./after-matching.ts";
import { keyAnswer, type EnrichDeps } from "./chunk.ts";
import type { FieldDef } from "./fields.ts";
import type { KeyAnswer, RunMemo } from "./memo.ts";
import { keepResolvedPart, type StreamCheckpoint } from "./job-stream-state.ts";

/** Batch calls a resolve group sends at once (a 1,000-row file's names are one group). */
export const RESOLVE_GROUP_CALLS = 10;

/** What the estimate pass collected for the resolve phase. */
export interface ResolvePass {
  /** Every name of the rows to work on, in order (repeats included: the memo tells the new ones). */
  queries: ResolveQuery[];
  /** Ids given in the input (their profiles count in the price). */
  givenIds: Set<string>;
}

export interface ResolveRun {
  spec: { fieldIds: string[]; fields: FieldDef[]; mode: "batch" | "free"; lang: Language };
  memo: RunMemo;
  cp: StreamCheckpoint;
  pass: ResolvePass;
  /** Parts kept in the store so far (the next group's answers are part `parts`). */
  parts: number;
  parallel: number;
  events: { names?(done: number, total: number): void };
}

/** Resolve ahead; the parts now kept, and the price of the profiles when credits are left. */
export function* resolveAhead(
  deps: EnrichDeps,
  ctx: OpContext,
  r: ResolveRun,
): Operation<{ parts: number; after: PriceAfterMatching | null }> {
  const { cp, memo, spec } = r;
  let parts = r.parts;
  const todo = r.pass.queries.filter(
    (query) => memo.pendingKey({ index: 0, query, id: null, confidence: null }) !== null,
  );
  r.events.names?.(0, todo.length);
  const group = ctx.maxBatch * Math.max(1, Math.min(r.parallel, RESOLVE_GROUP_CALLS));
  for (let at = 0; at < todo.length && !cp.outOfCredits; at += group) {
    const part = todo.slice(at, at + group);
    const answers = yield* deps.resolveMany(ctx, part, { mode: spec.mode });
    const kept: [string, KeyAnswer][] = [];
    answers.forEach((res, j) => {
      const a = keyAnswer(res, spec.fields, memo.needs, spec.lang);
      const query = part[j]; // resolveMany answers each query, in order
      if (a && query) {
        const key = normaliseKey(query);
        memo.rememberKey(key, a);
        kept.push([key, a]);
      } else if (res.error?.code === "OUT_OF_CREDITS") cp.outOfCredits = true;
      else if (res.error?.code === "MISSING_KEY" || res.error?.code === "INVALID_KEY") throw res.error;
    });
    if (kept.length) yield* keepResolvedPart(parts++, kept);
    r.events.names?.(Math.min(todo.length, at + group), todo.length);
  }
  cp.resolved = true;
  if (cp.outOfCredits) return { parts, after: null };
  const matched = [...r.pass.givenIds];
  for (const a of memo.keys.values()) if (a.o === "m") matched.push(a.id);
  const after = priceAfterMatching(matched, spec.fieldIds, (id) => memo.companies.has(id));
  return { parts, after: after.perCompany > 0 ? after : null };
}
