/**
 * The public surface of node/: the Node-only building blocks every Node host
 * (cli/, server/, mcp/, reconcile/, emulator/, scripts/) stands on, beside
 * shared/. node/ imports shared/ only, never a host; browser code
 * (playground/, console/, the add-ins) never imports it. Import from here,
 * never from a module inside (eslint-rules/layers.js); modules of this folder
 * import each other directly.
 */
export { callContext, SERVICE_CACHE_TTL_SECONDS } from "./call-context.ts";
export type { CallSource, CallTally } from "./call-context.ts";
export { closeUnread, LINGER_MS } from "./close-unread.ts";
export { diskFullIn, DiskFullError, injectDiskFull, written } from "./disk.ts";
export { DEFAULT_CACHE_CHARS, DEFAULT_PARALLEL, drainAll, nodeDriver, riskCredits } from "./driver.ts";
export type { NodeDriverOptions } from "./driver.ts";
export {
  budgetText,
  DEFAULT_BUDGET,
  DEFAULT_HOST,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_SECONDS,
  isLoopback,
  parseBudget,
} from "./host-settings.ts";
export { acquireLock, alive, LOCK_OWNER, lockOwner } from "./lock.ts";
export type { LockOwner, LockResult } from "./lock.ts";
export { PACKAGE_VERSION } from "./package-version.ts";
export { quietOnClosedPipe } from "./pipe.ts";
export type { PipeGuard } from "./pipe.ts";
export { appendPrivate, openPrivate, PRIVATE_FILE_MODE, writePrivate } from "./private-file.ts";
export { readBody } from "./read-body.ts";
export { connectionPool, sendHttp } from "./send-http.ts";
export type { ConnectionPool, SendHttpOptions, SentHttp } from "./send-http.ts";
export { printable } from "./terminal.ts";
