/**
 * What the preview may show for free: the companies this service has already
 * shown (candidates of a reconciliation, suggestions) or bought (profiles of
 * a data extension), remembered in the host's answer cache by id for the
 * cache lifetime. The preview never sends a paid request, and there is no
 * free call that answers a company's master data by id; a company the
 * service has not met is previewed by its id alone, saying so.
 */
import * as z from "zod/mini";
import { CompanySummary as CompanySummarySchema, type CompanySummary } from "../shared/api/index.ts";
import { cacheGet, cachePut, type Operation } from "../shared/core/index.ts";
import { readSaved, savedKind, writeSaved } from "../shared/core/index.ts";
import { boundedKey } from "../shared/operations/index.ts";
import type { OpContext } from "../shared/operations/index.ts";

/** The summary fields the card shows, checked by the API's own schema when read back. */
export const SEEN = savedKind(1, z.object({ c: CompanySummarySchema }));

/** Labels (legal form, status) are localised: one entry per scope, language and id. */
const seenKey = (ctx: OpContext, id: string) => boundedKey(["rc-seen1", ctx.scope, ctx.client.language, id].join("|"));

/** Only the summary's own fields (a profile carries far more), and only a company with a name. */
function summaryOf(c: CompanySummary): CompanySummary | null {
  const r = CompanySummarySchema.safeParse(c);
  if (!r.success || !r.data.name) return null;
  const { id, name, legalForm, street, zip, city, state, active, status, register, industry, size } = r.data;
  return { id, name, legalForm, street, zip, city, state, active, status, register, industry, size };
}

/**
 * Remember what was shown or bought. A thinner answer (a suggestion has only
 * name and city) never drops what a fuller one (a resolve, a profile) left.
 */
export function* rememberSeen(ctx: OpContext, companies: readonly CompanySummary[]): Operation<void> {
  if (ctx.cacheTtlSeconds <= 0) return;
  const fresh = new Map<string, CompanySummary>();
  for (const c of companies) {
    const s = summaryOf(c);
    if (s) fresh.set(s.id, { ...fresh.get(s.id), ...defined(s) });
  }
  const ids = [...fresh.keys()];
  const before = yield* seenSummaries(ctx, ids);
  const entries: Record<string, string> = {};
  ids.forEach((id, i) => {
    entries[seenKey(ctx, id)] = writeSaved(SEEN, { c: { ...before[i], ...defined(fresh.get(id)!) } });
  });
  yield* cachePut(entries, ctx.cacheTtlSeconds);
}

/** The fields that have a value (null and undefined never overwrite one). */
function defined(c: CompanySummary): CompanySummary {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== null && v !== undefined)) as CompanySummary;
}

/** One entry per id, in order: the summary seen, or undefined. */
export function* seenSummaries(ctx: OpContext, ids: readonly string[]): Operation<(CompanySummary | undefined)[]> {
  const raw = yield* cacheGet(ids.map((id) => seenKey(ctx, id)));
  return raw.map((r) => readSaved(SEEN, r)?.c);
}
