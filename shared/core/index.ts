/**
 * The public surface of shared/core/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { AimdLimiter, answerKind } from "./concurrency.ts";
export type { AimdTicket } from "./concurrency.ts";
export { asyncStores, memoryStores, runAsync, runSync } from "./drivers.ts";
export type { AsyncDriver, SyncDriver } from "./drivers.ts";
export { all, cacheGet, cachePut, http, intercept, sheet, sleep, storeGet, storePut, table } from "./effects.ts";
export type { Effect, Operation } from "./effects.ts";
export { CompanyDataError, ERROR_CODES, invalid, teamBudgetText, toCompanyDataError } from "./errors.ts";
export type { ErrorCode, TeamBudget } from "./errors.ts";
export { fnv1a32 } from "./hash.ts";
export { chargedOf, creditsOf, header } from "./http.ts";
export type { HttpMethod, HttpRequest, HttpResponse, RequestPrice } from "./http.ts";
export { DEFAULT_RETRY, nextDelay, parseRetryAfter } from "./retry.ts";
export type { RetryPolicy } from "./retry.ts";
export { readPart, readSaved, savedBilingual, savedCacheEnvelope, savedCell, savedKind, writeSaved } from "./saved.ts";
export type { SavedKind } from "./saved.ts";
export { noSuchSheet } from "./sheet-protocol.ts";
export type { Cell, SelectionInfo, SheetFormulas, SheetRequest } from "./sheet-protocol.ts";
export type { EarlierOutput, TableFacts, TableLine, TableRequest } from "./table-protocol.ts";
