/**
 * Running an enrichment: step the job until it is finished, paused, stopped
 * for credits or waiting for the price after matching, and say how it ended.
 */
import type { EnrichProgressView } from "../../../app/index.ts";
import type { Message, Ui } from "../../panel.ts";
import type { EnrichState } from "./state.ts";

const OVER_BUDGET = {
  de: "Angehalten: Der Rest hätte mehr gekostet als der bestätigte Preis (die Tabelle wurde seit dem Abgleich geändert). Darüber hinaus wurde nichts gekauft; ein neuer Start zeigt den Preis des Rests.",
  en: "Stopped: the rest would have cost more than the price confirmed (the table changed since the matching). Nothing beyond it was bought; a new start shows the price of the rest.",
};

/**
 * The status message a run leaves when its steps stop: `{ message: undefined }`
 * clears it, null leaves the message as it is (the run ended for no reason to say).
 */
function endMessage(
  progress: EnrichProgressView | undefined,
  pauseRequested: boolean,
): { message: Message | undefined } | null {
  if (progress?.overBudget) return { message: { kind: "error", text: OVER_BUDGET } };
  if (progress?.afterMatching) return { message: undefined }; // the question is on screen, with its buttons
  if (progress?.stoppedForCredits && progress.lastError?.teamServer) {
    // A team server's budget: its admin's to raise; the user has nothing to top up.
    const n = progress.outOfCredits;
    const said = progress.lastError.message;
    const text = {
      de: `Lauf angehalten: ${said.de} ${n === 1 ? "1 Zeile ist" : `${n} Zeilen sind`} nicht angereichert; „Fortsetzen“ erledigt sie, sobald das Budget reicht, ohne Bezahltes noch einmal zu bezahlen.`,
      en: `Run stopped: ${said.en} ${n === 1 ? "1 row is" : `${n} rows are`} not enriched; "Resume" finishes them once the budget allows, paying nothing twice.`,
    };
    return { message: { kind: "error", text } };
  }
  if (progress?.stoppedForCredits) {
    const n = progress.outOfCredits;
    const message: Message = {
      kind: "error",
      text: {
        de: `Lauf angehalten: Die Credits sind aufgebraucht, ${n === 1 ? "1 Zeile ist" : `${n} Zeilen sind`} nicht angereichert. Nach dem Aufladen mit „Nach dem Aufladen fortsetzen“ weitermachen; Bezahltes wird nicht noch einmal bezahlt.`,
        en: `Run stopped: out of credits, ${n === 1 ? "1 row is" : `${n} rows are`} not enriched. After topping up, continue with "Continue after top-up"; nothing paid is paid again.`,
      },
    };
    return { message };
  }
  if (progress?.finished) {
    return { message: { kind: "success", text: { de: "Anreicherung abgeschlossen.", en: "Enrichment finished." } } };
  }
  if (pauseRequested) {
    const text = {
      de: "Angehalten. Fortsetzen setzt an der letzten Zeile fort.",
      en: "Paused. Resume continues from the last row.",
    };
    return { message: { kind: "info", text } };
  }
  return null;
}

/** Step until finished, paused or failed; each step is one host call bounded by the host's deadline. */
export async function drive(ui: Ui, s: EnrichState): Promise<void> {
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
    const end = endMessage(s.progress, !!s.pauseRequested);
    if (end) s.message = end.message;
  } catch (e) {
    s.message = ui.errorMessage(e);
  } finally {
    s.running = false;
    ui.rerender();
    void ui.refreshAccount();
  }
}
