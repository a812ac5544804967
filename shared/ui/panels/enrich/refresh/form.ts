/**
 * The refresh settings as a form: days, frequency, hour and monthly ceiling.
 * Any change drops the estimate shown (other figures, another price), so the
 * switch and "Refresh now" wait for a new one.
 */
import type { Ui } from "../../../panel.ts";
import { h, field } from "../../../dom.ts";
import { draftNumbers, type Draft, type NumberKey, type RefreshSectionState } from "./draft.ts";
import { T } from "./texts.ts";

/** The form's rows, and the error under them while a number is not whole or out of range. */
export function settingsForm(ui: Ui, r: RefreshSectionState, d: Draft, valid: boolean): HTMLElement[] {
  const number = (id: string, key: NumberKey, min: string, max?: string) => {
    const input = h("input", {
      id,
      type: "number",
      min,
      max,
      step: "1",
      value: d[key],
      on: {
        input: () => {
          d[key] = input.value;
          r.edited = true;
          const hadEstimate = !!r.estimate;
          r.estimate = undefined;
          // Re-render only when something on screen changes: the estimate goes, or the numbers' validity turns.
          if (hadEstimate || valid !== draftNumbers(d).valid) ui.rerender();
        },
      },
    });
    return input;
  };
  const freq = h(
    "select",
    {
      id: "refresh-frequency",
      on: {
        change: () => (
          (d.frequency = freq.value === "daily" ? "daily" : "weekly"),
          (r.edited = true),
          (r.estimate = undefined),
          ui.rerender()
        ),
      },
    },
    h("option", { value: "daily" }, ui.pick(T.daily)),
    h("option", { value: "weekly" }, ui.pick(T.weekly)),
  );
  freq.value = d.frequency;
  const rows = [
    field(ui.pick(T.days), number("refresh-days", "days", "1")),
    field(ui.pick(T.frequency), freq),
    field(ui.pick(T.hour), number("refresh-hour", "hour", "0", "23")),
    field(ui.pick(T.ceiling), number("refresh-ceiling", "ceiling", "1")),
  ];
  if (!valid) rows.push(h("p", { class: "cd-status is-error", id: "refresh-number-error" }, ui.pick(T.badNumber)));
  return rows;
}
