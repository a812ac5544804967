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
import { pageLock, serialiseBudget } from "../functions/budget-lock.ts";
import { serialiseChecks, startMonitor } from "../monitor.ts";
import { serialiseRefresh, startRefresh } from "../refresh.ts";
import { serialiseSyncs, startServerSync } from "../server-sync.ts";
import { Pacer } from "../../shared/api/index.ts";

void Office.onReady(async () => {
  const identity = await initWorkbookIdentity();
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
  // One check at a time, one sync of the team server's runs at a time and never beside a check: the timers and the pane go through the same caller.
  const host = serialiseRefresh(serialiseChecks(serialiseSyncs(direct)));
  mountApp(root, host, { language: displayLanguage() });
  startMonitor(host); // scheduled portfolio checks while the workbook is open (excel-addin/monitor.ts)
  startRefresh(host); // scheduled refresh of an enriched list, likewise (excel-addin/refresh.ts)
  startServerSync(host); // with a team server: its runs written into the workbook on open and on a timer (excel-addin/server-sync.ts)
});
