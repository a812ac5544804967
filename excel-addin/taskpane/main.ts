/**
 * The task pane: the shared UI (shared/ui/) with the Excel host. The app
 * service runs in this page with runAsync over the Excel driver: fetch,
 * OfficeRuntime.storage (the key stays per user, never in the workbook),
 * Excel.run for the sheet effects.
 */
import { mountApp } from "../../shared/ui/app.ts";
import { directHost } from "../../shared/ui/hosts/direct.ts";
import { officeDriver, workbookId, displayLanguage } from "../host/office.ts";
import { onPanelRequest } from "./bridge.ts";
import { serialiseChecks, startMonitor } from "../monitor.ts";

Office.onReady(async () => {
  const root = document.getElementById("app");
  if (!root) return;
  // One check at a time: the timer and the pane's "Check now" go through the same caller.
  const host = serialiseChecks(directHost("excel", officeDriver(), async () => ({
    host: "excel",
    now: () => Date.now(),
    random: Math.random,
    documentId: await workbookId(),
  })));
  const first = onPanelRequest((r) => mounted.ui.show(r.panel));
  const mounted = mountApp(root, host, { initial: first?.panel, language: displayLanguage() });
  startMonitor(host); // scheduled portfolio checks while the workbook is open (excel-addin/monitor.ts)
});
