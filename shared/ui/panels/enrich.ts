/**
 * Enrich a list: read the selected table, confirm which columns hold name,
 * city, postcode, register or id, choose output fields by cost, see credits
 * and time before anything is spent, run in resumable steps with a progress
 * bar, and settle ambiguous rows by picking a candidate.
 */
import type {
  ColumnRole,
  EnrichConfig,
  EnrichPreviewView,
  EnrichProgressView,
  FieldGroupView,
  RerunMode,
  SelectionView,
} from "../../app/index.ts";
import type { PanelState, Ui } from "../panel.ts";
import { formatNumber } from "../panel.ts";
import { h, field } from "../dom.ts";
import { definePanel } from "../panel.ts";
import { button, creditsText } from "./common.ts";
import { STRINGS, format } from "../strings.ts";
import { statusOf } from "./common.ts";
import { refreshSection, refreshTableOf } from "./enrich-refresh.ts";

const ROLES: ColumnRole[] = ["name", "city", "zip", "register", "id", "website", "vatId", "lei"];

interface EnrichState extends PanelState {
  selection?: SelectionView;
  mapping?: Record<ColumnRole, number | null>;
  groups?: FieldGroupView[] | null;
  fields?: Set<string>;
  mode?: "batch" | "free";
  rerun?: "all" | "newOrFailed" | "olderThan";
  days?: string;
  preview?: EnrichPreviewView;
  progress?: EnrichProgressView;
  running?: boolean;
  pauseRequested?: boolean;
  picks?: Record<number, string>;
  /** The document's unfinished run from an earlier sidebar (undefined: not asked yet; null: none). */
  unfinished?: EnrichProgressView | null;
}

/** Ask once per panel whether an earlier, closed sidebar left a run unfinished. */
function loadUnfinished(ui: Ui, s: EnrichState) {
  if (s.unfinished !== undefined) return;
  s.unfinished = null;
  ui.call("enrichStatus", {}).then(
    (p) => {
      // A run started in this panel meanwhile is the one to show.
      if (!s.progress && p) {
        s.unfinished = p;
        ui.rerender();
      }
    },
    () => undefined, // no key yet, or nothing readable: the panel works as for a new run
  );
}

function loadFields(ui: Ui, s: EnrichState) {
  if (s.groups !== undefined) return;
  s.groups = null;
  ui.call("enrichFields", {}).then(
    (out) => {
      s.groups = out.groups;
      s.fields ??= new Set(out.defaults);
      ui.rerender();
    },
    (e) => {
      // Not undefined: that would ask again on every render, in a loop.
      s.groups = [];
      s.message = ui.errorMessage(e);
      ui.rerender();
    },
  );
}

function config(s: EnrichState): EnrichConfig {
  const sel = s.selection!;
  const rerun: RerunMode =
    s.rerun === "olderThan"
      ? { kind: "olderThan", days: Math.max(1, Number(s.days) || 30) }
      : { kind: s.rerun ?? "all" };
  return {
    sheet: sel.sheet,
    headerRow: sel.row,
    col: sel.col,
    rows: Math.max(0, sel.rows - 1),
    cols: sel.cols,
    mapping: s.mapping!,
    fields: [...(s.fields ?? [])],
    mode: s.mode ?? "batch",
    rerun,
  };
}

const seconds = (ui: Ui, n: number) =>
  n < 90
    ? ui.t("seconds", { n: formatNumber(Math.max(1, Math.round(n)), ui.lang) })
    : ui.t("minutes", { n: formatNumber(Math.round(n / 60), ui.lang) });

