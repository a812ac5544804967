/**
 * The MCP server's tools: the specification's six actions (section 4.3) plus
 * estimate_credits and account, each a thin binding of core operations —
 * resolve, profiles, search, similar, changes, person network, the risk
 * screening — so an agent gets exactly what a spreadsheet user gets: the
 * price before spending, caching, pacing, retries, never a guessed match.
 *
 * A tool's input schema (zod, listed as JSON Schema) states what the server
 * enforces: types, bounds, enums, defaults, which fields are required; its
 * field descriptions are written from the same constants as its checks. The
 * server parses the arguments with it before the tool runs (mcp/arguments.ts)
 * and the core's validators check the values (ids, dates, filter values),
 * each naming the field in German and English, before anything is paid. Each
 * paid tool calls `pay` with its price once the price is known (after the
 * free steps: resolve, availability) and before anything is paid; the server
 * refuses at the next paid request when the budget would be exceeded.
 *
 * Here: recent_changes, person_network, account, estimate_credits and the
 * lists; company_profile in ./tools-profile.ts, search_companies and
 * similar_companies in ./tools-search.ts, portfolio_risk in
 * ./tools-portfolio.ts, what they share in ./tool-kit.ts.
 */
import * as z from "zod";
import { endpoint } from "../shared/api/index.ts";
import { schemas as S } from "../shared/api/index.ts";
import { invalid } from "../shared/core/index.ts";
import { estimate, type PlannedOperation } from "../shared/app/index.ts";
import type { Estimate } from "../shared/credits/index.ts";
import { fillPrices } from "../shared/credits/index.ts";
import { got, rule } from "../shared/i18n/index.ts";
import { changedSince } from "../shared/monitor/index.ts";
import { getAccount, getAnnouncements, getChanges, getPersonCompanies } from "../shared/operations/index.ts";
import { validate as V } from "../shared/api/index.ts";
import { countText, NOUNS } from "../shared/credits/index.ts";
import { MCP_NOUNS } from "./i18n.ts";
import { parseArguments } from "./arguments.ts";
import { type ToolDef, DEFAULT_CHANGE_PAGES, MAX_CHANGE_PAGES, ID_TEXT, same, label } from "./tool-kit.ts";
import { availabilityOf, companyProfile } from "./tools-profile.ts";
import { searchCompanies, similarCompanies } from "./tools-search.ts";
import { portfolioRisk } from "./tools-portfolio.ts";

export type { Bound, Pay, ToolAnswer, ToolDef } from "./tool-kit.ts";

// ------------------------------------------------------------ recent_changes

/** The arguments of recent_changes; a start after `now` is refused (nothing can have changed since then). */
function changesArgs(args: Record<string, unknown>, now: number) {
  const id = V.companyId(args.id);
  const since = V.isoDate(args.since, "since");
  if (Date.parse(since) > now) {
    const today = new Date(now).toISOString().slice(0, 10);
    throw invalid(
      "since",
      got(
        {
          de: `darf nicht in der Zukunft liegen (heute ist ${today})`,
          en: `must not be in the future (today is ${today})`,
        },
        args.since,
      ),
    );
  }
  const maxPages =
    args.maxPages === undefined ? DEFAULT_CHANGE_PAGES : V.integer(args.maxPages, "maxPages", 1, MAX_CHANGE_PAGES);
  const announcements = args.announcements === undefined ? true : args.announcements;
  if (typeof announcements !== "boolean") throw invalid("announcements", got(rule.type("boolean"), announcements));
  return { id, since, maxPages, announcements };
}

