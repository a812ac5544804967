/** One search from the form: checked before anything is sent; the old results go whatever comes of it. */
import { UiCallError } from "../../host.ts";
import type { Ui } from "../../panel.ts";
import { spentMessage } from "../common.ts";
import { checkNumbers, criteriaOf } from "./checks.ts";
import { loadAllPrice } from "./insert-all.ts";
import { clearResults, type SearchState } from "./state.ts";

export async function searchNow(ui: Ui, s: SearchState): Promise<void> {
  clearResults(s);
  const searched = criteriaOf(s);
  const place = searched.place ?? "";
  if (!searched.query && !place && !searched.filters) {
    s.message = {
      kind: "error",
      text: {
        de: "Bitte einen Suchbegriff, einen Ort oder einen Filter eingeben.",
        en: "Please enter a search term, a place or a filter.",
      },
    };
    return;
  }
  const wrong = checkNumbers(s.size, place ? s.radiusKm : undefined);
  if (wrong) {
    s.message = { kind: "error", text: wrong };
    return;
  }
  try {
    s.result = await ui.call("search", { ...searched, size: s.size?.trim() ? Number(s.size) : undefined });
    s.searched = searched;
  } catch (e) {
    // The service knows no such place: say which, not only "not found".
    if (e instanceof UiCallError && e.error.code === "NOT_FOUND" && e.error.field === "near.place") {
      s.message = {
        kind: "error",
        text: { de: `Ort „${place}“ nicht gefunden.`, en: `Place "${place}" not found.` },
      };
      return;
    }
    throw e;
  }
  s.selected = new Set();
  s.message = spentMessage(s.result.companies.length, s.result.credits);
  void ui.refreshAccount();
  if ((s.result.total ?? 0) > s.result.companies.length) loadAllPrice(ui, s);
}
