/**
 * The task pane: the shared UI (shared/ui/) with the Excel host. The app
 * service runs in this page with runAsync over the Excel driver: fetch,
 * OfficeRuntime.storage (the key stays per user, never in the workbook),
 * Excel.run for the sheet effects. Its start (Office.onReady) is where the
 * workbook's id and card language are created (host/identity.ts): in the
 * shared runtime this page is loaded whenever the functions are, so custom
 * functions never write to the workbook themselves.
 */
import { mountApp } from "../../shared/ui/index.ts";
import { hostFromEnvelopes } from "../../shared/ui/index.ts";
import { runAsync } from "../../shared/core/index.ts";
import { settle } from "../../shared/app/index.ts";
import { officeDriver, initWorkbookIdentity, displayLanguage } from "../host/office.ts";
import { moveWorkbookStateIntoFile, workbookLeases } from "../host/office.ts";
import { withWorkbookLeases } from "../workbook-lease.ts";
import { pageLock, serialiseBudget } from "../functions/budget-lock.ts";
import { serialiseJobs, startScheduledJobs, withStartupChoice } from "../schedule.ts";
import { explainForeignSchedule, serialiseSyncs } from "../server-sync.ts";
import { Pacer } from "../../shared/api/index.ts";

void Office.onReady(async () => {
  const identity = await initWorkbookIdentity();
  // A workbook from before its state lived in the file: moved there now (host/file-store.ts); what fails stays here.
  await moveWorkbookStateIntoFile().catch(() => 0);
  const root = document.getElementById("app");
  if (!root) return;
  const deps = {
    host: "excel" as const,
    now: () => Date.now(),
    random: Math.random,
    documentId: identity.id,
    pacer: new Pacer(),
  };
  // Each call is one run over the page's driver, its budget and spend-log updates serialised with the functions' (one page lock).
  const direct = hostFromEnvelopes("excel", async (method, input) => {
    const driver = serialiseBudget(officeDriver(), pageLock());
    try {
      return await runAsync(settle(deps, method, input), driver);
    } finally {
      driver.release();
    }
  });
  // One run of each scheduled job at a time, and a team server's sync never beside a check: the timer and the
  // pane's "Check now" / "Refresh now" / "Fetch results now" go through the same caller.
  // And across the copies of the workbook open elsewhere (other devices, colleagues): a lease in the file.
  const leases = workbookLeases();
  // The workbook's choice whether it starts the add-in when opened (the Monitor panel's switch) governs the timer's
  // setStartupBehavior (schedule.ts).
  const leased = explainForeignSchedule(leases ? withWorkbookLeases(direct, leases) : direct);
  const host = withStartupChoice(serialiseJobs(serialiseSyncs(leased)));
  mountApp(root, host, { language: displayLanguage() });
  // The portfolio check and the refresh on their schedules while the workbook is open; with a team server, the
  // server's runs fetched into the workbook instead of the local check (excel-addin/schedule.ts, server-sync.ts).
  startScheduledJobs(host);
});
