/**
 * The codes of an error body and the HTTP status each is answered with: the
 * one table of the emulator (emulator/respond.ts) and the team server
 * (server/errors.ts). BAD_GATEWAY is the team server's own (the API did not
 * answer it).
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  SERVER_ERROR: 500,
  BAD_GATEWAY: 502,
  UNAVAILABLE: 503,
} as const;
export type ErrorBodyCode = keyof typeof ERROR_STATUS;
