/** The public core API for hosts (Apps Script, Excel, CLI, playground). */
export * from "./core/http.ts";
export * from "./core/effects.ts";
export * from "./core/drivers.ts";
export * from "./core/errors.ts";
export * from "./core/retry.ts";
export * from "./i18n/language.ts";
export * from "./sheet/protocol.ts";
export * from "./api/schemas.ts";
export * from "./api/endpoints.ts";
export * from "./api/client.ts";
export * from "./operations/context.ts";
export * as validate from "./operations/validate.ts";
export { callKey, boundedKey, canonicalJson, hash128, MAX_KEY_LENGTH, MAX_VALUE_LENGTH } from "./operations/cache-key.ts";
export { cachedCallMany, NOT_FOUND_TTL_SECONDS } from "./operations/cached.ts";
export * from "./operations/resolve.ts";
export {
  getProfiles, getProfile, getAvailability, getPeople, getAnnouncements, getFinancials, getChanges, getNearby,
  getPeers, getSimilar, getPersonCompanies, getEvents, getJobs, search, suggest, getAccount, includeParam, MAX_SIMILAR_IDS,
  type SearchResponse as SearchResult, type SuggestResponse as SuggestResult, type CompanyListResponse as CompanyList,
  type PeopleResponse as PeopleResult, type AnnouncementsResponse as AnnouncementsResult, type FinancialsResponse as FinancialsResult,
  type ChangesResponse as ChangesResult, type PersonCompaniesResponse as PersonCompaniesResult,
  type EventsResponse as EventsResult, type JobsResponse as JobsResult,
} from "./operations/company.ts";
export * from "./batch/normalise.ts";
export * from "./batch/plan.ts";
export * from "./credits/estimate.ts";
export * from "./credits/budget.ts";
export * from "./credits/ledger.ts";
