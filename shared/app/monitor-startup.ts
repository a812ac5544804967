/**
 * Whether an Excel workbook starts the add-in when it is opened (issue 42,
 * item 3). Excel's host sets Office.addin.setStartupBehavior(load) while a
 * schedule is on, so the check (or the team server's results) comes in
 * without the task pane being opened (Microsoft, "Run code in your Office
 * Add-in when the document opens",
 * https://learn.microsoft.com/office/dev/add-ins/develop/run-code-on-document-open).
 * The setting is saved in the document, so everyone who opens the file
 * without the add-in (a colleague it was sent to) gets an "ADD-IN ERROR"
 * when it opens (OfficeDev/office-js#3558, open since 2023; #1542). So it
 * is a choice of the workbook, kept in the workbook (`doc:startup`, which
 * Excel keeps in the file: excel-addin/host/document-state.ts), that anyone
 * with the add-in can switch off for everyone; until someone chooses:
 *  - a check in the workbook (direct connection): on, since opening is the
 *    only moment the workbook can catch up a missed check;
 *  - a team-server schedule: off, since the server runs the check and sends
 *    the alerts whether or not anybody opens the file; its results come into
 *    the sheet when the task pane is opened.
 * Other hosts have no such setting: their answers carry no `startup`.
 */
import * as z from "zod/mini";
import { invalid, readSaved, savedKind, storeGet, storePut, writeSaved, type Operation } from "../core/index.ts";
import { record } from "./input.ts";
import { monitorStatusServerAware } from "./monitor-server.ts";
import type { AppDeps, MonitorStatusView, StartupStatus } from "./protocol.ts";

export const STARTUP_KEY = "doc:startup";
const STARTUP = savedKind(1, z.object({ on: z.boolean() }));

function* startupOf(deps: AppDeps, view: MonitorStatusView): Operation<StartupStatus | undefined> {
  if (deps.host !== "excel") return undefined;
  const [raw] = yield* storeGet([STARTUP_KEY]);
  const chosen = readSaved(STARTUP, raw)?.on;
  return { on: chosen ?? view.server === undefined, chosen: chosen !== undefined };
}

/** A method answering the Monitor panel's status, with the workbook's startup choice (Excel). */
export function withStartup(
  method: (deps: AppDeps, input: unknown) => Operation<MonitorStatusView>,
): (deps: AppDeps, input: unknown) => Operation<MonitorStatusView> {
  return function* (deps, input) {
    const view = yield* method(deps, input);
    const startup = yield* startupOf(deps, view);
    return startup ? { ...view, startup } : view;
  };
}

/** monitorStartup: the workbook's choice (for everyone who opens it); answers the status. */
export function* monitorStartupMethod(deps: AppDeps, input: unknown): Operation<MonitorStatusView> {
  const on = record(input).on;
  if (typeof on !== "boolean") throw invalid("on", { de: "erwartet ein oder aus", en: "expected on or off" });
  yield* storePut({ [STARTUP_KEY]: writeSaved(STARTUP, { on }) });
  return yield* withStartup(monitorStatusServerAware)(deps, {});
}
