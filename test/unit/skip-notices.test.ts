/** The one line `npm test` prints when the PostgreSQL suites skip, and silence when they run or CI requires them. */
import { describe, expect, it } from "vitest";
import { postgresNotice } from "../server/postgres-notice.ts";

describe("skipped-suite notices", () => {
  const said = (env: NodeJS.ProcessEnv) => {
    const lines: string[] = [];
    postgresNotice(env, (l) => lines.push(l));
    return lines;
  };

  it("says once that the PostgreSQL suites skip without TEST_DATABASE_URL, and how to run them", () => {
    const lines = said({});
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PostgreSQL tests skipped/);
    expect(lines[0]).toMatch(/TEST_DATABASE_URL=postgres:\/\/.* npm test/);
  });

  it("says nothing when TEST_DATABASE_URL is set, or under CI (where the suites fail instead)", () => {
    expect(said({ TEST_DATABASE_URL: "postgres://u@127.0.0.1:5432/d" })).toEqual([]);
    expect(said({ CI: "true" })).toEqual([]);
    expect(said({ CI: "false" })).toHaveLength(1);
  });
});
