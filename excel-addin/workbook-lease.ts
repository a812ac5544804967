/**
 * One run of a job per workbook across every copy that has it open: with
 * the state in the file (host/document-state.ts) two devices, or two
 * colleagues, open one workbook and both timers find the same job due. The
 * page's own serialisation (./schedule.ts, ./server-sync.ts) cannot see the
 * other copy; a lease in the file can (host/file-store.ts takeLease). The
 * portfolio check and the team server's sync share one lease (both write
 * the portfolio sheet and the change log), the refresh has its own. A copy
 * that finds the lease taken does not run: it says so, and the other copy's
 * results arrive in the workbook (its cursor and watermarks are in the file,
 * so the next look has nothing left to do twice).
 */
import type { AppInput, AppMethodName, AppOutput } from "../shared/app/index.ts";
import { overrideCalls, UiCallError, type CallOverrides } from "../shared/ui/index.ts";
import type { AppCaller } from "./schedule.ts";
import type { Lease } from "./host/file-store.ts";

export interface WorkbookLeases {
  take(job: string): Promise<Lease | null>;
  /** Move the lease's end on while the run goes on. */
  renew(job: string): Promise<unknown>;
  giveBack(job: string): Promise<void>;
  /** How often a running job renews its lease (a third of its length). */
  renewEveryMs: number;
}

/** The lease each job method runs under. */
export const LEASED_METHODS = { monitorRun: "portfolio", monitorSync: "portfolio", refreshRun: "refresh" } as const;

const busy = (lease: Lease) =>
  new UiCallError({
    code: "TIMEOUT",
    message: {
      de: "Eine andere geöffnete Kopie dieser Arbeitsmappe (ein anderes Gerät oder eine Kollegin, ein Kollege) führt diesen Lauf gerade aus; seine Ergebnisse erscheinen in der Mappe. Bitte in einigen Minuten erneut versuchen.",
      en: "Another open copy of this workbook (another device, or a colleague) is running this right now; its results arrive in the workbook. Please try again in a few minutes.",
    },
    ...(lease.until > 0 ? { retryAt: lease.until } : {}),
  });

function leased<M extends AppMethodName>(
  call: AppCaller["call"],
  method: M,
  job: string,
  leases: WorkbookLeases,
): (input: AppInput<M>) => Promise<AppOutput<M>> {
  return async (input) => {
    const other = await leases.take(job);
    if (other) throw busy(other);
    const renewing = setInterval(() => void leases.renew(job).catch(() => undefined), leases.renewEveryMs);
    try {
      return await call(method, input);
    } finally {
      clearInterval(renewing);
      await leases.giveBack(job).catch(() => undefined);
    }
  };
}

/** The host's calls of the job methods, each under its workbook lease. */
export function withWorkbookLeases<H extends AppCaller>(host: H, leases: WorkbookLeases): H {
  const overrides: CallOverrides = {
    monitorRun: leased(host.call, "monitorRun", LEASED_METHODS.monitorRun, leases),
    monitorSync: leased(host.call, "monitorSync", LEASED_METHODS.monitorSync, leases),
    refreshRun: leased(host.call, "refreshRun", LEASED_METHODS.refreshRun, leases),
  };
  return { ...host, call: overrideCalls(host.call, overrides) };
}
