/**
 * Issue 36 item 9, on PGlite and (TEST_DATABASE_URL) PostgreSQL: answers
 * that name people expire (the purge of expired answers removes them) and
 * `purgeCompany` / `purgePerson` remove every stored answer, open claim,
 * run result, change-log line and saved check state that names the id,
 * clear it from the ledger and cache hits (the accounts stay), leave what
 * names other ids, and report the counts; the CLI subcommand says so.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerDb, runServerCli } from "../../server/cli.ts";
import { DEFAULT_CACHE_DAYS, purgeExpired } from "../../server/cache.ts";
import type { Db } from "../../server/db/db.ts";
import { purgeCompany, purgePerson } from "../../server/purge.ts";
import { BACKENDS, requirePostgresUnderCi } from "./backends.ts";
import type { TestDatabase } from "../support/team-server.ts";

const GONE = "DEPURGE00001";
const KEPT = "DEKEEP000002";
const PERSON = "P1234567890";

async function seed(db: Db): Promise<number> {
  const [u] = await db.query<{ id: number }>("insert into users (name) values ('purger') returning id");
  const uid = u!.id;
  const answer = (key: string, endpoint: string, company: string | null, body: string | null, state = "ready") =>
    db.query(
      `insert into answers (key, endpoint, company, state, status, body, expires_at, bought_at)
       values ($1, $2, $3, $4, 200, $5, now() + interval '1 day', now())`,
      [key, endpoint, company, state, body],
    );
  await answer(`profile:${GONE}`, "profile", GONE, JSON.stringify({ id: GONE, name: "Gone GmbH" }));
  await answer(`people:${GONE}`, "people", GONE, JSON.stringify([{ personId: PERSON, name: "Erika Muster" }]));
  await answer(`search:q=gone`, "search", null, JSON.stringify({ results: [{ id: GONE }, { id: KEPT }] }));
  await answer(`claim:${GONE}`, "announcements", GONE, null, "pending");
  await answer(`personCompanies:${PERSON}`, "personCompanies", PERSON, JSON.stringify([{ id: KEPT }]));
  await answer(`profile:${KEPT}`, "profile", KEPT, JSON.stringify({ id: KEPT, name: "Kept AG" }));
  const [s] = await db.query<{ id: number }>(
    `insert into schedules (user_id, name, companies, frequency, hour, next_run)
     values ($1, 'p', $2::jsonb, 'daily', 7, now()) returning id`,
    [uid, JSON.stringify([GONE, KEPT])],
  );
  const sid = s!.id;
  await db.query(
    `insert into schedule_runs (schedule_id, process, started_at, status, result)
     values ($1, 't', now(), 'ok', $2::jsonb), ($1, 't', now(), 'ok', $3::jsonb)`,
    [sid, JSON.stringify({ changes: [{ id: GONE }] }), JSON.stringify({ changes: [{ id: KEPT }] })],
  );
  await db.query(
    `insert into schedule_changes (schedule_id, run_id, key, line)
     values ($1, 1, 'a', $2::jsonb), ($1, 1, 'b', $3::jsonb)`,
    [sid, JSON.stringify(["2026-03-02", GONE, "Erika Muster left"]), JSON.stringify(["2026-03-02", KEPT, "x"])],
  );
  await db.query(`insert into schedule_store (schedule_id, key, value) values ($1, 'last:1', $2), ($1, 'last:2', $3)`, [
    sid,
    JSON.stringify({ id: GONE }),
    JSON.stringify({ id: KEPT }),
  ]);
  await db.query(
    `insert into ledger (month, user_id, endpoint, company, credits, status, process)
     values ('2026-03', $1, 'profile', $2, 1, 'settled', 't'), ('2026-03', $1, 'personCompanies', $3, 2, 'settled', 't')`,
    [uid, GONE, PERSON],
  );
  await db.query(
    "insert into cache_hits (month, user_id, endpoint, company, saved) values ('2026-03', $1, 'profile', $2, 1)",
    [uid, GONE],
  );
  return sid;
}

describe.each(BACKENDS)("personal data: lifetimes and purge on request ($name)", (backend) => {
  let database: TestDatabase;
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    database = await backend.make();
    ({ db, close } = await openServerDb(database.target));
    await seed(db);
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await database?.drop();
  });

  it("answers that name people are kept no longer than their lifetime", async () => {
    expect(DEFAULT_CACHE_DAYS.announcements).toBe(1);
    await db.query(
      `insert into answers (key, endpoint, company, state, status, body, expires_at, bought_at)
       values ('people:DEOLD0000001', 'people', 'DEOLD0000001', 'ready', 200, '[{"name":"Old Person"}]', now() - interval '1 second', now() - interval '30 days')`,
    );
    expect(await purgeExpired(db)).toBeGreaterThanOrEqual(1);
    expect(await db.query("select 1 from answers where key = 'people:DEOLD0000001'")).toEqual([]);
  });

  it("purgeCompany removes what names the company, clears it from the accounts, keeps the rest", async () => {
    const r = await purgeCompany(db, GONE);
    expect(r).toEqual({
      id: GONE,
      answers: 3, // its profile, its people, the search that lists it
      claims: 1,
      runs: 1,
      changes: 1,
      checkState: 1,
      ledgerCleared: 1,
      cacheHitsCleared: 1,
      schedulesNaming: 1,
    });
    const text = JSON.stringify([
      await db.query("select key, company, body from answers"),
      await db.query("select result from schedule_runs"),
      await db.query("select line from schedule_changes"),
      await db.query("select value from schedule_store"),
      await db.query("select company from ledger"),
      await db.query("select company from cache_hits"),
    ]);
    expect(text).not.toContain(GONE);
    expect(text).toContain(KEPT);
    const [credits] = await db.query<{ n: number }>("select sum(credits)::int as n from ledger");
    expect(credits!.n).toBe(3); // the accounts keep what was charged
    expect(await purgeCompany(db, GONE)).toMatchObject({ answers: 0, claims: 0, runs: 0 });
  });

  it("purgePerson removes the person's network and clears the person id from the ledger", async () => {
    const r = await purgePerson(db, PERSON);
    expect(r).toMatchObject({ answers: 1, ledgerCleared: 1 });
    expect(JSON.stringify(await db.query("select key, company, body from answers"))).not.toContain(PERSON);
    expect(JSON.stringify(await db.query("select company from ledger"))).not.toContain(PERSON);
  });

  requirePostgresUnderCi();
});

describe("company-data server purge", () => {
  const dir = mkdtempSync(join(tmpdir(), "files-purge-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (args: string[], lang: "de" | "en" = "en") => {
    const out: string[] = [];
    const code = await runServerCli(
      ["purge", ...args, "--data", join(dir, "data")],
      {},
      { out: (l) => out.push(l), err: (l) => out.push(l) },
      lang,
    );
    return { code, text: out.join("\n") };
  };

  it("reports what it removed; a bad or missing id is a usage error", async () => {
    const ok = await run(["--company", "depurge00001"]);
    expect(ok.code).toBe(0);
    expect(ok.text).toContain("DEPURGE00001 removed: 0 stored answers, 0 open purchases, 0 run results");
    expect((await run(["--company", "nope"])).code).toBe(2);
    const neither = await run([], "de");
    expect(neither.code).toBe(2);
    expect(neither.text).toContain("genau eines von --company ID oder --person ID");
  }, 120_000);
});
