/**
 * The portfolio_risk tool: a list of ids or names resolved (never a guessed
 * match) and screened for risk signals, each entry's result on its own, and
 * the counts per risk group.
 */
import * as z from "zod";
import { profileCost } from "../shared/api/index.ts";
import { schemas as S } from "../shared/api/index.ts";
import { CompanyDataError, invalid } from "../shared/core/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { estimate, type PlannedOperation } from "../shared/app/index.ts";
import { fillPrices } from "../shared/credits/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import { GROUP_LABEL, SCREENING_NOTE, type RiskFlag, type RiskGroup } from "../shared/monitor/index.ts";
import { screenIds, type ScreenedCompany } from "../shared/monitor/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { doubtText, noteText } from "../shared/operations/index.ts";
import { resolveMany, type ResolveMode, type ResolvedRow } from "../shared/operations/index.ts";
import { validate as V } from "../shared/api/index.ts";
import { type Pay, type ToolDef, MAX_PORTFOLIO } from "./tool-kit.ts";

// ------------------------------------------------------------ portfolio_risk

type Entry = { kind: "id"; id: string } | { kind: "name"; query: S.ResolveQuery };

function portfolioEntries(args: Record<string, unknown>): { entries: Entry[]; mode: ResolveMode } {
  const list = V.batch<unknown>(args.companies, "companies", MAX_PORTFOLIO, 1);
  const mode = args.resolve === undefined ? "batch" : args.resolve;
  if (mode !== "batch" && mode !== "free") throw invalid("resolve", got(rule.oneOf(["batch", "free"]), mode));
  const entries = list.map((v, i): Entry => {
    const field = `companies[${i}]`;
    if (typeof v === "string") {
      const t = v.trim().toUpperCase();
      if (S.COMPANY_ID_PATTERN.test(t)) return { kind: "id", id: t };
      return { kind: "name", query: V.resolveQuery({ name: v }, field) };
    }
    if (typeof v === "object" && v !== null && "id" in v && v.id !== undefined)
      return { kind: "id", id: V.companyId(v.id, `${field}.id`) };
    return { kind: "name", query: V.resolveQuery(v, field) };
  });
  return { entries, mode };
}

type RiskCounts = Record<RiskGroup | "ambiguous" | "notFound" | "error", number>;

/**
 * Resolve the entries given by name (one row per entry, null for those given
 * by id). The price is named first: at least the resolution and one credit
 * per company given by id, so a hopeless call is refused before anything is paid.
 */
function* resolveNamedEntries(
  ctx: OpContext,
  entries: Entry[],
  mode: ResolveMode,
  pay: Pay,
): Operation<(ResolvedRow | null)[]> {
  const named = entries.map((e, i) => ({ e, i })).filter((x) => x.e.kind === "name");
  const rows: (ResolvedRow | null)[] = entries.map(() => null);
  if (!named.length) return rows;
  const resolvePrice = estimate({ kind: "resolve", rows: named.length, mode }).credits;
  yield* pay(
    resolvePrice + (entries.length - named.length) * profileCost([]),
    resolvePrice > 0 || named.length < entries.length ? "atLeast" : "exact",
  );
  const resolved = yield* resolveMany(
    ctx,
    named.map((x) => (x.e as { query: S.ResolveQuery }).query),
    { mode },
  );
  named.forEach((x, k) => {
    rows[x.i] = resolved[k] ?? null;
  }); // one answer per query, in order
  return rows;
}

/** The company id an entry stands for: its own, or its name's unambiguous match; null otherwise. */
function entryId(e: Entry, row: ResolvedRow | null | undefined): string | null {
  if (e.kind === "id") return e.id;
  return row?.status === "matched" && row.match ? row.match.id : null;
}

/** The answer for an entry without a company id: ambiguous (with candidates), an error, or not found. */
function unmatchedResult(input: string | S.ResolveQuery, r: ResolvedRow | null | undefined, groups: RiskCounts) {
  if (r?.status === "ambiguous") {
    groups.ambiguous++;
    // Why the service's match was refused (shared/operations/contradiction.ts); null when several fit.
    const reason = r.doubt ? { de: doubtText(r.doubt, "de"), en: doubtText(r.doubt, "en") } : null;
    return {
      input,
      status: "ambiguous",
      candidates: r.candidates,
      reason,
      confidence: reason ? r.confidence : null,
    };
  }
  if (r?.status === "error" && r.error) {
    groups.error++;
    return {
      input,
      status: "error",
      error: { code: r.error.code, de: r.error.text("de"), en: r.error.text("en") },
    };
  }
  groups.notFound++;
  return { input, status: "not_found" };
}

