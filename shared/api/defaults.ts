/**
 * What a search asks for when the user leaves size or radius empty. One
 * constant for the sidebar's search (shared/app), the SEARCH formula
 * (shared/functions) and their help texts, so both answer the same question
 * alike; size 10 is also the service's own list size.
 */
export const SEARCH_DEFAULTS = { size: 10, radiusKm: 10 } as const;
