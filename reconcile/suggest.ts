/**
 * Suggest services (Reconciliation Service API 0.2, "Suggest Services"):
 * entities through the API's free suggest (rate-limited, no credits), and
 * the service's own properties and its one type, answered locally. `cursor`
 * skips that many suggestions; the API's suggest has no offset, so the
 * service asks for cursor + page and drops the first `cursor`.
 */
import type { Operation } from "../shared/core/index.ts";
import { invalid } from "../shared/core/index.ts";
import { MAX_SIZE } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { suggest } from "../shared/operations/index.ts";
import { bothLabels, EXTEND_PROPERTIES, fieldPrice, QUERY_PROPERTIES } from "./properties.ts";
import { rememberSeen } from "./seen.ts";
import { companyType, COMPANY_TYPE_ID } from "./types.ts";

/** Suggestions per page. */
export const SUGGEST_PAGE = 10;

export interface Suggestion {
  id: string;
  name: string;
  description?: string;
  notable?: { id: string; name: string }[];
}

/** `cursor`: a whole number ≥ 0; the API answers at most MAX_SIZE suggestions in all. */
export function readCursor(v: string | null): number {
  if (v === null || v === "") return 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > MAX_SIZE - SUGGEST_PAGE)
    throw invalid("cursor", got(rule.range(0, MAX_SIZE - SUGGEST_PAGE), v));
  return n;
}

export function* suggestEntities(ctx: OpContext, prefix: string, cursor: number): Operation<{ result: Suggestion[] }> {
  const r = yield* suggest(ctx, prefix, cursor + SUGGEST_PAGE);
  const type = companyType(ctx.client.language);
  const page = r.suggestions.slice(cursor, cursor + SUGGEST_PAGE);
  yield* rememberSeen(ctx, page);
  return {
    result: page.map((s) => ({
      id: s.id,
      name: s.name ?? s.id,
      ...(s.city ? { description: s.city } : {}),
      notable: [type],
    })),
  };
}

const fits = (prefix: string, ...texts: string[]) => {
  const p = prefix.trim().toLowerCase();
  return !p || texts.some((t) => t.toLowerCase().includes(p));
};

/** Properties: those a query can match on, then every extension field (with its price per company). */
export function suggestProperties(prefix: string, lang: Language): { result: Suggestion[] } {
  const out: Suggestion[] = [];
  for (const p of QUERY_PROPERTIES)
    if (fits(prefix, p.id, p.label.de, p.label.en))
      out.push({ id: p.id, name: p.label[lang], description: p.about[lang] });
  for (const f of EXTEND_PROPERTIES)
    if (!out.some((o) => o.id === f.id) && fits(prefix, f.id, f.header.de, f.header.en))
      out.push({
        id: f.id,
        name: f.header[lang],
        description: `${bothLabels(f.header, lang)} · ${fieldPrice(f, lang)}`,
      });
  return { result: out };
}

export function suggestTypes(prefix: string, lang: Language): { result: Suggestion[] } {
  const t = companyType(lang);
  return { result: fits(prefix, COMPANY_TYPE_ID, t.name) ? [t] : [] };
}

/** Data extension property proposals ("Data Extension Property Proposals"): every field, cheapest groups first (the catalogue's order). */
export function proposeProperties(type: string | null, limit: number | undefined, lang: Language) {
  const all = EXTEND_PROPERTIES.map((f) => ({
    id: f.id,
    name: f.header[lang],
    description: `${bothLabels(f.header, lang)} · ${fieldPrice(f, lang)}`,
  }));
  return {
    type: type ?? COMPANY_TYPE_ID,
    ...(limit !== undefined ? { limit } : {}),
    properties: limit !== undefined ? all.slice(0, limit) : all,
  };
}