/** One entry's answer, counted in `groups`: its screening, or why there is none. */
function portfolioResult(
  e: Entry,
  r: ResolvedRow | null | undefined,
  screened: Map<string, ScreenedCompany | CompanyDataError>,
  groups: RiskCounts,
) {
  const input = e.kind === "id" ? e.id : e.query;
  const id = entryId(e, r);
  if (!id) return unmatchedResult(input, r, groups);
  const s = screened.get(id);
  if (!s || s instanceof CompanyDataError) {
    const err = s instanceof CompanyDataError ? s : new CompanyDataError("INTERNAL");
    if (err.code === "NOT_FOUND") {
      groups.notFound++;
      return { input, status: "not_found", id };
    }
    groups.error++;
    return { input, status: "error", id, error: { code: err.code, de: err.text("de"), en: err.text("en") } };
  }
  groups[s.risk.group]++;
  return {
    input,
    status: "matched",
    id,
    name: s.profile.name ?? null,
    city: s.profile.city ?? null,
    confidence: r?.confidence ?? null,
    note: r?.note ? { de: noteText(r.note, "de"), en: noteText(r.note, "en") } : null,
    group: s.risk.group,
    reason: s.risk.flag,
    flags: s.risk.flags,
    keyFigure: s.risk.keyFigure,
  };
}

/** The summary for the model: counts per group, then one line per flagged company. */
function portfolioText(
  groups: RiskCounts,
  results: readonly { status: string; id?: string; name?: string | null; group?: RiskGroup; flags?: RiskFlag[] }[],
  lang: Language,
): string {
  const head = (["risk", "watch", "none"] as const).map((g) => `${GROUP_LABEL[g][lang]}: ${groups[g]}`).join(", ");
  const other =
    lang === "de"
      ? `; mehrdeutig: ${groups.ambiguous}, nicht gefunden: ${groups.notFound}, Fehler: ${groups.error}`
      : `; ambiguous: ${groups.ambiguous}, not found: ${groups.notFound}, errors: ${groups.error}`;
  const flagged = results
    .filter((x) => x.status === "matched" && x.group !== "none")
    .map(
      (x) =>
        `${x.name ?? x.id} (${x.id}): ${GROUP_LABEL[x.group as RiskGroup][lang]} – ${(x.flags ?? []).map((f: RiskFlag) => f.text[lang]).join(", ")}`,
    );
  return `${head}${other}. ${SCREENING_NOTE[lang]}.` + (flagged.length ? "\n" + flagged.join("\n") : "");
}

export const portfolioRisk: ToolDef = {
  name: "portfolio_risk",
  title: "Portfolio risk",
  description: fillPrices(
    "Risk screening of up to 100 companies (ids, names, or {name, city, zip, register}): each entry gets group risk (insolvent, being deleted, " +
      "in liquidation, not active, a register warning), watch (latest net income negative, or no financials) or none, with every reason, as the " +
      "portfolio monitor groups them. " +
      SCREENING_NOTE.en +
      ". Names are resolved first; a name that fits several companies answers its candidates " +
      "and is not screened (never guessed). Price: resolving names in batches ceil(names/{n:batchGroup}) credits (resolve: 'free' is free but rate-limited and slow), " +
      "a free availability check, then {credits:profile} per company, {n:profileWithFinancials} with financials (only where financials exist). The exact price is checked against the budget before paying.",
    "en",
  ),
  openWorld: true,
  input: z.strictObject({
    companies: z
      .array(
        z.union([
          z.string(),
          z.strictObject({
            id: z.string().optional(),
            name: z.string().optional(),
            city: z.string().optional(),
            zip: z.string().optional(),
            register: z.string().optional(),
          }),
        ]),
      )
      .min(1)
      .max(MAX_PORTFOLIO)
      .describe(
        `1–${MAX_PORTFOLIO} entries: a company id (DE + 10 letters or digits), a name, or {id} or {name, city, zip, register}`,
      ),
    resolve: z
      .enum(["batch", "free"])
      .default("batch")
      .describe(
        fillPrices(
          "How names are resolved: batch ({credits:batchResolve} per {n:batchGroup} names, fast; default) or free (rate-limited, slow)",
          "en",
        ),
      ),
  }),
  price(args) {
    const { entries, mode } = portfolioEntries(args);
    const names = entries.filter((e) => e.kind === "name").length;
    const resolve: PlannedOperation = { kind: "resolve", rows: names, mode };
    const avail: PlannedOperation = { kind: "availability", count: entries.length };
    return {
      min: estimate({ kind: "all", parts: [resolve, avail, { kind: "profile", count: entries.length - names }] }),
      max: estimate({
        kind: "all",
        parts: [resolve, avail, { kind: "profile", count: entries.length, include: ["financials"] }],
      }),
    };
  },
  *run(ctx, args, pay) {
    const { entries, mode } = portfolioEntries(args);
    const rows = yield* resolveNamedEntries(ctx, entries, mode, pay);
    const ids = entries.map((e, i) => entryId(e, rows[i])).filter((x): x is string => x !== null);
    const screened: Map<string, ScreenedCompany | CompanyDataError> = ids.length
      ? yield* screenIds(ctx, ids, (plan) => pay(plan.credits, "exact"))
      : new Map<string, ScreenedCompany | CompanyDataError>();
    const groups: RiskCounts = { risk: 0, watch: 0, none: 0, ambiguous: 0, notFound: 0, error: 0 };
    const results = entries.map((e, i) => portfolioResult(e, rows[i], screened, groups));
    return {
      data: { note: SCREENING_NOTE, groups, results },
      text: (lang) => portfolioText(groups, results, lang),
    };
  },
};