const recentChanges: ToolDef = {
  name: "recent_changes",
  title: "Recent changes",
  description: fillPrices(
    "Changes to a company (name, address, management, capital, status, legal form, purpose) and its official announcements since a date (YYYY-MM-DD, not in the future). " +
      "A free availability check comes first: when nothing changed or was announced since the date, nothing is bought and the call costs nothing; " +
      "neither is a kind the company has no entries of. " +
      `Price: changes {credits:changes} per page of 100 (at most \`maxPages\`, default ${DEFAULT_CHANGE_PAGES}), announcements {credits:announcementsCall}; at most maxPages + 1.`,
    "en",
  ),
  openWorld: true,
  input: z.strictObject({
    id: z.string().describe(ID_TEXT),
    since: z.string().describe("Date (YYYY-MM-DD) or ISO 8601 date-time with zone; not in the future"),
    announcements: z
      .boolean()
      .default(true)
      .describe(
        fillPrices("Also the official announcements since the date (default true, {credits:announcementsCall})", "en"),
      ),
    maxPages: z
      .int()
      .min(1)
      .max(MAX_CHANGE_PAGES)
      .default(DEFAULT_CHANGE_PAGES)
      .describe(
        `Pages of 100 changes at most (1–${MAX_CHANGE_PAGES}, default ${DEFAULT_CHANGE_PAGES}); \`complete: false\` says when older changes were left out`,
      ),
  }),
  price(args) {
    const a = changesArgs(args, Date.now());
    const free: PlannedOperation = { kind: "availability", count: 1 };
    const ann: PlannedOperation[] = a.announcements ? [{ kind: "call", endpoint: "announcements" }] : [];
    return {
      min: estimate({ kind: "all", parts: [free] }),
      max: estimate({ kind: "all", parts: [free, { kind: "call", endpoint: "changes", count: a.maxPages }, ...ann] }),
    };
  },
  *run(ctx, args, pay) {
    const a = changesArgs(args, ctx.client.now());
    const avail = yield* availabilityOf(ctx, a.id);
    // The free check's newest change or announcement (emulator/README.md: lastChangeDate covers both) says
    // whether anything happened since the date; without a date it can still say a kind has no entries at all.
    const nothingSince = avail?.lastChangeDate ? !changedSince(avail.lastChangeDate, a.since) : false;
    const wantChanges =
      !avail || (!nothingSince && avail.changes !== false && changedSince(avail.lastChangeDate, a.since));
    const wantAnn = a.announcements && (!avail || (!nothingSince && avail.announcements !== false));
    const price =
      (wantChanges ? a.maxPages * endpoint("changes").cost() : 0) + (wantAnn ? endpoint("announcements").cost() : 0);
    yield* pay(price, wantChanges && a.maxPages > 1 ? "atMost" : "exact");
    const changes = wantChanges ? yield* getChanges(ctx, a.id, a.since, undefined, { maxPages: a.maxPages }) : null;
    const ann = wantAnn ? yield* getAnnouncements(ctx, a.id, a.since, S.MAX_SIZE) : null;
    const list = changes?.changes ?? [];
    const anns = ann?.announcements ?? [];
    const complete = changes ? changes.complete : true;
    return {
      data: {
        id: a.id,
        since: a.since,
        until: changes?.until ?? null,
        changes: list,
        announcements: anns,
        complete,
        lastChangeDate: avail?.lastChangeDate ?? null,
      },
      text: (lang) => {
        const counts = `${countText(list.length, MCP_NOUNS.change, lang)} ${lang === "de" ? "und" : "and"} ${countText(anns.length, MCP_NOUNS.announcement, lang)}`;
        return lang === "de"
          ? `${a.id}: ${counts} seit ${a.since}${complete ? "" : " (unvollständig: mehr Seiten mit maxPages)"}${nothingSince ? " (laut der kostenlosen Prüfung nichts Neues seit dem Datum; nichts gekauft)" : ""}.`
          : `${a.id}: ${counts} since ${a.since}${complete ? "" : " (incomplete: more pages with maxPages)"}${nothingSince ? " (the free check shows nothing new since the date; nothing bought)" : ""}.`;
      },
    };
  },
};

// ------------------------------------------------------------ person_network

