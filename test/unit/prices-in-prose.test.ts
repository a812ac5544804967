/**
 * Prices in prose agree with the one price table (shared/api/endpoints.ts).
 * The product's own texts name prices by key (shared/credits/prices.ts), so
 * they follow the catalogue by construction; this test keeps it that way
 * (no literal price left in their sources) and checks what cannot compute:
 * the catalogue's own priceText and the READMEs' price statements. A price
 * that changes while a README still states the old one fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ENDPOINTS, INCLUDE_COST, endpoint, profileCost } from "../../shared/api/endpoints.ts";
import { PRICE, fillPrices, priced } from "../../shared/credits/prices.ts";
import { MAX_ENTRY_CREDITS } from "../../shared/monitor/estimate.ts";
import { GROUP_LABEL } from "../../shared/enrich/fields.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

describe("prices filled in from the catalogue", () => {
  test("{credits:key} and {n:key} become the catalogue's figure, with the noun in the user's language", () => {
    expect(fillPrices("{credits:similar}", "de")).toBe(`${endpoint("similar").cost()} Credits`);
    expect(fillPrices("{credits:profile}", "en")).toBe("1 credit");
    expect(fillPrices("+{n:financials}", "en")).toBe(`+${INCLUDE_COST.financials}`);
    expect(priced({ de: "{credits:search} je Seite", en: "{credits:search} per page" })).toEqual({
      de: "1 Credit je Seite",
      en: "1 credit per page",
    });
    expect(GROUP_LABEL.financials.en).toBe(`Financials (+${INCLUDE_COST.financials} credits)`);
  });

  test("an unknown price key fails where the text is defined, not in front of a user", () => {
    expect(() => fillPrices("costs {credits:nothing}", "en")).toThrow(/unknown price "nothing"/);
  });

  /** The modules whose texts state prices: none may write a figure instead of a key. */
  const PROSE_SOURCES = [
    "shared/ui/strings.ts",
    "shared/ui/panels/help.ts",
    "shared/enrich/fields.ts",
    "shared/i18n/fields.ts",
    "shared/functions/lists.ts",
    "shared/functions/company.ts",
    "shared/functions/lookup.ts",
    "shared/functions/risk.ts",
    "shared/monitor/estimate.ts",
    "cli/i18n.ts",
    "mcp/tools.ts",
    "mcp/tools-profile.ts",
    "mcp/tools-search.ts",
    "mcp/tools-portfolio.ts",
    "mcp/tool-kit.ts",
    "excel-addin/build/localise.ts",
  ];
  /** Figures that are not catalogue prices: the sign-up's included credits (spec 8.1), the singular of the count format. */
  const NOT_A_PRICE = [
    /100 Credits inklusive/,
    /100 credits included/,
    /^oneCredit: \{ de: "1 Credit", en: "1 credit" \},$/,
  ];
  const LITERAL_PRICE = [
    /\b\d[\d.,]*\s+(?:Credits?|credits?)\b/,
    /\(\+\d+\)/,
    /\+\d+\s*(?:Credits?|credits?)\b/,
    /(?:people|announcements|financials|Personen|Bekanntmachungen|Finanzdaten)\s+\+\d/,
  ];

  test.each(PROSE_SOURCES)("%s states no price as a literal figure", (file) => {
    const offending = read(file)
      .split("\n")
      .map((line, i) => ({ line: line.trim(), at: i + 1 }))
      // Comments explain code; only text a user reads must follow the catalogue.
      .filter(({ line }) => !line.startsWith("*") && !line.startsWith("/*") && !line.startsWith("//"))
      .map(({ line, at }) => ({ at, line: NOT_A_PRICE.reduce((l, re) => l.replace(re, ""), line) }))
      .filter(({ line }) => LITERAL_PRICE.some((re) => re.test(line)))
      .map(({ at, line }) => `${file}:${at}: ${line.slice(0, 160)}`);
    expect(offending, "write {credits:key} or {n:key} (shared/credits/prices.ts) instead of the figure").toEqual([]);
  });
});

describe("the catalogue's priceText", () => {
  test("states what cost() charges", () => {
    for (const e of ENDPOINTS) {
      const text = e.priceText;
      if (/^\d+$/.test(text)) expect(Number(text), e.id).toBe(e.cost());
      else if (/^\d+ per company$/.test(text)) expect(Number.parseInt(text, 10), e.id).toBe(e.cost({ count: 1 }));
      else if (e.id === "batchResolve") {
        expect(text).toBe(`ceil(n/${PRICE.batchGroup})`);
        for (const n of [1, 9, 10, 11, 100]) expect(e.cost({ count: n })).toBe(Math.ceil(n / PRICE.batchGroup));
      } else if (e.id === "profile") {
        expect(text).toBe(
          `${profileCost([])} (+${INCLUDE_COST.people} people, +${INCLUDE_COST.announcements} announcements, +${INCLUDE_COST.financials} financials)`,
        );
      } else throw new Error(`${e.id}: priceText "${text}" has no check here`);
    }
  });
});

/**
 * One price statement of a README: where it is (a pattern whose groups are
 * the figures) and what the catalogue says they are. A statement reworded so
 * the pattern no longer finds it fails too: update the pattern with the text.
 */
interface Claim {
  file: string;
  what: string;
  pattern: RegExp;
  prices: number[];
}

const fn = (name: string, rest: string) => new RegExp(`\\| \`${name}[^\\n]*?${rest}[^\\n]*\\|\\s*$`, "m");

