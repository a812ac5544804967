/**
 * The risk screening of a list of company ids, priced at the minimum: the
 * free availability check says whether financials exist; a profile is then
 * fetched with financials only where they do (1 + 4 credits), otherwise
 * alone (1 credit; "no financials" is already known). One implementation for
 * every host that screens ids (the RISK formula, the MCP server's
 * portfolio_risk): the price is known after the free step, before a credit
 * is spent, so a caller can refuse it (`beforePaying`).
 */
import { profileCost } from "../api/index.ts";
import type { Company } from "../api/index.ts";
import { CompanyDataError } from "../core/index.ts";
import type { Operation } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import { getAvailability, getProfiles } from "../operations/index.ts";
import { screen, type RiskResult } from "./risk.ts";

export interface ScreenedCompany {
  profile: Company;
  risk: RiskResult;
}

export interface ScreenPlan {
  /** Ids whose profile is fetched with financials. */
  withFinancials: string[];
  /** Ids whose profile is fetched alone. */
  plain: string[];
  /** Credits the paid step costs when nothing comes from the cache. */
  credits: number;
}

/**
 * Screen `ids` (already valid company ids; duplicates are asked once). Each
 * id maps to its screening or its own error: one failing id never fails the
 * others. `beforePaying` sees the plan after the free step and may throw to
 * stop before anything is paid.
 */
export function* screenIds(
  ctx: OpContext,
  ids: string[],
  beforePaying?: (plan: ScreenPlan) => Operation<void>,
): Operation<Map<string, ScreenedCompany | CompanyDataError>> {
  const avail = yield* getAvailability(ctx, ids);
  const hasFin = (k: string) => {
    const a = avail.get(k);
    return !!a && !(a instanceof CompanyDataError) && a.financials === true && (a.financialYears?.length ?? 0) > 0;
  };
  const distinct = [...new Set(ids)];
  const withFinancials = distinct.filter(hasFin);
  const plain = distinct.filter((k) => !hasFin(k));
  if (beforePaying)
    yield* beforePaying({
      withFinancials,
      plain,
      credits: withFinancials.length * profileCost(["financials"]) + plain.length * profileCost([]),
    });
  const [a, b] = [yield* getProfiles(ctx, withFinancials, ["financials"]), yield* getProfiles(ctx, plain)];
  const out = new Map<string, ScreenedCompany | CompanyDataError>();
  for (const k of ids) {
    const p = a.get(k) ?? b.get(k);
    if (!p) out.set(k, new CompanyDataError("INTERNAL"));
    else if (p instanceof CompanyDataError) out.set(k, p);
    else out.set(k, { profile: p, risk: screen(p, hasFin(k) ? (p.financials ?? []) : null) });
  }
  return out;
}
