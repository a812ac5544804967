/**
 * Step 5, preview and run: the price first (the first press of Start shows it
 * and the button then carries it; only the second press spends), pause and
 * resume, the progress and the question after matching. Also the run section
 * of a run continued from an earlier sidebar, without the table read again.
 */
import type { EnrichPreviewView } from "../../../app/index.ts";
import type { Message, Ui } from "../../panel.ts";
import { formatNumber } from "../../panel.ts";
import { h } from "../../dom.ts";
import { STRINGS, format } from "../../strings.ts";
import { button, creditsText } from "../common.ts";
import { confirmBox } from "./confirm.ts";
import { drive } from "./drive.ts";
import { estimateView } from "./estimate.ts";
import { progressView } from "./progress.ts";
import { config, type EnrichState } from "./state.ts";
import { stepSection } from "./step.ts";

/** What the first press of Start says: the price shown, in both languages (the message outlives a language switch). */
function priceFirstMessage(shown: EnrichPreviewView): Message {
  const credits = (lang: "de" | "en") =>
    shown.estimate.credits === 1
      ? STRINGS.oneCredit[lang]
      : format(STRINGS.nCredits[lang], { n: formatNumber(shown.estimate.credits, lang) });
  return {
    kind: "info",
    text: {
      de: format(STRINGS.startPriceFirst.de, { credits: credits("de") }),
      en: format(STRINGS.startPriceFirst.en, { credits: credits("en") }),
    },
  };
}

/** Start: nothing is spent before the price is on screen. */
async function start(ui: Ui, s: EnrichState): Promise<void> {
  if (!s.preview) {
    const shown = await ui.call("enrichPreview", config(s));
    s.preview = shown;
    s.message = priceFirstMessage(shown);
    return;
  }
  s.picks = {};
  s.progress = await ui.call("enrichStart", { ...config(s), firstStep: true });
  void drive(ui, s);
}

/** Pause while running, resume (or continue after a top-up) when stopped; none once finished or waiting for the answer after matching. */
function pauseOrResume(ui: Ui, s: EnrichState): HTMLElement | null {
  const prog = s.progress;
  if (!prog || prog.finished || prog.afterMatching) return null;
  return s.running
    ? button("enrich-pause", ui.t("pause"), () => ((s.pauseRequested = true), ui.rerender()), {
        disabled: !!s.pauseRequested,
      })
    : button(
        "enrich-resume",
        prog.stoppedForCredits && !prog.lastError?.teamServer ? ui.t("resumeAfterTopUp") : ui.t("resume"),
        () => void drive(ui, s),
        { primary: prog.stoppedForCredits },
      );
}

/** The run of the table read in this panel: Preview, Start (with its price), pause or resume, the price, progress and question. */
export function runSection(ui: Ui, s: EnrichState): HTMLElement {
  const p = s.preview;
  const running = !!s.running;
  return stepSection(
    "enrich-h-run",
    ui.t("enrichStepRun"),
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
        (b) => void ui.run(s, b, () => start(ui, s)),
        { primary: true, disabled: running },
      ),
      pauseOrResume(ui, s),
    ),
    p ? estimateView(ui, p, s.mode) : null,
    s.progress ? progressView(ui, s.progress) : null,
    confirmBox(ui, s),
  );
}

/** A run continued from an earlier sidebar: its progress, pause or resume and question, without the table. */
export function continuedRunSection(ui: Ui, s: EnrichState): HTMLElement {
  return stepSection(
    "enrich-h-run",
    ui.t("unfinishedTitle"),
    h("div", { class: "cd-actions" }, pauseOrResume(ui, s)),
    s.progress ? progressView(ui, s.progress) : null,
    confirmBox(ui, s),
  );
}
