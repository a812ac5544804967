/**
 * Backups at the SQL level (issue 38 item 6), the same on PGlite and
 * PostgreSQL and no OS program needed (no pg_dump): every table of the
 * database read in one REPEATABLE READ, READ ONLY transaction — one snapshot,
 * so the backup is the database at one moment while the server keeps
 * serving — and written as NDJSON:
 *
 *   {"format":"company-data-server-backup","version":1,"created":…,"serverVersion":…,"migrations":[1,2,…]}
 *   {"table":"users","row":{…}}          one line per row, tables parents first
 *   {"end":true,"rows":{"users":3,…},"report":{…}}
 *       the count per table (a file cut short is refused) and the month's
 *       report as it stood in this snapshot: what the restored server must show
 *
 * Restore (`restoreBackup`) needs an empty database: it applies the backup's
 * own migrations, loads the rows (json_populate_recordset: PostgreSQL turns
 * each JSON value back into its column's type), moves every serial's sequence
 * past its rows, and then applies this server's newer migrations — so a
 * backup of an older release restores into a newer one (the upgrade path).
 *
 * On PGlite a transaction holds the database alone: requests wait while the
 * backup reads (a few hundred ms for a team's data; noted in the README).
 */
import type { Db, Sql } from "../db/db.ts";
import { applyMigrations, migrate, migrations } from "../db/migrations.ts";
import { monthOf } from "../ledger/budget.ts";
import { monthReport } from "../ledger/report.ts";
import { SERVER_VERSION } from "../version.ts";

export const BACKUP_FORMAT = "company-data-server-backup";
const ROWS_PER_FETCH = 500;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: 1;
  created: string;
  serverVersion: string;
  migrations: number[];
}

export class BackupError extends Error {}

/** Tables of the public schema, each after the tables it references (so rows load in this order). */
async function tablesInOrder(sql: Sql): Promise<string[]> {
  const tables = (
    await sql.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations' order by tablename",
    )
  ).map((r) => r.name);
  const refs = await sql.query<{ child: string; parent: string }>(
    `select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where c.contype = 'f' and n.nspname = 'public'`,
  );
  const out: string[] = [];
  const visit = (t: string, path: Set<string>) => {
    if (out.includes(t) || path.has(t)) return;
    path.add(t);
    for (const r of refs) if (r.child === t && r.parent !== t) visit(r.parent, path);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Write the whole database as NDJSON lines to `write` (awaited per line, so a slow file or socket holds the pace). */
export async function writeBackup(
  db: Db,
  write: (line: string) => Promise<void> | void,
): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    await tx.exec("set transaction isolation level repeatable read, read only");
    const ids = (await tx.query<{ id: number }>("select id from schema_migrations order by id")).map((r) => r.id);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: 1,
      created: new Date().toISOString(),
      serverVersion: SERVER_VERSION,
      migrations: ids,
    };
    await write(JSON.stringify(header));
    const counts: Record<string, number> = {};
    for (const table of await tablesInOrder(tx)) {
      counts[table] = 0;
      await tx.exec(`declare backup_rows no scroll cursor for select row_to_json(t)::text as j from ${ident(table)} t`);
      for (;;) {
        const rows = await tx.query<{ j: string }>(`fetch ${ROWS_PER_FETCH} from backup_rows`);
        for (const r of rows) await write(`{"table":${JSON.stringify(table)},"row":${r.j}}`);
        counts[table] += rows.length;
        if (rows.length < ROWS_PER_FETCH) break;
      }
      await tx.exec("close backup_rows");
    }
    const report = await monthReport(tx, monthOf(Date.now()));
    await write(JSON.stringify({ end: true, rows: counts, report }));
    return counts;
  });
}

async function isEmpty(db: Db): Promise<boolean> {
  const [r] = await db.query<{ n: number }>(
    "select count(*)::int as n from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations'",
  );
  if ((r?.n ?? 0) > 0) return false;
  const m = await db.query<{ n: number }>(
    "select count(*)::int as n from pg_tables where schemaname = 'public' and tablename = 'schema_migrations'",
  );
  if (!m[0]?.n) return true;
  return ((await db.query<{ n: number }>("select count(*)::int as n from schema_migrations"))[0]?.n ?? 0) === 0;
}

/** Serial columns' sequences continue after the restored rows. */
async function resetSequences(tx: Sql): Promise<void> {
  const serials = await tx.query<{ t: string; c: string }>(
    `select table_name as t, column_name as c from information_schema.columns
      where table_schema = 'public' and column_default like 'nextval(%'`,
  );
  for (const { t, c } of serials)
    await tx.query(
      `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${ident(c)}) from ${ident(t)}), 1), (select count(*) from ${ident(t)}) > 0)`,
      [t, c],
    );
}

/** Load a backup (its lines in order) into an empty database; then migrate it to this server's schema. Returns the rows per table. */
export async function restoreBackup(db: Db, lines: AsyncIterable<string>): Promise<Record<string, number>> {
  const it = lines[Symbol.asyncIterator]();
  const first = await it.next();
  let header: BackupHeader;
  try {
    header = JSON.parse(first.done ? "" : first.value) as BackupHeader;
  } catch {
    throw new BackupError("not a company-data server backup (no header line)");
  }
  if (header?.format !== BACKUP_FORMAT || header.version !== 1)
    throw new BackupError("not a company-data server backup (unknown format)");
  if (!(await isEmpty(db))) throw new BackupError("the target database is not empty");
  const known = migrations();
  const unknown = header.migrations.filter((id) => !known.some((m) => m.id === id));
  if (unknown.length)
    throw new BackupError(
      `the backup was made by company-data ${header.serverVersion} with migrations this server (${SERVER_VERSION}) does not know (${unknown.join(", ")}): restore it with that version or newer`,
    );
  const counts = await db.transaction(async (tx) => {
    await applyMigrations(
      tx,
      known.filter((m) => header.migrations.includes(m.id)),
    );
    const tables = await tablesInOrder(tx);
    // Rows a migration seeded (the team's row) give way to the backup's.
    for (const t of [...tables].reverse()) await tx.exec(`delete from ${ident(t)}`);
    const counts: Record<string, number> = {};
    const batch: { table: string; rows: unknown[] } = { table: "", rows: [] };
    const flush = async () => {
      if (batch.rows.length === 0) return;
      await tx.query(
        `insert into ${ident(batch.table)} select * from json_populate_recordset(null::${ident(batch.table)}, $1::json)`,
        [JSON.stringify(batch.rows)],
      );
      counts[batch.table] = (counts[batch.table] ?? 0) + batch.rows.length;
      batch.rows = [];
    };
    for (;;) {
      const next = await it.next();
      if (next.done) throw new BackupError("the backup is cut short (no end line): nothing restored");
      if (next.value.trim() === "") continue;
      const line = JSON.parse(next.value) as {
        table?: string;
        row?: unknown;
        end?: boolean;
        rows?: Record<string, number>;
      };
      if (line.end) {
        await flush();
        for (const [t, n] of Object.entries(line.rows ?? {}))
          if ((counts[t] ?? 0) !== n)
            throw new BackupError(`table ${t}: ${counts[t] ?? 0} rows read, the backup says ${n}`);
        break;
      }
      if (!line.table || !tables.includes(line.table))
        throw new BackupError(`unknown table in the backup: ${line.table}`);
      if (batch.table !== line.table) {
        await flush();
        batch.table = line.table;
      }
      batch.rows.push(line.row);
      if (batch.rows.length >= ROWS_PER_FETCH) await flush();
    }
    await resetSequences(tx);
    return counts;
  });
  await migrate(db);
  return counts;
}
