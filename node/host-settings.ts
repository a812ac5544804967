/**
 * The HTTP server's defaults and the loopback test, apart from http.ts so
 * that the configuration (config.ts) reads them without importing the server.
 */

/** Defaults of --max-sessions and --session-idle (seconds): a few clients of one person, a working session's pause. */
export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_SESSION_IDLE_SECONDS = 30 * 60;

/** Is this host name or address this machine only? */
export const isLoopback = (host: string) =>
  /^127\.\d+\.\d+\.\d+$/.test(host) || host === "localhost" || host === "::1" || host === "[::1]";
