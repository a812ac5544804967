/**
 * The databases the server's database suite runs against: PGlite always;
 * PostgreSQL when TEST_DATABASE_URL names a server (.ci/run starts one).
 * Under CI without TEST_DATABASE_URL the PostgreSQL suite fails instead of
 * skipping: a CI that silently stopped testing PostgreSQL would look green.
 */
import { it } from "vitest";
import { pgliteDatabase, postgresDatabase, type TestDatabase } from "../support/team-server.ts";

export interface Backend {
  name: "pglite" | "postgres";
  make(): Promise<TestDatabase>;
}

const url = process.env.TEST_DATABASE_URL?.trim();

export const BACKENDS: Backend[] = [
  { name: "pglite", make: async () => pgliteDatabase() },
  ...(url ? [{ name: "postgres" as const, make: () => postgresDatabase(url) }] : []),
];

export const POSTGRES_URL = url;

/** One test that fails under CI when PostgreSQL is not configured (call inside a describe). */
export function requirePostgresUnderCi(): void {
  if (url || !process.env.CI) return;
  it("PostgreSQL is configured (TEST_DATABASE_URL)", () => {
    throw new Error(
      "CI is set but TEST_DATABASE_URL is not: the PostgreSQL suite must run in CI (.ci/run starts a cluster and exports it)",
    );
  });
}
