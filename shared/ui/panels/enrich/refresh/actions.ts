/**
 * The section's three buttons: estimate the cost, switch the schedule on or
 * off, and refresh now. The switch (on) and "Refresh now" wait for the
 * estimate: nothing is scheduled or spent before its price is on screen.
 */
import type { RefreshSettings, RefreshSummary, RefreshTable } from "../../../../refresh/index.ts";
import type { PanelState, Ui } from "../../../panel.ts";
import { h } from "../../../dom.ts";
import { button, creditsText } from "../../common.ts";
import type { RefreshSectionState } from "./draft.ts";
import { T } from "./texts.ts";

/** What the buttons act on: the table (null: none yet), the settings as they stand, whether they are valid, whether the schedule is on. */
export interface RefreshForm {
  table: RefreshTable | null;
  settings: () => Partial<RefreshSettings>;
  valid: boolean;
  enabled: boolean;
}

/** "Refresh now": save the settings shown (the switch as it is), run until done or paused 50 times, and show the summary. */
async function refreshNow(ui: Ui, s: PanelState, r: RefreshSectionState, f: RefreshForm): Promise<void> {
  r.status = await ui.call("refreshSaveSettings", { refresh: { ...f.settings(), enabled: f.enabled } });
  let out: RefreshSummary;
  let steps = 0;
  do out = await ui.call("refreshRun", {});
  while (out.status === "paused" && ++steps < 50);
  r.last = out;
  s.message = { kind: out.status === "done" ? "success" : "info", text: out.message };
  r.status = undefined; // the month's spend and the last run, read again
  r.estimate = undefined; // the next price is another one: shown again before anything is spent
  void ui.refreshAccount();
}

export function refreshActions(ui: Ui, s: PanelState, r: RefreshSectionState, f: RefreshForm): HTMLElement {
  const estimateBtn = button(
    "refresh-estimate",
    ui.pick(T.estimate),
    (b) =>
      void ui.run(s, b, async () => {
        r.estimate = await ui.call("refreshEstimate", { refresh: { ...f.settings(), enabled: false } });
      }),
    { disabled: !f.table || !f.valid },
  );
  const enabled = f.enabled;
  const toggle = button(
    "refresh-toggle",
    ui.pick(enabled ? T.off : T.on),
    (b) =>
      void ui.run(s, b, async () => {
        if (!enabled && !r.estimate) {
          s.message = { kind: "error", text: T.estimateFirst };
          return;
        }
        r.status = await ui.call("refreshSaveSettings", { refresh: { ...f.settings(), enabled: !enabled } });
        s.message = { kind: "success", text: r.status.settings.enabled ? T.isOn : T.isOff };
      }),
    { disabled: !enabled && (!r.estimate || !f.valid) },
  );
  // Refresh now spends at most the next run shown; it waits for the estimate like the switch.
  const est = r.estimate;
  const runBtn = button(
    "refresh-run",
    est
      ? `${ui.pick(T.now)} (${ui.pick({ de: "höchstens", en: "at most" })} ${creditsText(ui, est.nextRun)})`
      : ui.pick(T.now),
    (b) => void ui.run(s, b, () => refreshNow(ui, s, r, f)),
    { disabled: !est || !f.valid },
  );
  return h("div", { class: "cd-actions" }, estimateBtn, toggle, runBtn);
}
