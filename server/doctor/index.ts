/**
 * The doctor on the team server (issue 31): the free self-test
 * (shared/doctor/) runs once when the server starts, with the team's key;
 * GET /health?deep=1 (admin token only) shows that run's report and runs it
 * again at most once per RECHECK_MS. A finding that breaks a paid path (answers the
 * client could not read, or would read wrongly) makes the server refuse
 * every paid request with a clear message in the user's language — a team
 * never pays for answers it cannot use — until an operator has looked at
 * the report and acknowledged it: `company-data server ack-drift`. A new
 * or different breaking finding needs a new acknowledgement; the drift
 * gone, the refusal ends by itself.
 */
import { runDoctor } from "../../shared/doctor/index.ts";
import { reportLines } from "../../shared/doctor/index.ts";
import type { DoctorReport } from "../../shared/doctor/index.ts";
import { catalogue } from "../../shared/i18n/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import type { Db } from "../db/db.ts";
import { errorAnswer, type ErrorAnswer } from "../errors.ts";
import type { Service, ServerExtension, ServiceContext } from "../routes.ts";
import { readState, refusing, saveReport } from "./state.ts";
import { errorMessage } from "../error-text.ts";

export const DOCTOR_SERVER_TEXTS = catalogue({
  refused: {
    de: (findings: string) =>
      `Kostenpflichtige Anfragen sind angehalten: der Datendienst antwortet anders, als der Client liest (${findings}). Bezahlte Antworten wären unlesbar oder falsch; es wurde nichts gekauft. Ein Administrator prüft den Bericht (GET /health?deep=1) und bestätigt mit „company-data server ack-drift“.`,
    en: (findings: string) =>
      `Paid requests are paused: the data service answers differently from what the client reads (${findings}). Paid answers would be unreadable or wrong; nothing was bought. An administrator checks the report (GET /health?deep=1) and acknowledges it with “company-data server ack-drift”.`,
  },
});

function stopped(ctx: ServiceContext): null {
  ctx.log.info("doctor.stopped", {});
  return null;
}

/** Run the doctor with the team's key, keep its report; the report, or null when it could not run. */
export async function checkService(ctx: ServiceContext, signal?: AbortSignal): Promise<DoctorReport | null> {
  try {
    const report = await ctx.operate((cfg) => runDoctor(cfg), signal);
    // Cut short by a shutdown, its probes failed for our own reason: not a report to keep.
    if (signal?.aborted) return stopped(ctx);
    // An API that did not answer in time (a timeout, a 5xx: busy at start-up, a network hiccup) showed nothing
    // of its answers: no evidence of drift, so neither a refusal of paid requests nor the end of an earlier one.
    // Paid requests then fail or succeed on their own; /health?deep=1 shows the verdict and probes again.
    if (report.verdict === "unreachable") {
      ctx.log.warn("doctor", { verdict: report.verdict, kept: "the earlier report" });
      return report;
    }
    await saveReport(ctx.db, report);
    ctx.log[report.verdict === "pass" ? "info" : "warn"]("doctor", {
      verdict: report.verdict,
      spent: report.credits.spent,
      breaking: report.findings
        .filter((f) => f.severity === "breaking")
        .map((f) => `${f.probe} ${f.path}`)
        .join("; "),
    });
    return report;
  } catch (e) {
    if (signal?.aborted) return stopped(ctx);
    ctx.log.error("doctor.failed", {
      error: (e as Error)?.name ?? "Error",
      message: errorMessage(e).slice(0, 300),
    });
    return null;
  }
}

/**
 * The doctor's runs of one server (keyed by its service context): the run at start, and at most one more per
 * RECHECK_MS when an admin asks /health?deep=1. The probes never run per request: a deep health call waits for
 * the run in progress or shows the last one, so no caller (not even an admin's monitoring) multiplies the free
 * calls the doctor makes with the team's key.
 */
const RECHECK_MS = 10 * 60_000;
interface Runs {
  running: Promise<DoctorReport | null> | null;
  last: DoctorReport | null;
  finishedAt: number;
}
const runsOf = new WeakMap<ServiceContext, Runs>();

function runDoctorOnce(ctx: ServiceContext, signal?: AbortSignal): Promise<DoctorReport | null> {
  const runs = runsOf.get(ctx) ?? { running: null, last: null, finishedAt: 0 };
  runsOf.set(ctx, runs);
  if (runs.running) return runs.running;
  const run = checkService(ctx, signal).then((report) => {
    runs.last = report;
    runs.finishedAt = Date.now();
    runs.running = null;
    return report;
  });
  runs.running = run;
  return run;
}

/** The report a deep health call shows: the run in progress, else the last one (a new run only once it is stale). */
function currentReport(ctx: ServiceContext): Promise<DoctorReport | null> {
  const runs = runsOf.get(ctx);
  if (runs?.running) return runs.running;
  if (runs && Date.now() - runs.finishedAt < RECHECK_MS) return Promise.resolve(runs.last);
  return runDoctorOnce(ctx);
}

const doctorService: Service = {
  name: "doctor",
  async start(ctx) {
    // At start, before the first paid request if it can: the server listens already, a refusal of an earlier run stays in force meanwhile.
    // Stopping ends the run (its free calls, paced by the API's limits, may take a while): no shutdown waits for it.
    const stop = new AbortController();
    const first = runDoctorOnce(ctx, stop.signal);
    return async () => {
      stop.abort(new Error("server stopping"));
      await first;
    };
  },
};

async function doctorCheck(ctx: ServiceContext): Promise<{ ok: boolean; detail: unknown }> {
  const report = await currentReport(ctx);
  const state = await readState(ctx.db);
  const refused = refusing(state);
  return {
    ok: report !== null && !refused && report.verdict !== "key" && report.verdict !== "unreachable",
    detail: {
      verdict: report?.verdict ?? "not run",
      paidRequests: refused ? "refused until acknowledged (company-data server ack-drift)" : "allowed",
      acknowledged: state?.acknowledged ? state.acknowledged.split("\n") : [],
      report: report ? reportLines(report, "en") : [],
      findings: report?.findings ?? [],
    },
  };
}

/** Paid requests wait while a breaking finding is not acknowledged. */
async function driftGate(db: Db, lang: Language): Promise<ErrorAnswer | null> {
  const state = await readState(db);
  if (!refusing(state)) return null;
  const names = state!.breaking
    .split("\n")
    .map((l) => l.split(" ").slice(0, 1).concat(l.split(" ").slice(2)).join(": "))
    .join("; ");
  return errorAnswer("UNAVAILABLE", DOCTOR_SERVER_TEXTS.refused[lang](names));
}

export const doctorExtension: ServerExtension = {
  name: "doctor",
  services: [doctorService],
  healthChecks: { doctor: doctorCheck },
  paidGates: [driftGate],
};
