/**
 * What a search asks for when the user leaves size or radius empty. One
 * constant for the sidebar's search (shared/app), the SEARCH formula
 * (shared/functions) and their help texts, so both answer the same question
 * alike; size 10 is also the service's own list size.
 */
export const SEARCH_DEFAULTS = { size: 10, radiusKm: 10 } as const;

/** The largest list the API answers (schemas.ts MAX_SIZE, repeated here so this module stays free of zod). */
const LONGEST_LIST = "100";
/**
 * What the API takes for a query parameter that is absent (decisions where
 * the spec is silent, as the emulator applies them: emulator/routes/v2.ts and
 * v1.ts; question.ts fills them, so "?size=10" and no size are one question).
 * `since` has none that is fixed (changes: 30 days before today).
 */
export const QUERY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  suggest: { size: "10" },
  "v1.suggest": { size: "10" },
  changes: { size: LONGEST_LIST, from: "0" },
  nearby: { radiusKm: String(SEARCH_DEFAULTS.radiusKm), size: String(SEARCH_DEFAULTS.size) },
  announcements: { size: LONGEST_LIST },
  peers: { size: "10" },
  "v1.events": { size: LONGEST_LIST },
  "v1.jobs": { size: LONGEST_LIST },
  "v1.recommend": { size: "10", explain: "false" },
};

/** The same for JSON bodies: the fields a body may leave out and what the API takes then. */
export const BODY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  search: { size: SEARCH_DEFAULTS.size, from: 0 },
  "v1.search": { size: SEARCH_DEFAULTS.size, from: 0 },
  similar: { size: 10 },
};
