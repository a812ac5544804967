/**
 * Purge on request (a data subject's erasure, issue 36 item 9): everything
 * the server stores that contains a company id or a person id (the API's
 * {personId}, spec: /v2/people/{personId}/companies) is removed, in one
 * transaction, and counted for the administrator:
 *
 *   answers           stored answers and open claims whose question or body names it
 *   schedule_runs     run results that name it
 *   schedule_changes  change-log lines that name it
 *   schedule_store    the schedule check's saved state that names it, the audit of its runs included
 *   schedule_sheets   the portfolio sheet its runs write (the next run rebuilds both)
 *
 * The ledger and the cache-hit records are the team's accounts (what was
 * charged, what was saved): they stay, with the id cleared from them. The
 * schedules themselves (a user's list of company ids) stay: they are the
 * user's configuration; the report says how many name it.
 *
 * A plain function of the database, so an administrator's channel can call
 * it as the CLI does (`company-data server purge --company ID`).
 */
import { catalogue } from "../shared/i18n/index.ts";
import type { Db, Sql } from "./db/db.ts";

export interface PurgeReport {
  id: string;
  answers: number;
  claims: number;
  runs: number;
  changes: number;
  checkState: number;
  ledgerCleared: number;
  cacheHitsCleared: number;
  /** Schedules whose company list names the id (kept). */
  schedulesNaming: number;
}

const count = async (tx: Sql, sql: string, id: string) => (await tx.query(sql, [id])).length;

async function purgeId(db: Db, id: string): Promise<PurgeReport> {
  return db.transaction(async (tx) => {
    const gone = await tx.query<{ state: string }>(
      `delete from answers where company = $1 or position($1 in key) > 0 or position($1 in coalesce(body, '')) > 0
       returning state`,
      [id],
    );
    return {
      id,
      answers: gone.filter((r) => r.state === "ready").length,
      claims: gone.filter((r) => r.state !== "ready").length,
      runs: await count(tx, "delete from schedule_runs where position($1 in result::text) > 0 returning id", id),
      changes: await count(tx, "delete from schedule_changes where position($1 in line::text) > 0 returning id", id),
      checkState:
        (await count(
          tx,
          "delete from schedule_store where position($1 in value) > 0 or position($1 in key) > 0 returning key",
          id,
        )) +
        // The portfolio sheet a schedule's runs write (issue 40): the next run starts it again from the ids.
        (await count(
          tx,
          "delete from schedule_sheets where position($1 in cells::text) > 0 returning schedule_id",
          id,
        )),
      ledgerCleared: await count(tx, "update ledger set company = null where company = $1 returning id", id),
      cacheHitsCleared: await count(tx, "update cache_hits set company = null where company = $1 returning id", id),
      schedulesNaming: await count(tx, "select id from schedules where companies ? $1", id),
    };
  });
}

/** Remove what names the company `id` (DE + 10 characters, checked by the caller). */
export const purgeCompany = (db: Db, id: string): Promise<PurgeReport> => purgeId(db, id);

/** Remove what names the person `id` (the API's personId, checked by the caller). */
export const purgePerson = (db: Db, id: string): Promise<PurgeReport> => purgeId(db, id);

export const purgeText = catalogue({
  which: {
    de: "purge braucht genau eines von --company ID oder --person ID.",
    en: "purge needs exactly one of --company ID or --person ID.",
  },
  report: {
    de: (r: PurgeReport) =>
      `${r.id} entfernt: ${r.answers} gespeicherte Antworten, ${r.claims} offene Käufe, ${r.runs} Laufergebnisse, ${r.changes} Zeilen im Änderungsprotokoll, ${r.checkState} gespeicherte Prüfstände (der nächste Lauf baut sie neu auf). Im Ledger (${r.ledgerCleared} Zeilen) und bei den Cache-Treffern (${r.cacheHitsCleared}) ist die ID gelöscht, die Abrechnung bleibt. ${r.schedulesNaming} Zeitpläne führen die ID in ihrer Liste (Einstellung der Benutzer, bleibt).`,
    en: (r: PurgeReport) =>
      `${r.id} removed: ${r.answers} stored answers, ${r.claims} open purchases, ${r.runs} run results, ${r.changes} change-log lines, ${r.checkState} saved check states (the next run rebuilds them). The id is cleared from the ledger (${r.ledgerCleared} rows) and the cache hits (${r.cacheHitsCleared}); the accounts stay. ${r.schedulesNaming} schedules list the id (the users' settings, kept).`,
  },
});