/** Step until finished, paused or failed; each step is one host call bounded by the host's deadline. */
async function drive(ui: Ui, s: EnrichState) {
  s.running = true;
  s.pauseRequested = false;
  s.message = undefined;
  ui.rerender();
  try {
    // A run stopped for lack of credits goes on when the user continues it (after a top-up), not by itself.
    let first = true;
    // A large list stops once its names are matched: the rest is bought only when the user confirms its exact price.
    while (
      s.progress &&
      !s.progress.finished &&
      !s.pauseRequested &&
      !s.progress.afterMatching &&
      (first || !s.progress.stoppedForCredits)
    ) {
      first = false;
      s.progress = await ui.call("enrichStep", { jobId: s.progress.jobId });
      ui.rerender();
    }
    if (s.progress?.overBudget) {
      s.message = { kind: "error", text: OVER_BUDGET };
    } else if (s.progress?.afterMatching) {
      s.message = undefined; // the question is on screen, with its buttons
    } else if (s.progress?.stoppedForCredits) {
      const n = s.progress.outOfCredits;
      s.message = {
        kind: "error",
        text: {
          de: `Lauf angehalten: Die Credits sind aufgebraucht, ${n === 1 ? "1 Zeile ist" : `${n} Zeilen sind`} nicht angereichert. Nach dem Aufladen mit „Nach dem Aufladen fortsetzen“ weitermachen; Bezahltes wird nicht noch einmal bezahlt.`,
          en: `Run stopped: out of credits, ${n === 1 ? "1 row is" : `${n} rows are`} not enriched. After topping up, continue with "Continue after top-up"; nothing paid is paid again.`,
        },
      };
    } else if (s.progress?.finished) {
      s.message = { kind: "success", text: { de: "Anreicherung abgeschlossen.", en: "Enrichment finished." } };
    } else if (s.pauseRequested) {
      s.message = {
        kind: "info",
        text: {
          de: "Angehalten. Fortsetzen setzt an der letzten Zeile fort.",
          en: "Paused. Resume continues from the last row.",
        },
      };
    }
  } catch (e) {
    s.message = ui.errorMessage(e);
  } finally {
    s.running = false;
    ui.rerender();
    void ui.refreshAccount();
  }
}

