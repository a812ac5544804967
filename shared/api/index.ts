/**
 * The public surface of shared/api/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { checkBaseUrl, isLoopbackHost } from "./base-url.ts";
export { PRODUCTION_BASE_URL, buildRequest, call, callMany, errorFromResponse, missingKey } from "./client.ts";
export type { CallResult, CallSpec, ClientConfig } from "./client.ts";
export { noticingRefusals } from "./refusal.ts";
export { ENDPOINT_ROUTES, matchRoute } from "./routes.ts";
export type { EndpointRoute, RouteMatch } from "./routes.ts";
export type { SeenRefusal } from "./refusal.ts";
export { COMPANY_ID_AT_START, COMPANY_ID_IN_TEXT, COMPANY_ID_PATTERN, companyIdsIn } from "./company-id.ts";
export { connectionFromEnv, envKeyMessage } from "./connection-env.ts";
export { BODY_DEFAULTS, QUERY_DEFAULTS, SEARCH_DEFAULTS } from "./defaults.ts";
export { canonicalJson, canonicalQuestion, includeOf, questionOf } from "./question.ts";
export {
  BATCH_RESOLVE_GROUP,
  ENDPOINTS,
  INCLUDES,
  INCLUDE_COST,
  batchResolveCost,
  endpoint,
  fillPath,
  profileCost,
} from "./endpoints.ts";
export type { CostInput, Endpoint, EndpointId, Exposure, Include } from "./endpoints.ts";
export { wzClass, wzOptions } from "./industries.ts";
export { LABELS, relabel } from "./labels.ts";
export { LEI_PATTERN, leiCheckDigits, normaliseLei, readLei } from "./lei.ts";
export { DEFAULT_RATE_LIMITS, Pacer, bucketOf } from "./pacing.ts";
export type { RateBucket, RateLimit, RateLimitOverrides } from "./pacing.ts";
export {
  AccountResponse,
  BatchResolveResponse,
  CompanySummary,
  ErrorBody,
  MAX_BATCH,
  MAX_SIZE,
  PERSON_ID_PATTERN,
  SIZE_CLASSES,
  V1CompaniesResponse,
} from "./schemas.ts";
export { ERROR_STATUS } from "./error-status.ts";
export type { ErrorBodyCode } from "./error-status.ts";
export type {
  Announcement,
  Availability,
  Change,
  Company,
  FinancialYear,
  Person,
  ResolveQuery,
  ResolveResult,
  SearchRequest,
} from "./schemas.ts";
export * as schemas from "./schemas.ts";
export * as validate from "./validate.ts";