const CLAIMS: Claim[] = [
  {
    file: "docs/credits.md",
    what: "search and find similar beside their buttons",
    pattern: /Search \((\d+) credits?\) and Find similar \((\d+)\)/,
    prices: [PRICE.search, PRICE.similar],
  },
  {
    file: "docs/credits.md",
    what: "the most a portfolio entry can cost",
    pattern: /counted at the most an entry can cost \((\d+) credits\)/,
    prices: [MAX_ENTRY_CREDITS],
  },
  {
    file: "docs/credits.md",
    what: "a further page of changes",
    pattern: /\((\d+) credits? per further page of 100\)/,
    prices: [PRICE.changes],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_SEARCH",
    pattern: fn("COMPANY_SEARCH", "(\\d+) credits? per search\\."),
    prices: [PRICE.search],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_RESOLVE",
    pattern: fn("COMPANY_RESOLVE", "batch resolve, (\\d+) credits? per (\\d+)\\."),
    prices: [PRICE.batchResolve, PRICE.batchGroup],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_PROFILE",
    pattern: fn("COMPANY_PROFILE", "(\\d+) credits?, \\+(\\d+) people, \\+(\\d+) announcements, \\+(\\d+) financials"),
    prices: [PRICE.profile, PRICE.people, PRICE.announcements, PRICE.financials],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_PEOPLE",
    pattern: fn("COMPANY_PEOPLE", "(\\d+) credits?\\."),
    prices: [PRICE.peopleCall],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_ANNOUNCEMENTS",
    pattern: fn("COMPANY_ANNOUNCEMENTS", "(\\d+) credits?\\."),
    prices: [PRICE.announcementsCall],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_FINANCIALS",
    pattern: fn("COMPANY_FINANCIALS", "(\\d+) credits?\\."),
    prices: [PRICE.financialsCall],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_CHANGES",
    pattern: fn("COMPANY_CHANGES", "(\\d+) credits?\\."),
    prices: [PRICE.changes],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_NEARBY",
    pattern: fn("COMPANY_NEARBY", "(\\d+) credits?\\."),
    prices: [PRICE.nearby],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_PEERS",
    pattern: fn("COMPANY_PEERS", "(\\d+) credits?\\."),
    prices: [PRICE.peers],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_SIMILAR",
    pattern: fn("COMPANY_SIMILAR", "(\\d+) credits?\\."),
    prices: [PRICE.similar],
  },
  {
    file: "apps-script/README.md",
    what: "PERSON_COMPANIES",
    pattern: fn("PERSON_COMPANIES", "(\\d+) credits?\\."),
    prices: [PRICE.personCompanies],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_EVENTS",
    pattern: fn("COMPANY_EVENTS", "(\\d+) credits? each\\."),
    prices: [PRICE.events],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_JOBS",
    pattern: fn("COMPANY_EVENTS", "(\\d+) credits? each\\."),
    prices: [PRICE.jobs],
  },
  {
    file: "apps-script/README.md",
    what: "COMPANY_RISK",
    pattern: fn("COMPANY_RISK", "(\\d+) credits?, or (\\d+) where financials exist\\."),
    prices: [PRICE.profile, PRICE.profileWithFinancials],
  },
  {
    file: "excel-addin/README.md",
    what: "gathered RESOLVE cells",
    pattern: /batch resolves of 100 names \((\d+) credits? per (\d+) names\)/,
    prices: [PRICE.batchResolve, PRICE.batchGroup],
  },
  {
    file: "excel-addin/README.md",
    what: "the entity card",
    pattern:
      /Price: up to (\d+) credits per company\*\* — the profile with\s+`include=financials,people` is (\d+) \+ (\d+) \+ (\d+)/,
    prices: [PRICE.card, PRICE.profile, PRICE.financials, PRICE.people],
  },
  {
    file: "excel-addin/README.md",
    what: "the entity card without financials or people",
    pattern: /\((\d+), (\d+) or (\d+) credits then\)/,
    prices: [PRICE.profile, profileCost(["people"]), PRICE.profileWithFinancials],
  },
  {
    file: "shared/monitor/README.md",
    what: "a further page of changes",
    pattern: /costs \*\*plus (\d+) credits? per\s+further 100 changes\*\*/,
    prices: [PRICE.changes],
  },
  {
    file: "emulator/README.md",
    what: "a page of changes",
    pattern: /each page costs (\d+) credits? like the first/,
    prices: [PRICE.changes],
  },
  {
    file: "cli/README.md",
    what: "search pages",
    pattern: /100 at a\s+time, (\d+) credits? per page\. The first page \((\d+) credits?, as any search\)/,
    prices: [PRICE.search, PRICE.search],
  },
  {
    file: "mcp/README.md",
    what: "portfolio_risk's batch resolve",
    pattern: /in paid batches by default \((\d+) credits for\s+100 names/,
    prices: [Math.ceil(100 / PRICE.batchGroup) * PRICE.batchResolve],
  },
  {
    file: "mcp/README.md",
    what: "the default profile",
    pattern: /`company_profile` with "Spent: (\d+) credits"/,
    prices: [PRICE.card],
  },
];

describe("README price statements", () => {
  test.each(CLAIMS.map((c) => [`${c.file}: ${c.what}`, c] as const))("%s", (_, c) => {
    const m = c.pattern.exec(read(c.file));
    expect(
      m,
      `${c.file} no longer states the price of ${c.what} as ${String(c.pattern)}: update the claim with the text`,
    ).not.toBeNull();
    const stated = m ? m.slice(1).map(Number) : [];
    expect(stated, `${c.file}, ${c.what}: "${m?.[0] ?? ""}" disagrees with shared/api/endpoints.ts`).toEqual(c.prices);
  });
});