export const enrichPanel = definePanel<EnrichState>({
  id: "enrich",
  title: { de: "Anreichern", en: "Enrich" },
  initial: () => ({}),
  render(ui, s) {
    loadFields(ui, s);
    loadUnfinished(ui, s);
    s.mode ??= "batch";
    s.rerun ??= "newOrFailed";
    s.picks ??= {};
    const parts: (HTMLElement | null)[] = [];

    // 0. A run an earlier sidebar started and did not finish (the sidebar was closed or the run stopped)
    const u = s.unfinished;
    if (u && !s.progress) {
      parts.push(
        h(
          "section",
          { class: "cd-step cd-resume", id: "enrich-unfinished", attrs: { "aria-labelledby": "enrich-h-unfinished" } },
          h("h2", { id: "enrich-h-unfinished" }, ui.t("unfinishedTitle")),
          h(
            "div",
            { class: "cd-actions" },
            button(
              "enrich-continue",
              ui.t("unfinishedContinue", {
                done: formatNumber(u.processed, ui.lang),
                total: formatNumber(u.total, ui.lang),
              }),
              () => {
                s.progress = u;
                s.unfinished = null;
                void drive(ui, s);
              },
              { primary: true },
            ),
          ),
        ),
      );
    }

    // 1. The table
    parts.push(
      h(
        "section",
        { class: "cd-step", attrs: { "aria-labelledby": "enrich-h-table" } },
        h("h2", { id: "enrich-h-table" }, ui.t("enrichStepTable")),
        h("p", { class: "cd-intro" }, ui.t("enrichIntro")),
        h(
          "div",
          { class: "cd-actions" },
          button(
            "enrich-read",
            ui.t("readSelection"),
            (b) =>
              void ui.run(s, b, async () => {
                const sel = await ui.call("readSelection", {});
                s.preview = undefined;
                if (sel.rows < 2) {
                  // A header row alone: nothing to enrich, so nothing to price or start.
                  s.selection = undefined;
                  s.mapping = undefined;
                  s.message = { kind: "error", text: NO_DATA_ROWS };
                  return;
                }
                const cols = await ui.call("detectColumns", { headers: sel.headers });
                s.selection = sel;
                s.mapping = cols.mapping;
                s.preview = undefined;
                // An earlier run's block beside the table: a rerun writes into it, so it keeps that run's fields.
                if (sel.output?.fields) s.fields = new Set(sel.output.fields);
              }),
            { primary: !s.selection },
          ),
        ),
        s.selection
          ? h(
              "p",
              { class: "cd-note", id: "enrich-selection" },
              ui.t("selectionInfo", {
                sheet: s.selection.sheet,
                rows: Math.max(0, s.selection.rows - 1),
                cols: s.selection.cols,
              }),
            )
          : null,
        s.selection?.output
          ? h(
              "p",
              { class: "cd-note", id: "enrich-existing-output" },
              ui.t("existingOutput", { col: columnLetter(s.selection.output.col) }),
            )
          : null,
      ),
    );

    if (s.selection && s.mapping) {
      const sel = s.selection;
      // 2. Columns, detected and correctable
      parts.push(
        h(
          "section",
          { class: "cd-step", attrs: { "aria-labelledby": "enrich-h-cols" } },
          h("h2", { id: "enrich-h-cols" }, ui.t("enrichStepColumns")),
          h(
            "div",
            { class: "cd-grid2" },
            ROLES.map((role) => {
              const select = h(
                "select",
                {
                  id: `enrich-col-${role}`,
                  on: {
                    change: (ev) => {
                      const v = (ev.target as HTMLSelectElement).value;
                      s.mapping![role] = v === "" ? null : Number(v);
                      s.preview = undefined;
                      ui.rerender(); // the Start button must not keep a price that no longer holds
                    },
                  },
                },
                h("option", { value: "" }, ui.t("columnNone")),
                sel.headers.map((hd, i) => h("option", { value: String(i) }, hd || ui.t("columnN", { n: i + 1 }))),
              );
              select.value = s.mapping![role] === null ? "" : String(s.mapping![role]);
              return field(ui.t(`role_${role}` as "role_name"), select);
            }),
          ),
        ),
      );

      // 3. Output fields grouped by cost
      const groups = s.groups;
      parts.push(
        h(
          "section",
          { class: "cd-step", attrs: { "aria-labelledby": "enrich-h-fields" } },
          h("h2", { id: "enrich-h-fields" }, ui.t("enrichStepFields")),
          groups === null || groups === undefined
            ? h("p", { class: "cd-note" }, ui.t("loading"))
            : h(
                "div",
                null,
                groups.map((g) =>
                  h(
                    "fieldset",
                    { class: "cd-fieldset", id: `enrich-group-${g.group}` },
                    h("legend", null, ui.pick(g.label)),
                    h(
                      "div",
                      { class: "cd-checks" },
                      g.fields.map((f) =>
                        h(
                          "label",
                          { class: "cd-choice" },
                          h("input", {
                            type: "checkbox",
                            id: `enrich-field-${f.id}`,
                            checked: s.fields?.has(f.id) ?? false,
                            on: {
                              change: (ev) => {
                                s.fields ??= new Set();
                                if ((ev.target as HTMLInputElement).checked) s.fields.add(f.id);
                                else s.fields.delete(f.id);
                                s.preview = undefined;
                                ui.rerender();
                              },
                            },
                          }),
                          " ",
                          ui.pick(f.header),
                        ),
                      ),
                    ),
                  ),
                ),
              ),
        ),
      );

      // 4. How: fast or free, which rows
      const radio = (name: string, id: string, checked: boolean, label: string, onPick: () => void) =>
        h(
          "label",
          { class: "cd-choice" },
          h("input", {
            type: "radio",
            name,
            id,
            checked,
            on: { change: () => (onPick(), (s.preview = undefined), ui.rerender()) },
          }),
          " ",
          label,
        );
      const days = h("input", {
        id: "enrich-days",
        type: "number",
        min: "1",
        max: "3650",
        value: s.days ?? "30",
        disabled: s.rerun !== "olderThan",
        attrs: { "aria-label": ui.t("rerunDays") },
        on: {
          input: (ev) => ((s.days = (ev.target as HTMLInputElement).value), (s.preview = undefined)),
          change: () => ui.rerender(),
        },
      });
      parts.push(
        h(
          "section",
          { class: "cd-step", attrs: { "aria-labelledby": "enrich-h-how" } },
          h("h2", { id: "enrich-h-how" }, ui.t("enrichStepHow")),
          h(
            "fieldset",
            { class: "cd-fieldset" },
            h("legend", null, ui.t("enrichMode")),
            radio("enrich-mode", "enrich-mode-batch", s.mode === "batch", ui.t("modeBatch"), () => (s.mode = "batch")),
            radio("enrich-mode", "enrich-mode-free", s.mode === "free", ui.t("modeFree"), () => (s.mode = "free")),
          ),
          h(
            "fieldset",
            { class: "cd-fieldset" },
            h("legend", null, ui.t("rerun")),
            radio("enrich-rerun", "enrich-rerun-all", s.rerun === "all", ui.t("rerunAll"), () => (s.rerun = "all")),
            radio(
              "enrich-rerun",
              "enrich-rerun-new",
              s.rerun === "newOrFailed",
              ui.t("rerunNew"),
              () => (s.rerun = "newOrFailed"),
            ),
            h(
              "div",
              { class: "cd-inline" },
              radio(
                "enrich-rerun",
                "enrich-rerun-older",
                s.rerun === "olderThan",
                ui.t("rerunOlder"),
                () => (s.rerun = "olderThan"),
              ),
              days,
              " ",
              ui.t("days"),
            ),
          ),
        ),
      );

      // 5. Preview and run
      const p = s.preview;
      const previewBox = p
        ? h(
            "div",
            { class: "cd-preview", id: "enrich-preview" },
            h("p", null, ui.t("previewRows", { rows: p.rowsToProcess, all: p.rows, distinct: p.distinct })),
            h(
              "ul",
              null,
              h(
                "li",
                { class: s.mode === "batch" ? "is-chosen" : "" },
                ui.t("previewBatch", { credits: creditsText(ui, p.batch.credits), time: seconds(ui, p.batch.seconds) }),
              ),
              h(
                "li",
                { class: s.mode === "free" ? "is-chosen" : "" },
                ui.t("previewFree", { credits: creditsText(ui, p.free.credits), time: seconds(ui, p.free.seconds) }),
              ),
            ),
            h("p", { class: "cd-note", id: "enrich-preview-ceiling" }, ui.t("previewCeiling")),
            p.estimate.breakdown.length
              ? h(
                  "ul",
                  { class: "cd-breakdown" },
                  p.estimate.breakdown.map((b) => h("li", null, `${ui.pick(b.label)}: ${creditsText(ui, b.credits)}`)),
                )
              : null,
          )
        : null;
      const running = !!s.running;
      const prog = s.progress;
      parts.push(
        h(
          "section",
          { class: "cd-step", attrs: { "aria-labelledby": "enrich-h-run" } },
          h("h2", { id: "enrich-h-run" }, ui.t("enrichStepRun")),
          h(
            "div",
            { class: "cd-actions" },
            button(
              "enrich-preview-btn",
              ui.t("preview"),
              (b) =>
                void ui.run(s, b, async () => {
                  s.preview = await ui.call("enrichPreview", config(s));
                }),
              { disabled: running },
            ),
            button(
              "enrich-start",
              p ? ui.t("startAtMost", { credits: creditsText(ui, p.estimate.credits) }) : ui.t("start"),
              (b) =>
                void ui.run(s, b, async () => {
                  if (!s.preview) {
                    // Nothing is spent before the price is on screen: the first press shows it and the button carries it, the second spends.
                    const shown = await ui.call("enrichPreview", config(s));
                    s.preview = shown;
                    const credits = (lang: "de" | "en") =>
                      shown.estimate.credits === 1
                        ? STRINGS.oneCredit[lang]
                        : format(STRINGS.nCredits[lang], { n: formatNumber(shown.estimate.credits, lang) });
                    s.message = {
                      kind: "info",
                      text: {
                        de: format(STRINGS.startPriceFirst.de, { credits: credits("de") }),
                        en: format(STRINGS.startPriceFirst.en, { credits: credits("en") }),
                      },
                    };
                    return;
                  }
                  s.picks = {};
                  s.progress = await ui.call("enrichStart", config(s));
                  void drive(ui, s);
                }),
              { primary: true, disabled: running },
            ),
            pauseOrResume(ui, s),
          ),
          previewBox,
          prog ? progressView(ui, prog) : null,
          confirmBox(ui, s),
        ),
      );

      // 6. Review of ambiguous rows
      parts.push(reviewSection(ui, s));
    } else if (s.progress) {
      // A continued run from an earlier sidebar: its progress and review without reading the table again.
      parts.push(runSection(ui, s), reviewSection(ui, s));
    }
    // Keep the enriched table current on a schedule (its own section, shared/ui/panels/enrich-refresh.ts).
    parts.push(refreshSection(ui, s, s.selection && s.mapping ? refreshTableOf(config(s)) : null));
    return h("div", { class: "cd-enrich" }, parts);
  },
});