const personNetwork: ToolDef = {
  name: "person_network",
  title: "Person network",
  description: fillPrices(
    "Every company a person is involved in (manager, shareholder, …), with the role. The person id (P + 10 characters) comes from the people of company_profile. " +
      "Price: {credits:personCompanies} per call.",
    "en",
  ),
  openWorld: true,
  input: z.strictObject({ personId: z.string().describe("Person id: P + 10 letters or digits, e.g. P1234567890") }),
  price(args) {
    V.personId(args.personId);
    return same(estimate({ kind: "call", endpoint: "personCompanies" }));
  },
  *run(ctx, args, pay) {
    const personId = V.personId(args.personId);
    yield* pay(endpoint("personCompanies").cost(), "exact");
    const res = yield* getPersonCompanies(ctx, personId);
    const who = res.person?.name ?? personId;
    return {
      data: { person: res.person ?? { personId }, companies: res.companies },
      text: (lang) =>
        `${who}: ${countText(res.companies.length, NOUNS.company, lang)}: ${res.companies
          .slice(0, 10)
          .map((c) => `${label(c)}${c.role?.name ? " – " + c.role.name : ""}`)
          .join("; ")}`,
    };
  },
};

// ------------------------------------------------------------ account

const account: ToolDef = {
  name: "account",
  title: "Account",
  description:
    "The account's credit balance, plan and usage, and this server's budget (limit, spent, remaining). Free.",
  openWorld: true,
  input: z.strictObject({}),
  *run(ctx) {
    const a = yield* getAccount(ctx);
    return {
      data: { credits: a.credits, plan: a.plan ?? null, usage: a.usage ?? null },
      // Through a team server `credits` is what its budgets let this user spend (server/account.ts), not a balance.
      text: (lang) =>
        `${ctx.client.credential === "serverToken" ? (lang === "de" ? "Über den Team-Server noch verfügbar" : "Left to spend through the team server") : lang === "de" ? "Guthaben" : "Balance"}: ${countText(a.credits, NOUNS.credit, lang)}${a.plan ? (lang === "de" ? `, Tarif ${a.plan}` : `, plan ${a.plan}`) : ""}.`,
    };
  },
};

export const ACTION_TOOLS: readonly ToolDef[] = [
  companyProfile,
  searchCompanies,
  similarCompanies,
  recentChanges,
  personNetwork,
  portfolioRisk,
];

// ------------------------------------------------------------ estimate_credits

const estimateCredits: ToolDef = {
  name: "estimate_credits",
  title: "Estimate credits",
  description:
    "The price of a call before making it, from the same price table the tools pay by: credits (min and max) and requests, with a breakdown. " +
    "Sends nothing and costs nothing. `tool` is one of " +
    ACTION_TOOLS.map((t) => t.name).join(", ") +
    "; `arguments` as that tool takes them.",
  openWorld: false,
  input: z.strictObject({
    tool: z.enum(ACTION_TOOLS.map((t) => t.name) as [string, ...string[]]).describe("The tool to price"),
    arguments: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("The arguments the call would have, checked as that tool checks them"),
  }),
  *run(ctx, args) {
    const tool = ACTION_TOOLS.find((t) => t.name === args.tool);
    if (!tool?.price) throw invalid("tool", got(rule.oneOf(ACTION_TOOLS.map((t) => t.name)), args.tool));
    const { min, max } = tool.price(parseArguments(tool.input, args.arguments, "arguments."));
    const lines = (e: Estimate) => e.breakdown.filter((l) => l.credits > 0 || l.requests > 0);
    return {
      data: {
        tool: tool.name,
        credits: { min: min.credits, max: max.credits },
        requests: { min: min.requests, max: max.requests },
        breakdown: lines(max).map((l) => ({ label: l.label, credits: l.credits, requests: l.requests })),
      },
      text: (lang) => {
        const range =
          min.credits === max.credits
            ? countText(max.credits, NOUNS.credit, lang)
            : `${min.credits}–${countText(max.credits, NOUNS.credit, lang)}`;
        const detail = lines(max)
          .map((l) => `${l.label[lang]}: ${l.credits}`)
          .join("; ");
        return `${tool.name}: ${range} (${detail})`;
      },
    };
  },
};

/** Every tool the server lists, in that order. */
export const TOOLS: readonly ToolDef[] = [...ACTION_TOOLS, estimateCredits, account];

/** Tools that never spend a credit (they run without a budget check and need no key for estimate_credits). */
export const FREE_TOOLS: ReadonlySet<string> = new Set([estimateCredits.name, account.name]);
