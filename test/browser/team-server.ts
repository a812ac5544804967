/**
 * The team server (server/) in this process for browser tests: PGlite in a
 * scratch directory, the API key of its own, the allowed browser origins,
 * and personal tokens made as `company-data server token create` makes them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openServerDb } from "../../server/cli.ts";
import { TEAM_SERVER_EXTENSIONS } from "../../server/extensions.ts";
import { startTeamServer } from "../../server/http.ts";
import { silentLogger } from "../../server/log.ts";
import { parseCacheDays } from "../../server/cache.ts";
import { createUpstream } from "../../server/upstream.ts";
import { createToken } from "../../server/auth/tokens.ts";
import type { Db } from "../../server/db/db.ts";

export interface TestTeamServer {
  url: string;
  db: Db;
  token(user: string, monthBudget?: number | null): Promise<string>;
  /** Credits settled in the ledger, per user name. */
  spentByUser(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** Start it against the API at `apiUrl` with `apiKey`, answering CORS for `allowOrigins` only. */
export async function startTestTeamServer(
  apiUrl: string,
  apiKey: string,
  allowOrigins: string[],
): Promise<TestTeamServer> {
  const dir = mkdtempSync(join(tmpdir(), "team-db-"));
  const { db, close: closeDb } = await openServerDb({ kind: "pglite", dir });
  const server = await startTeamServer({
    db,
    port: 0,
    host: "127.0.0.1",
    allowOrigins,
    process: `test:${process.pid}`,
    log: silentLogger,
    leaseMs: 10_000,
    cacheDays: parseCacheDays(undefined),
    extensions: TEAM_SERVER_EXTENSIONS,
    upstream: createUpstream({ apiKey, baseUrl: apiUrl, timeoutMs: 8_000, maxPaceWaitMs: 10_000 }),
  });
  return {
    url: server.url,
    db,
    token: (user, budget) => createToken(db, user, budget),
    async spentByUser() {
      const rows = await db.query<{ user: string; credits: number }>(
        "select u.name as user, sum(l.credits)::int as credits from ledger l join users u on u.id = l.user_id where l.status = 'settled' group by u.name",
      );
      return Object.fromEntries(rows.map((r) => [r.user, r.credits]));
    },
    async close() {
      await server.close(5_000);
      await closeDb();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
