/**
 * Step 6, the review: each ambiguous row with its candidates (name and the
 * facts that tell them apart, an inactive one said in words and marked), one
 * to pick, and a button that applies the pick at its stated price.
 */
import type { EnrichProgressView } from "../../../app/index.ts";
import type { Ui } from "../../panel.ts";
import { h } from "../../dom.ts";
import { button, creditsText, statusOf } from "../common.ts";
import type { EnrichState } from "./state.ts";
import { stepSection } from "./step.ts";

type ReviewRow = EnrichProgressView["reviewRows"][number];
type Candidate = ReviewRow["candidates"][number];

/** One candidate as a radio: its name, and under it the facts that tell it from the others. */
function candidateChoice(ui: Ui, s: EnrichState, r: ReviewRow, c: Candidate, i: number): HTMLElement {
  const st = c.statusCode || c.status || c.active !== null ? statusOf(ui, c) : null;
  // Not active (deleted, in liquidation, …): said in words and marked, like the search list does.
  const inactive = st?.active === false;
  const facts = [
    c.street,
    [c.zip, c.city].filter(Boolean).join(" "),
    c.register,
    c.industry,
    !inactive && st ? st.text : "",
    c.id,
  ];
  return h(
    "label",
    { class: "cd-choice cd-review-choice" + (inactive ? " is-inactive" : ""), attrs: { "data-id": c.id } },
    h("input", {
      type: "radio",
      name: `review-${r.row}`,
      id: `review-${r.row}-${i}`,
      value: c.id,
      checked: s.picks?.[r.row] === c.id,
      on: { change: () => ((s.picks ??= {})[r.row] = c.id) },
    }),
    h(
      "span",
      null,
      h("span", { class: "cd-name" }, c.name || c.id),
      inactive && st ? h("span", { class: "cd-warn" }, " · " + st.text) : null,
      h("span", { class: "cd-sub", id: `review-${r.row}-${i}-detail` }, facts.filter(Boolean).join(" · ")),
    ),
  );
}

/** Apply the row's pick (its price on the button); without a pick it says so and spends nothing. */
function applyButton(ui: Ui, s: EnrichState, prog: EnrichProgressView, r: ReviewRow): HTMLElement {
  return button(
    `review-apply-${r.row}`,
    prog.pickCredits > 0
      ? ui.t("applyPickFor", { credits: creditsText(ui, prog.pickCredits) })
      : `${ui.t("applyPick")} (${ui.t("free")})`,
    (b) =>
      void ui.run(s, b, async () => {
        const pick = s.picks?.[r.row];
        if (!pick) {
          s.message = {
            kind: "error",
            text: { de: "Bitte zuerst einen Kandidaten wählen.", en: "Please pick a candidate first." },
          };
          return;
        }
        s.progress = await ui.call("applyCandidate", { jobId: prog.jobId, row: r.row, candidateId: pick });
        s.message = {
          kind: "success",
          text: { de: `Zeile ${r.row} übernommen.`, en: `Row ${r.row} applied.` },
        };
        void ui.refreshAccount();
      }),
    { disabled: !!s.running },
  );
}

/** The rows to review; null when the run has none. */
export function reviewSection(ui: Ui, s: EnrichState): HTMLElement | null {
  const prog = s.progress;
  if (!prog || !prog.reviewRows.length) return null;
  return stepSection(
    "enrich-h-review",
    ui.t("reviewTitle", { n: prog.reviewRows.length }),
    h("p", { class: "cd-note" }, ui.t("reviewIntro")),
    prog.reviewRows.map((r) =>
      h(
        "fieldset",
        { class: "cd-fieldset cd-review", id: `review-row-${r.row}` },
        h("legend", null, ui.t("reviewRow", { row: r.row }), " ", h("q", null, r.input)),
        h("p", { class: "cd-note", id: `review-reason-${r.row}` }, ui.t("reviewWhy"), " ", ui.pick(r.reason)),
        r.candidates.map((c, i) => candidateChoice(ui, s, r, c, i)),
        h("div", { class: "cd-actions" }, applyButton(ui, s, prog, r)),
      ),
    ),
  );
}
