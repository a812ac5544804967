/**
 * Vitest global setup: without TEST_DATABASE_URL (and outside CI) the team
 * server's suites run on PGlite only and the PostgreSQL half and the
 * two-process tests skip; this prints the one line that says so and how to
 * run them, as test/browser/chromium-notice.ts does for Chromium (issue 42,
 * item 10). Under CI they fail instead of skipping (backends.ts).
 */
export function postgresNotice(env: NodeJS.ProcessEnv, log: (line: string) => void): void {
  const ci = env.CI && env.CI !== "false" && env.CI !== "0";
  if (!env.TEST_DATABASE_URL?.trim() && !ci)
    log(
      "PostgreSQL tests skipped: TEST_DATABASE_URL is not set (the team server's suites ran on PGlite only). To run them: TEST_DATABASE_URL=postgres://USER@127.0.0.1:5432/DB npm test (an empty database; CONTRIBUTING.md). CI runs them.",
    );
}

export default function (): void {
  postgresNotice(process.env, (line) => console.log(line));
}
