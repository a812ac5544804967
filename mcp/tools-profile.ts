/** The company_profile tool: one company's profile by id or name, its includes paid only where the free check finds data. */
import * as z from "zod";
import { INCLUDES, profileCost, type Include } from "../shared/api/index.ts";
import { schemas as S } from "../shared/api/index.ts";
import { CompanyDataError, invalid } from "../shared/core/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { estimate, type PlannedOperation } from "../shared/app/index.ts";
import { fillPrices } from "../shared/credits/index.ts";
import { getAvailability, getProfile, type Availability } from "../shared/operations/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { doubtText, noteText, type MatchNote } from "../shared/operations/index.ts";
import { resolveOne } from "../shared/operations/index.ts";
import { validate as V } from "../shared/api/index.ts";
import { countText } from "../shared/credits/index.ts";
import { MCP_NOUNS, ambiguousText } from "./i18n.ts";
import { type ToolDef, PROFILE_INCLUDE_DEFAULT, EXACTLY_ONE, ID_TEXT, label, listText, T } from "./tool-kit.ts";

// ------------------------------------------------------------ company_profile

function profileIncludes(args: Record<string, unknown>): Include[] {
  return args.include === undefined ? PROFILE_INCLUDE_DEFAULT : V.includes(args.include);
}

function profileTarget(args: Record<string, unknown>): { id: string } | { query: S.ResolveQuery } {
  const hasId = args.id !== undefined && args.id !== "";
  const hasName = args.name !== undefined && args.name !== "";
  if (hasId === hasName)
    throw invalid("id", { de: "bitte genau eines angeben: id oder name", en: "please give exactly one of id or name" });
  if (hasId) return { id: V.companyId(args.id) };
  return { query: V.resolveQuery({ name: args.name, city: args.city, zip: args.zip, register: args.register }) };
}

/** An include is paid for only where the free availability check does not rule it out. */
function available(a: Availability | null, inc: Include): boolean {
  if (!a) return true;
  if (inc === "financials") return a.financials === true && (a.financialYears?.length ?? 0) > 0;
  return a[inc] !== false;
}

export function* availabilityOf(ctx: OpContext, id: string): Operation<Availability | null> {
  const a = (yield* getAvailability(ctx, [id])).get(id);
  if (a instanceof CompanyDataError) {
    if (a.code === "NOT_FOUND" || a.code === "INVALID_INPUT") throw a;
    return null; // a passing failure of the free check: pay for what was asked, as without it
  }
  return a ?? null;
}

