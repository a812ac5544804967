/**
 * The doctor's state in the team server's database (migrations 300–399 are
 * the doctor's): the last report, the fingerprint of its breaking findings,
 * and the fingerprint an operator acknowledged with `company-data server
 * ack-drift`. In the database, not in process memory, so every server
 * process on one PostgreSQL refuses alike and a restart remembers.
 */
import type { DoctorReport } from "../../shared/doctor/index.ts";
import type { Db, Sql } from "../db/db.ts";
import { registerMigration } from "../db/migrations.ts";

registerMigration({
  id: 300,
  name: "doctor: last report, breaking findings, acknowledgement",
  sql: `
create table doctor_state (
  id integer primary key check (id = 1),
  checked_at timestamptz not null,
  verdict text not null,
  -- the breaking findings, one "probe kind path" a line, sorted ('' when none)
  breaking text not null,
  report text not null,
  -- the breaking findings an operator acknowledged (ack-drift), as above
  acknowledged text,
  acknowledged_at timestamptz
);`,
});

/** The breaking findings as one comparable text: the same drift, the same text. */
export function fingerprint(r: DoctorReport): string {
  return r.findings
    .filter((f) => f.severity === "breaking")
    .map((f) => `${f.probe} ${f.kind} ${f.path}`)
    .sort()
    .join("\n");
}

export interface DoctorState {
  verdict: string;
  breaking: string;
  acknowledged: string | null;
  checkedAt: string;
  report: DoctorReport | null;
}

export async function saveReport(db: Db, r: DoctorReport): Promise<void> {
  await db.query(
    `insert into doctor_state (id, checked_at, verdict, breaking, report) values (1, now(), $1, $2, $3)
     on conflict (id) do update set checked_at = now(), verdict = excluded.verdict, breaking = excluded.breaking, report = excluded.report`,
    [r.verdict, fingerprint(r), JSON.stringify(r)],
  );
}

export async function readState(db: Sql): Promise<DoctorState | null> {
  const [row] = await db.query<{
    verdict: string;
    breaking: string;
    acknowledged: string | null;
    checked_at: Date | string;
    report: string;
  }>("select verdict, breaking, acknowledged, checked_at, report from doctor_state where id = 1");
  if (!row) return null;
  let report: DoctorReport | null = null;
  try {
    report = JSON.parse(row.report) as DoctorReport;
  } catch {
    report = null;
  }
  return {
    verdict: row.verdict,
    breaking: row.breaking,
    acknowledged: row.acknowledged,
    checkedAt: new Date(row.checked_at).toISOString(),
    report,
  };
}

/** Paid requests stop while breaking findings exist that no operator acknowledged. */
export const refusing = (s: DoctorState | null): boolean => !!s && s.breaking !== "" && s.acknowledged !== s.breaking;

/** Acknowledge the breaking findings of the last report; returns them ("" when there were none), null before any report. */
export async function acknowledge(db: Db): Promise<DoctorState | null> {
  return db.transaction(async (tx) => {
    await tx.query("update doctor_state set acknowledged = breaking, acknowledged_at = now() where id = 1");
    return readState(tx);
  });
}
