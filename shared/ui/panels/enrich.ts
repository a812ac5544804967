/**
 * Enrich a list: read the selected table, confirm which columns hold name,
 * city, postcode, register or id, choose output fields by cost, see credits
 * and time before anything is spent, run in resumable steps with a progress
 * bar, and settle ambiguous rows by picking a candidate. Each step is a
 * module of its own in ./enrich/; this entry puts them in order.
 */
import { h } from "../dom.ts";
import { definePanel } from "../panel.ts";
import { columnsSection } from "./enrich/columns.ts";
import { fieldsSection, loadFields } from "./enrich/fields.ts";
import { howSection } from "./enrich/how.ts";
import { refreshTableOf } from "../../app/index.ts";
import { refreshSection } from "./enrich/refresh/index.ts";
import { runsSection } from "./runs/index.ts";
import { reviewSection } from "./enrich/review.ts";
import { continuedRunSection, runSection } from "./enrich/run.ts";
import { config, type EnrichState } from "./enrich/state.ts";
import { tableSection } from "./enrich/table.ts";
import { loadUnfinished, unfinishedSection } from "./enrich/unfinished.ts";

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
    const parts: (HTMLElement | null)[] = [unfinishedSection(ui, s), tableSection(ui, s)];
    if (s.selection && s.mapping) {
      parts.push(
        columnsSection(ui, s, s.selection, s.mapping),
        fieldsSection(ui, s),
        howSection(ui, s),
        runSection(ui, s),
        reviewSection(ui, s),
      );
    } else if (s.progress) {
      // A continued run from an earlier sidebar: its progress and review without reading the table again.
      parts.push(continuedRunSection(ui, s), reviewSection(ui, s));
    }
    // Keep the enriched table current on a schedule (its own section, ./enrich/refresh/).
    parts.push(refreshSection(ui, s, s.selection && s.mapping ? refreshTableOf(config(s)) : null));
    // What the runs wrote, and "Undo this run" (./runs/).
    parts.push(runsSection(ui, s));
    return h("div", { class: "cd-enrich" }, parts);
  },
});