export const companyProfile: ToolDef = {
  name: "company_profile",
  title: "Company profile",
  description: fillPrices(
    "Full profile of one German company: master data (name, legal form, address, register, status, industry, size), " +
      "plus people (management) and financials by default. Give `id` (DE + 10 characters) or `name` (+ city, zip, register). " +
      "A name that fits several companies answers status 'ambiguous' with its candidates and costs nothing: pick one and call again with its id; " +
      "it is never guessed. Price: {credits:profile} for the profile, people +{n:people}, announcements +{n:announcements}, financials +{n:financials} (default {credits:card}); " +
      "resolving a name and the availability check are free, and includes the company has no data for are not bought. " +
      "Answers this server fetched in the last 6 hours cost nothing.",
    "en",
  ),
  openWorld: true,
  input: z
    .strictObject({
      id: z.string().optional().describe(`${ID_TEXT}; give either id or name`),
      name: z.string().max(500).optional().describe("Company name, when no id is known; give either id or name"),
      city: z.string().max(200).optional().describe("City, to tell companies of the same name apart (with name)"),
      zip: z.string().max(10).optional().describe("Postcode (with name)"),
      register: z.string().max(200).optional().describe("Register entry, e.g. 'HRB 6684 München' (with name)"),
      include: z
        .array(z.enum(INCLUDES as [Include, ...Include[]]))
        .default(PROFILE_INCLUDE_DEFAULT)
        .describe(
          fillPrices(
            `Extra data: people (+{n:people}), announcements (+{n:announcements}), financials (+{n:financials}); default ${PROFILE_INCLUDE_DEFAULT.join(" and ")}. [] for the master data alone ({credits:profile}).`,
            "en",
          ),
        ),
    })
    .meta(EXACTLY_ONE("id", "name")),
  price(args) {
    const target = profileTarget(args);
    const include = profileIncludes(args);
    const free: PlannedOperation[] = [{ kind: "availability", count: 1 }];
    if ("query" in target) free.unshift({ kind: "resolve", rows: 1, mode: "free" });
    return {
      min: estimate({ kind: "all", parts: [...free, { kind: "profile", count: 1 }] }),
      max: estimate({ kind: "all", parts: [...free, { kind: "profile", count: 1, include }] }),
    };
  },
  *run(ctx, args, pay) {
    const target = profileTarget(args);
    const include = profileIncludes(args);
    let id: string;
    let confidence: number | null = null;
    let note: MatchNote | null = null;
    if ("id" in target) id = target.id;
    else {
      const row = yield* resolveOne(ctx, target.query);
      if (row.status === "error") throw row.error ?? new CompanyDataError("INTERNAL");
      if (row.status === "ambiguous") {
        const candidates = row.candidates;
        // A match refused by the one verdict (shared/operations/contradiction.ts) says why, as every host does.
        const reason = row.doubt ? { de: doubtText(row.doubt, "de"), en: doubtText(row.doubt, "en") } : null;
        return {
          data: {
            status: "ambiguous",
            query: target.query,
            candidates,
            ...(reason ? { reason, confidence: row.confidence } : {}),
          },
          text: (lang) =>
            reason
              ? lang === "de"
                ? `Nicht übernommen (${reason.de}): ${listText(candidates)}. Bitte mit der id der richtigen Firma erneut fragen.`
                : `Not taken (${reason.en}): ${listText(candidates)}. Please ask again with the id of the right company.`
              : ambiguousText(candidates.length, target.query.name, listText(candidates), lang),
        };
      }
      if (row.status === "not_found" || !row.match) {
        return {
          data: { status: "not_found", query: target.query },
          text: T(`Keine Firma zu „${target.query.name}“ gefunden.`, `No company found for "${target.query.name}".`),
        };
      }
      id = row.match.id;
      confidence = row.confidence;
      note = row.note ?? null;
    }
    const a = yield* availabilityOf(ctx, id);
    const bought = include.filter((inc) => available(a, inc));
    const notAvailable = include.filter((inc) => !bought.includes(inc));
    yield* pay(profileCost(bought), "exact");
    const company = yield* getProfile(ctx, id, bought);
    const people = company.people?.length ?? 0;
    const years = company.financials?.map((f) => f.year) ?? [];
    return {
      data: {
        status: "matched",
        confidence,
        ...(note ? { note: { ...note, de: noteText(note, "de"), en: noteText(note, "en") } } : {}),
        company,
        notAvailable,
      },
      text: (lang) => {
        const head = `${label(company)}${note ? ` (${noteText(note, lang)})` : ""}${company.legalForm?.name ? ", " + company.legalForm.name : ""}${company.status?.name ? ", " + company.status.name : ""}`;
        const parts = [head];
        if (bought.includes("people")) parts.push(countText(people, MCP_NOUNS.person, lang));
        if (bought.includes("financials"))
          parts.push(
            lang === "de"
              ? `Finanzjahre: ${years.join(", ") || "keine"}`
              : `financial years: ${years.join(", ") || "none"}`,
          );
        if (notAvailable.length)
          parts.push(
            lang === "de"
              ? `nicht vorhanden (nicht bezahlt): ${notAvailable.join(", ")}`
              : `not available (not paid for): ${notAvailable.join(", ")}`,
          );
        return parts.join("; ");
      },
    };
  },
};
