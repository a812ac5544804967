/**
 * With a team server the portfolio schedule runs on the server, also while
 * the workbook is closed (shared/app/monitor-server.ts); Excel's part is to
 * write what the server's runs found into the workbook. The scheduled-job
 * loop (./schedule.ts) does that as one more job (SERVER_SYNC_JOB in
 * shared/app/scheduled-jobs.ts) when the workbook opens and on the pane's
 * timer, and the local check stands aside in server mode:
 *  - on open: the shared runtime starts with the document while a schedule
 *    is on (./schedule.ts wantStartup → Office.addin.setStartupBehavior(load)),
 *    so this runs without the user opening the task pane. Microsoft, "Run
 *    code in your Office Add-in when the document opens"
 *    (https://learn.microsoft.com/office/dev/add-ins/develop/run-code-on-document-open):
 *    the setting is made at run time, so the add-in must have been opened
 *    once on the document; from then on "whenever the document is reopened,
 *    the add-in loads immediately" and Office.onReady's code runs (here:
 *    taskpane/main.ts). It needs SharedRuntime 1.1 ("Shared runtime
 *    requirement sets",
 *    https://learn.microsoft.com/javascript/api/requirement-sets/common/shared-runtime-requirement-sets:
 *    Excel on the web; Windows from Version 2002; Mac from 16.35); an older
 *    Excel syncs when the task pane is opened;
 *  - then at every look of the timer while the workbook is open.
 *
 * What this file adds: a sync never runs beside a check of the same workbook
 * and the other way round. Both write the portfolio sheet, and a sync reads
 * the change log's keys before it appends; the user's "Check now" and the
 * timer's sync (or the Monitor panel's "Fetch results now") can otherwise
 * meet. ./schedule.ts keeps one run per job; this keeps the two jobs apart.
 */
import { overrideCalls, UiCallError } from "../shared/ui/index.ts";
import type { AppCaller } from "./schedule.ts";

/** The check and the sync of one workbook one after the other, in the order asked. */
export function serialiseSyncs<H extends AppCaller>(host: H): H {
  let tail: Promise<unknown> = Promise.resolve();
  const after = <T>(f: () => Promise<T>): Promise<T> => {
    const answer = tail.catch(() => undefined).then(f);
    tail = answer;
    return answer;
  };
  return {
    ...host,
    call: overrideCalls(host.call, {
      monitorSync: (input) => after(() => host.call("monitorSync", input)),
      monitorRun: (input) => after(() => host.call("monitorRun", input)),
    }),
  };
}

/**
 * With the workbook's state in the file (host/document-state.ts) a colleague
 * opens a workbook whose team-server schedule someone else switched on. The
 * colleague's copy syncs it while its owner shares it with the team
 * (shared/app/monitor-share.ts); when the owner does not (or the schedule is
 * gone, or the link predates sharing), the server answers "not found" (it
 * leaks nothing of other users' schedules); said as what it most likely is,
 * with what to do, and why not to switch it on again (it would run twice,
 * paid twice).
 */
const NOT_YOURS = {
  de: "Der Team-Server zeigt Ihnen keinen Zeitplan dieser Arbeitsmappe: Er gehört einer Kollegin oder einem Kollegen, die ihn nicht mit dem Team teilen (teilen lässt er sich im Bereich „Portfolio-Check“ der Person, die ihn eingeschaltet hat: „Mit dem Team teilen“), oder er wurde auf dem Server entfernt. Bitte nicht erneut einschalten, solange er dort läuft: Er liefe dann zweimal und kostete doppelt.",
  en: 'The team server shows you no schedule of this workbook: it belongs to a colleague who does not share it with the team (whoever switched it on can share it in their Portfolio check panel: "Share with the team"), or it was removed on the server. Please do not switch it on again while it runs there: it would run twice and cost twice.',
};

/** The fetch of a schedule that is not this user's says whose it is instead of "not found". */
export function explainForeignSchedule<H extends AppCaller>(host: H): H {
  return {
    ...host,
    call: overrideCalls(host.call, {
      monitorSync: async (input) => {
        try {
          return await host.call("monitorSync", input);
        } catch (e) {
          if (e instanceof UiCallError && e.error.code === "NOT_FOUND")
            throw new UiCallError({ code: "NOT_FOUND", message: NOT_YOURS });
          throw e;
        }
      },
    }),
  };
}
