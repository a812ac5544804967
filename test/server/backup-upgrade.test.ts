/**
 * Backups and upgrades (issue 38 item 6). A backup taken with
 * `company-data server backup --to FILE` while users buy (PGlite: through the
 * running server's admin channel; PostgreSQL: one REPEATABLE READ snapshot)
 * restores with `restore --from FILE` into an empty database, and the
 * restored server's report equals the original's at the backup's moment (the
 * report the backup recorded in its own snapshot). A database made by the
 * previous release (fixtures/release-0.1.0.sql) migrates to this one with its
 * tokens, ledger and report intact; a server older than its database refuses
 * to start, naming both versions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authenticate } from "../../server/auth/tokens.ts";
import { openServerDb } from "../../server/cli.ts";
import { migrate, migrations, NewerDatabaseError } from "../../server/db/migrations.ts";
import { monthOf } from "../../server/ledger/budget.ts";
import { monthReport, type Report } from "../../server/ledger/report.ts";
import { SERVER_VERSION } from "../../server/version.ts";
import { FIXTURE_TOKENS } from "./fixtures/release-tokens.ts";
import { BACKENDS } from "./backends.ts";
import {
  serverCommand,
  startEmulatorWorld,
  startInProcess,
  type EmulatorWorld,
  type TestDatabase,
} from "../support/team-server.ts";

const FIXTURE = new URL("./fixtures/release-0.1.0.sql", import.meta.url);

describe.each(BACKENDS)("backup and restore on $name", (backend) => {
  let world: EmulatorWorld;
  const drops: (() => Promise<void>)[] = [];
  const scratch = mkdtempSync(join(tmpdir(), "team-backup-"));
  beforeAll(async () => {
    world = await startEmulatorWorld({ companies: 2000, seed: 8, emulator: { faults: { latencyMs: 0, jitterMs: 0 } } });
  }, 60_000);
  afterAll(async () => {
    for (const d of drops.reverse()) await d();
    rmSync(scratch, { recursive: true, force: true });
    await world?.api.close();
  });

  it("a backup taken during a run of writes restores to a server whose report equals the original's at the backup's moment", async () => {
    const db = await backend.make();
    drops.push(() => db.drop());
    const srv = await startInProcess(world, db, { adminChannel: true });
    drops.push(() => srv.close());
    const tokens = [await srv.token("anna", 5000), await srv.token("ben")];
    const ids = world.emu.world.companies.map((c) => c.id);
    let bought = 0;
    let writing = true;
    const writers = tokens.map(async (token, w) => {
      for (let i = w; writing && i < ids.length; i += tokens.length) {
        const r = await fetch(`${srv.url}/v2/companies/${ids[i]}`, { headers: { Authorization: `Bearer ${token}` } });
        await r.arrayBuffer();
        if (r.status === 200) bought++;
      }
    });
    while (bought < 20) await new Promise((r) => setTimeout(r, 20));
    const file = join(scratch, `${backend.name}.ndjson`);
    const taken = await serverCommand(db, ["backup", "--to", file, "--lang", "en"]);
    const boughtAtBackup = bought;
    while (bought < boughtAtBackup + 10) await new Promise((r) => setTimeout(r, 20));
    writing = false;
    await Promise.all(writers);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toMatch(/^Backup in .*: \d+ rows from \d+ tables\./m);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const lines = readFileSync(file, "utf8").trim().split("\n");
    const end = JSON.parse(lines.at(-1)!) as { end: true; report: Report; rows: Record<string, number> };
    const atBackup = end.report;
    const month = monthOf(Date.now());
    const finalReport = await monthReport(srv.db, month);
    console.log(
      `backup (${backend.name}): ${lines.length} lines; spent at the backup ${atBackup.totals.spent}, at the end ${finalReport.totals.spent} credits`,
    );
    expect(atBackup.totals.spent).toBeGreaterThan(0);
    expect(finalReport.totals.spent).toBeGreaterThan(atBackup.totals.spent);

    const target = await backend.make();
    drops.push(() => target.drop());
    const restored = await serverCommand(target, ["restore", "--from", file, "--lang", "en"]);
    expect(restored.code, restored.stderr).toBe(0);
    const again = await serverCommand(target, ["restore", "--from", file, "--lang", "en"]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/not empty/);

    const copy = await startInProcess(world, target);
    try {
      expect(await monthReport(copy.db, month)).toEqual(atBackup);
      // The team's tokens work on the restored server; its sequences continue after the restored rows.
      const r = await fetch(`${copy.url}/v2/account`, { headers: { Authorization: `Bearer ${tokens[0]}` } });
      expect(r.status).toBe(200);
      await copy.token("after-restore");
    } finally {
      await copy.close();
    }
  }, 240_000);

  it("a file cut short restores nothing", async () => {
    const file = join(scratch, `${backend.name}.ndjson`);
    const cut = join(scratch, `${backend.name}-cut.ndjson`);
    const all = readFileSync(file, "utf8").trim().split("\n");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(cut, all.slice(0, -3).join("\n") + "\n");
    const target = await backend.make();
    drops.push(() => target.drop());
    const r = await serverCommand(target, ["restore", "--from", cut, "--lang", "en"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/cut short/);
  }, 120_000);
});

describe.each(BACKENDS)("upgrading from the previous release on $name", (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await backend.make();
  });
  afterAll(async () => db?.drop());

  it("a 0.1.0 database migrates with its tokens, budgets, ledger and report intact; each new migration records this release", async () => {
    const { db: sql, close } = await openServerDb(db.target, { migrate: false });
    try {
      await sql.exec(readFileSync(FIXTURE, "utf8"));
      const applied = await migrate(sql);
      expect(applied).toEqual(expect.arrayContaining([3, 4]));
      expect(await authenticate(sql, `Bearer ${FIXTURE_TOKENS.anna}`)).toMatchObject({
        name: "anna",
        monthBudget: 100,
        admin: false,
      });
      expect((await authenticate(sql, `Bearer ${FIXTURE_TOKENS.ben}`))?.name).toBe("ben");
      expect(await authenticate(sql, `Bearer cdt_${"C".repeat(43)}`)).toBeNull();
      const r = await monthReport(sql, "2026-10");
      expect(r.totals).toEqual({ settled: 8, pending: 2, spent: 10, saved: 1 });
      expect(r.team.budget).toBe(1000);
      const versions = await sql.query<{ id: number; version: string | null }>(
        "select id, version from schema_migrations order by id",
      );
      expect(versions.find((v) => v.id === 1)?.version).toBeNull();
      expect(versions.find((v) => v.id === 4)?.version).toBe(SERVER_VERSION);
      // A new user's id continues after the fixture's.
      const [u] = await sql.query<{ id: number }>("insert into users (name) values ('cleo') returning id");
      expect(u!.id).toBe(3);
    } finally {
      await close();
    }
  });

  it("a server older than its database refuses to start, naming both versions", async () => {
    const { db: sql, close } = await openServerDb(db.target);
    try {
      // A server of release 0.0.9 that does not know migration 4.
      const older = migrations().filter((m) => m.id !== 4);
      const refused = await migrate(sql, older, "0.0.9").catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(NewerDatabaseError);
      expect(String((refused as Error).message)).toContain(`company-data ${SERVER_VERSION}`);
      expect(String((refused as Error).message)).toContain("company-data 0.0.9");
      await sql.query("insert into schema_migrations (id, name, version) values (99999, 'from the future', '9.9.9')");
    } finally {
      await close();
    }
    const start = await serverCommand(db, ["--port", "0", "--lang", "en"], {
      COMPANY_DATA_API_KEY: "cdk_unused_0123456789",
      COMPANY_DATA_BASE_URL: "http://127.0.0.1:9",
    });
    expect(start.code).toBe(1);
    expect(start.stderr).toContain("migrated by company-data 9.9.9");
    expect(start.stderr).toContain(`this server is company-data ${SERVER_VERSION}`);
  }, 120_000);
});