/** 1 → A, 27 → AA: how the sheet names the column. */
export function columnLetter(n: number): string {
  let out = "";
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) out = String.fromCharCode(65 + ((x - 1) % 26)) + out;
  return out;
}

const NO_DATA_ROWS = {
  de: "Die Auswahl enthält nur die Kopfzeile, keine Datenzeilen. Bitte die Tabelle mit ihren Zeilen markieren und erneut einlesen.",
  en: "The selection holds only the header row, no data rows. Please select the table with its rows and read it again.",
};

function reviewSection(ui: Ui, s: EnrichState): HTMLElement | null {
  const prog = s.progress;
  const running = !!s.running;
  if (!prog || !prog.reviewRows.length) return null;
  return h(
    "section",
    { class: "cd-step", attrs: { "aria-labelledby": "enrich-h-review" } },
    h("h2", { id: "enrich-h-review" }, ui.t("reviewTitle", { n: prog.reviewRows.length })),
    h("p", { class: "cd-note" }, ui.t("reviewIntro")),
    prog.reviewRows.map((r) =>
      h(
        "fieldset",
        { class: "cd-fieldset cd-review", id: `review-row-${r.row}` },
        h("legend", null, ui.t("reviewRow", { row: r.row }), " ", h("q", null, r.input)),
        h("p", { class: "cd-note", id: `review-reason-${r.row}` }, ui.t("reviewWhy"), " ", ui.pick(r.reason)),
        r.candidates.map((c, i) => {
          const st = c.statusCode || c.status || c.active !== null ? statusOf(ui, c) : null;
          // Not active (deleted, in liquidation, …): said in words and marked, like the search list does.
          const inactive = st?.active === false;
          return h(
            "label",
            { class: "cd-choice cd-review-choice" + (inactive ? " is-inactive" : ""), attrs: { "data-id": c.id } },
            h("input", {
              type: "radio",
              name: `review-${r.row}`,
              id: `review-${r.row}-${i}`,
              value: c.id,
              checked: s.picks![r.row] === c.id,
              on: { change: () => (s.picks![r.row] = c.id) },
            }),
            // Name and the facts that tell the candidates apart, each line under the radio's label.
            h(
              "span",
              null,
              h("span", { class: "cd-name" }, c.name || c.id),
              inactive && st ? h("span", { class: "cd-warn" }, " · " + st.text) : null,
              h(
                "span",
                { class: "cd-sub", id: `review-${r.row}-${i}-detail` },
                [
                  c.street,
                  [c.zip, c.city].filter(Boolean).join(" "),
                  c.register,
                  c.industry,
                  !inactive && st ? st.text : "",
                  c.id,
                ]
                  .filter(Boolean)
                  .join(" · "),
              ),
            ),
          );
        }),
        h(
          "div",
          { class: "cd-actions" },
          button(
            `review-apply-${r.row}`,
            prog.pickCredits > 0
              ? ui.t("applyPickFor", { credits: creditsText(ui, prog.pickCredits) })
              : `${ui.t("applyPick")} (${ui.t("free")})`,
            (b) =>
              void ui.run(s, b, async () => {
                const pick = s.picks![r.row];
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
            { disabled: running },
          ),
        ),
      ),
    ),
  );
}

function pauseOrResume(ui: Ui, s: EnrichState): HTMLElement | null {
  const prog = s.progress;
  // Waiting for the answer to the price after matching: its own buttons continue or end the run.
  if (!prog || prog.finished || prog.afterMatching) return null;
  return s.running
    ? button("enrich-pause", ui.t("pause"), () => ((s.pauseRequested = true), ui.rerender()), {
        disabled: !!s.pauseRequested,
      })
    : button(
        "enrich-resume",
        prog.stoppedForCredits ? ui.t("resumeAfterTopUp") : ui.t("resume"),
        () => void drive(ui, s),
        { primary: prog.stoppedForCredits },
      );
}

function runSection(ui: Ui, s: EnrichState): HTMLElement {
  return h(
    "section",
    { class: "cd-step", attrs: { "aria-labelledby": "enrich-h-run" } },
    h("h2", { id: "enrich-h-run" }, ui.t("unfinishedTitle")),
    h("div", { class: "cd-actions" }, pauseOrResume(ui, s)),
    s.progress ? progressView(ui, s.progress) : null,
    confirmBox(ui, s),
  );
}

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
const OVER_BUDGET = {
  de: "Angehalten: Der Rest hätte mehr gekostet als der bestätigte Preis (die Tabelle wurde seit dem Abgleich geändert). Darüber hinaus wurde nichts gekauft; ein neuer Start zeigt den Preis des Rests.",
  en: "Stopped: the rest would have cost more than the price confirmed (the table changed since the matching). Nothing beyond it was bought; a new start shows the price of the rest.",
};

/**
 * The second confirmation of a large list: the names are matched, the exact
 * price of the profiles is known, and nothing more is bought until the user
 * answers. Continue buys them within that price; Cancel ends the run with the
 * matched ids written.
 */
function confirmBox(ui: Ui, s: EnrichState): HTMLElement | null {
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
      s.progress = await ui.call("enrichConfirm", { jobId: prog.jobId, proceed });
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

function progressView(ui: Ui, p: EnrichProgressView): HTMLElement {
  const pct = p.total ? Math.round((p.processed / p.total) * 100) : 100;
  return h(
    "div",
    { class: "cd-progress", id: "enrich-progress" },
    h("label", { for: "enrich-progress-bar" }, ui.t("progress", { done: p.processed, total: p.total, pct })),
    h("progress", { id: "enrich-progress-bar", attrs: { max: p.total || 1, value: p.processed } }),
    h(
      "p",
      { class: "cd-note", id: "enrich-counts" },
      ui.t("progressCounts", {
        matched: p.matched,
        review: p.review,
        notFound: p.notFound,
        errors: p.errors,
        skipped: p.skipped,
        credits: creditsText(ui, p.creditsSpent),
      }),
      p.outOfCredits
        ? h(
            "span",
            { id: "enrich-count-credits", class: "cd-warn" },
            " · " + ui.t("progressOutOfCredits", { n: p.outOfCredits }),
          )
        : null,
    ),
    // Out of credits is said once, by the run's status message below (with what to do).
    p.lastError && !p.stoppedForCredits
      ? h("p", { class: "cd-status is-error", role: "alert" }, ui.pick(p.lastError.message))
      : null,
  );
}
