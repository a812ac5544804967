/**
 * The second confirmation of a large list: the names are matched, the exact
 * price of the profiles is known, and nothing more is bought until the user
 * answers. Continue buys them within that price; Cancel ends the run with the
 * matched ids written.
 */
import type { Ui } from "../../panel.ts";
import { formatNumber } from "../../panel.ts";
import { h } from "../../dom.ts";
import { format } from "../../strings.ts";
import { button, creditsText } from "../common.ts";
import { drive } from "./drive.ts";
import type { EnrichState } from "./state.ts";

const AFTER_MATCHING = {
  de: "Abgleich fertig: {found} von {rows} Firmen gefunden{distinct}. Die Profile kosten {credits} (vorher höchstens {ceiling}). Weiter?",
  en: "Matching done: {found} of {rows} companies found{distinct}. The profiles cost {credits} (before: at most {ceiling}). Continue?",
};
const DISTINCT = { de: ", {n} verschiedene", en: ", {n} distinct" };
const CONFIRM_GO = { de: "Weiter – {credits}", en: "Continue – {credits}" };
const CONFIRM_CANCEL = { de: "Abbrechen", en: "Cancel" };
const CANCELLED = {
  de: "Abgebrochen: Die gefundenen Firmen-IDs stehen in der Tabelle („abgeglichen, Profil nicht gekauft“), Profile wurden keine gekauft. Ein neuer Start kauft sie, ohne die Namen noch einmal abzugleichen.",
  en: 'Cancelled: the company ids found are in the table ("matched, profile not bought"), no profile was bought. A new start buys them without matching the names again.',
};

/** The question and its two buttons; null unless a run waits for the answer. */
export function confirmBox(ui: Ui, s: EnrichState): HTMLElement | null {
  const prog = s.progress;
  const a = prog?.afterMatching;
  if (!prog || !a || s.running) return null;
  const credits = creditsText(ui, a.credits);
  const text = format(ui.pick(AFTER_MATCHING), {
    found: formatNumber(a.found, ui.lang),
    rows: formatNumber(a.rows, ui.lang),
    distinct: a.companies !== a.found ? format(ui.pick(DISTINCT), { n: formatNumber(a.companies, ui.lang) }) : "",
    credits,
    ceiling: creditsText(ui, a.ceiling),
  });
  const answer = (proceed: boolean) => (b: HTMLButtonElement) =>
    void ui.run(s, b, async () => {
      s.progress = await ui.call("enrichConfirm", { jobId: prog.jobId, proceed, firstStep: true });
      if (proceed) void drive(ui, s);
      else s.message = { kind: "info", text: CANCELLED };
    });
  return h(
    "div",
    {
      class: "cd-preview",
      id: "enrich-after-matching",
      attrs: { role: "group", "aria-labelledby": "enrich-after-matching-text" },
    },
    h("p", { id: "enrich-after-matching-text", attrs: { "data-credits": String(a.credits) } }, text),
    h(
      "div",
      { class: "cd-actions" },
      button("enrich-confirm-go", format(ui.pick(CONFIRM_GO), { credits }), answer(true), { primary: true }),
      button("enrich-confirm-cancel", ui.pick(CONFIRM_CANCEL), answer(false)),
    ),
  );
}
