/**
 * The public surface of shared/operations/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { boundedKey, hash128, utf8Length } from "./cache-key.ts";
export {
  MAX_SIMILAR_IDS,
  checked,
  getAccount,
  getAnnouncements,
  getAvailability,
  getChanges,
  getEvents,
  getFinancials,
  getJobs,
  getNearby,
  getPeers,
  getPeople,
  getPersonCompanies,
  getProfile,
  getProfiles,
  getSimilar,
  search,
  suggest,
} from "./company.ts";
export type { Availability, ChangesResult } from "./company.ts";
export type { OpContext } from "./context.ts";
export {
  DEFAULT_MATCH_FLOOR,
  DOUBT_FIELDS,
  MATCH_FLOOR_LIMITS,
  doubtText,
  noteText,
  parseMatchFloor,
} from "./contradiction.ts";
export type { Doubt, MatchNote } from "./contradiction.ts";
export { identifierIn, identifierQuery, lookupMany } from "./identifiers.ts";
export type { IdentifierQuery } from "./identifiers.ts";
export { legalFormOf, parseLegalForm } from "./legal-form.ts";
export { resolveMany, resolveOne } from "./resolve.ts";
export type { ResolveMode, ResolvedRow } from "./resolve.ts";
export {
  ACCEPTED,
  FEDERAL_STATES,
  MAX_AGE_YEARS,
  SIZE_CLASS_LABELS,
  buildFilters,
  filtersOfLists,
  nearOf,
  parseFilterText,
} from "./search-filters.ts";
export type { FilterInput } from "./search-filters.ts";
export {
  MAX_SEARCH_RESULTS,
  SEARCH_PAGE_SIZE,
  checkLimit,
  searchFirstPage,
  searchPages,
  searchPlan,
} from "./search-pages.ts";
export type { SearchCriteria } from "./search-pages.ts";
