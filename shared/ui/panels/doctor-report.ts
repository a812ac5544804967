/**
 * Settings → Test connection, second half: after the connection answers,
 * the free self-test (the app method `doctor`, shared/doctor/) checks that
 * the service answers the way the client reads it, and this module shows
 * its verdict — safe to spend or not, the proof that it spent nothing, and
 * each finding with the features it affects. The settings panel holds two
 * hooks: `withServiceCheck` around its test call and `doctorReportView` in
 * its render.
 */
import type { DoctorReport, Finding } from "../../doctor/index.ts";
import type { ConnectionInput } from "../../app/index.ts";
import { DOCTOR_TEXTS, findingText, spendText, verdictText, worstFirst } from "../../doctor/index.ts";
import { h } from "../dom.ts";
import type { PanelState, Ui } from "../panel.ts";
import { UiCallError } from "../host.ts";

export interface DoctorState extends PanelState {
  doctor?: DoctorReport | null;
}

/** A failed connection test that a drifted service can explain: the account answer was not what the client reads. */
const explainable = (e: unknown) => e instanceof UiCallError && e.error.code === "MALFORMED_RESPONSE";

/**
 * Run the connection test, then the doctor with the same input. A test that
 * failed on an unreadable answer runs the doctor too (its report says which
 * field differs), then fails as before; other failures (no key, no network)
 * leave nothing to check.
 */
export async function withServiceCheck<T>(
  ui: Ui,
  s: DoctorState,
  input: ConnectionInput,
  test: () => Promise<T>,
): Promise<T> {
  s.doctor = null;
  let result: T;
  try {
    result = await test();
  } catch (e) {
    if (explainable(e)) s.doctor = await runCheck(ui, input);
    throw e;
  }
  s.doctor = await runCheck(ui, input);
  return result;
}

async function runCheck(ui: Ui, input: ConnectionInput): Promise<DoctorReport | null> {
  try {
    return await ui.call("doctor", input);
  } catch {
    // The connection test's own message already says what failed; no report is better than a second error.
    return null;
  }
}

const VERDICT_CLASS: Record<DoctorReport["verdict"], string> = {
  pass: "cd-doctor-pass",
  degraded: "cd-doctor-degraded",
  unsafe: "cd-warn",
  key: "cd-warn",
  unreachable: "cd-warn",
};

const item = (ui: Ui, f: Finding) => h("li", { class: `cd-doctor-item-${f.severity}` }, findingText(f, ui.lang));

/** The report under the test button (nothing until a test ran). */
export function doctorReportView(ui: Ui, s: DoctorState): HTMLElement | null {
  const r = s.doctor;
  if (!r) return null;
  const shown = worstFirst(r.findings.filter((f) => f.severity !== "info"));
  const notes = r.findings.filter((f) => f.severity === "info");
  const checked = r.verdict !== "key" && r.verdict !== "unreachable";
  return h(
    "section",
    { id: "settings-doctor", class: "cd-doctor", attrs: { "aria-live": "polite" } },
    h("p", { id: "settings-doctor-verdict", class: VERDICT_CLASS[r.verdict] }, verdictText(r.verdict, ui.lang)),
    checked ? h("p", { id: "settings-doctor-spent", class: "cd-note" }, spendText(r, ui.lang)) : null,
    checked && shown.length
      ? h(
          "ul",
          { id: "settings-doctor-findings" },
          shown.map((f) => item(ui, f)),
        )
      : null,
    checked && notes.length
      ? h(
          "details",
          null,
          h("summary", null, `${DOCTOR_TEXTS.findingsTitle[ui.lang]} ${notes.length} (info)`),
          h(
            "ul",
            null,
            notes.map((f) => item(ui, f)),
          ),
        )
      : null,
  );
}
