/**
 * Batch endpoints split per company, so the team's answers serve what they
 * can and only the rest is bought: batch resolve (one item per name and
 * hints; a credit per started group of ten) and the older listing's
 * many-company POSTs (one item per company id; the price per company).
 * Each item is stored as an answer of its own and the batch's answer is
 * put together again in the order asked, as the API gives it.
 */
import { createHash } from "node:crypto";
import type { CallSpec } from "../shared/api/index.ts";
import type { Endpoint } from "../shared/api/index.ts";
import { BatchResolveResponse, V1CompaniesResponse } from "../shared/api/index.ts";
import { canonicalJsonOf } from "./canonical.ts";

export interface Split {
  /** One cache key per item of the request, in its order (equal questions, equal keys). */
  keys: string[];
  /** The company of each item, where the request names it. */
  companies: (string | null)[];
  /** The upstream body asking only for the items at these positions. */
  subBody(positions: number[]): unknown;
  /** What the ledger row names as the company of a purchase of these positions. */
  ledgerCompany(positions: number[]): string | null;
  /** The answer's item per position (stored text), or null when it does not have one per item. */
  itemsOf(body: string, positions: number[]): string[] | null;
  /** The batch's answer from one stored item per request item. */
  assemble(items: string[]): string;
}

const itemKey = (endpointId: string, item: unknown) =>
  createHash("sha256")
    .update(`${endpointId} item\n${canonicalJsonOf(item)}`)
    .digest("hex");

/**
 * The answer's JSON as the API sent it (unknown fields kept: it is stored and
 * served again), when it is JSON and `schema` accepts it; else null.
 */
function parsedAs(schema: { safeParse(value: unknown): { success: boolean } }, body: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  return schema.safeParse(parsed).success ? parsed : null;
}

type ResolveItem = { name: string; city?: string; zip?: string; register?: string; ref?: string };

function batchResolve(spec: CallSpec): Split | null {
  const companies = (spec.body as { companies?: unknown } | undefined)?.companies;
  if (!Array.isArray(companies) || companies.length === 0) return null;
  const items = companies as ResolveItem[];
  // The question is the name and its hints; `ref` is the client's label, given back as it was sent.
  const question = ({ ref: _ref, ...q }: ResolveItem) => q;
  return {
    keys: items.map((q) => itemKey("batchResolve", question(q))),
    companies: items.map(() => null),
    subBody: (positions) => ({ companies: positions.map((p) => question(items[p]!)) }),
    ledgerCompany: () => null,
    itemsOf(body, positions) {
      const parsed = parsedAs(BatchResolveResponse, body) as { results: Record<string, unknown>[] } | null;
      if (!parsed) return null;
      const results = parsed.results;
      if (results.length !== positions.length) return null;
      const byIndex = results.map((r, i) => (typeof r.index === "number" ? r.index : i));
      return positions.map((_, i) => {
        const r = results[byIndex.indexOf(i)] ?? results[i]!;
        const { index: _index, ref: _ref2, ...rest } = r;
        return JSON.stringify(rest);
      });
    },
    assemble: (stored) =>
      JSON.stringify({
        results: stored.map((s, index) => {
          const ref = items[index]!.ref;
          return { index, ...(ref !== undefined ? { ref } : {}), ...(JSON.parse(s) as Record<string, unknown>) };
        }),
      }),
  };
}

function manyCompanies(ep: Endpoint, spec: CallSpec): Split | null {
  const ids = (spec.body as { ids?: unknown } | undefined)?.ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === "string")) return null;
  // The API bills and answers each distinct company once (emulator/routes/v1.ts `many`).
  const distinct = [...new Set(ids)];
  return {
    keys: distinct.map((id) => itemKey(ep.id, id)),
    companies: distinct,
    subBody: (positions) => ({ ids: positions.map((p) => distinct[p]!) }),
    ledgerCompany: (positions) =>
      positions
        .map((p) => distinct[p]!)
        .join(",")
        .slice(0, 2000),
    itemsOf(body, positions) {
      const parsed = parsedAs(V1CompaniesResponse, body) as { companies: { id: string }[] } | null;
      if (!parsed) return null;
      const list = parsed.companies;
      const out = positions.map((p) => list.find((c) => c.id === distinct[p]));
      return out.every((c) => c !== undefined) ? out.map((c) => JSON.stringify(c)) : null;
    },
    assemble: (stored) => JSON.stringify({ companies: stored.map((s) => JSON.parse(s) as unknown) }),
  };
}

/** How a call splits per company, or null when it is asked as one question. */
export function splitOf(ep: Endpoint, spec: CallSpec): Split | null {
  if (ep.id === "batchResolve") return batchResolve(spec);
  if (ep.request !== undefined && ep.id.startsWith("v1.") && ep.id.endsWith("Many") && ep.billing === "credits")
    return manyCompanies(ep, spec);
  return null;
}
