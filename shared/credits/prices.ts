/**
 * Prices in prose: every price a help text, field group, function
 * description or tool description states, read from the one price table
 * (shared/api/endpoints.ts). A text names a price by key instead of writing
 * the figure: `{credits:similar}` becomes "2 Credits" / "2 credits",
 * `{n:financials}` the bare figure ("+{n:financials}" → "+4"). So a price
 * that changes in the catalogue changes in every text; an unknown key throws
 * when the text is defined (at module load), never later in front of a user.
 * READMEs cannot compute: test/unit/prices-in-prose.test.ts compares their
 * price statements with this table.
 */
import { BATCH_RESOLVE_GROUP, INCLUDE_COST, batchResolveCost, endpoint, profileCost } from "../api/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import { NOUNS, countText, groupDigits } from "./wording.ts";

/** The prices texts state, by the name a text uses. */
export const PRICE = {
  /** One search, or one page of 100 results. */
  search: endpoint("search").cost(),
  /** Names one batch-resolve credit pays for … */
  batchGroup: BATCH_RESOLVE_GROUP,
  /** … and what that group costs. */
  batchResolve: batchResolveCost(BATCH_RESOLVE_GROUP),
  /** The base profile, and what each include adds to it. */
  profile: profileCost([]),
  people: INCLUDE_COST.people,
  announcements: INCLUDE_COST.announcements,
  financials: INCLUDE_COST.financials,
  profileWithFinancials: profileCost(["financials"]),
  /** The entity card (and the monitor's most per entry): profile with financials and people. */
  card: profileCost(["financials", "people"]),
  peopleCall: endpoint("people").cost(),
  announcementsCall: endpoint("announcements").cost(),
  financialsCall: endpoint("financials").cost(),
  /** One page of 100 changes. */
  changes: endpoint("changes").cost(),
  nearby: endpoint("nearby").cost(),
  peers: endpoint("peers").cost(),
  similar: endpoint("similar").cost(),
  personCompanies: endpoint("personCompanies").cost(),
  events: endpoint("v1.events").cost(),
  jobs: endpoint("v1.jobs").cost(),
} as const satisfies Record<string, number>;

export type PriceKey = keyof typeof PRICE;

const isPriceKey = (k: string): k is PriceKey => Object.prototype.hasOwnProperty.call(PRICE, k);

/** One language's text with its `{credits:key}` and `{n:key}` filled in from PRICE. */
export function fillPrices(text: string, lang: Language): string {
  return text.replace(/\{(credits|n):(\w+)\}/g, (_, kind: string, key: string) => {
    if (!isPriceKey(key)) throw new Error(`unknown price "${key}" in: ${text}`);
    return kind === "n" ? groupDigits(PRICE[key], lang) : countText(PRICE[key], NOUNS.credit, lang);
  });
}

/** A bilingual text with its prices filled in (see fillPrices). */
export function priced<T extends Bilingual>(text: T): T {
  return { ...text, de: fillPrices(text.de, "de"), en: fillPrices(text.en, "en") };
}
