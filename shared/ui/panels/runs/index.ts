/**
 * The Runs section (in the Enrich panel, so every host that shows the panel
 * has it: Sheets, Excel, the playground): the document's audited runs
 * (when, what, who, rows and cells changed, credits) with "Undo this run",
 * and what the last undo kept and could not find. Calls auditRuns and undoRun
 * (shared/app/runs.ts). Values from the sheet go in as text (textContent).
 */
import type { RunsView, RunView, UndoResult } from "../../../undo/index.ts";
import type { PanelState, Ui } from "../../panel.ts";
import { formatNumber } from "../../panel.ts";
import { h } from "../../dom.ts";
import { button } from "../common.ts";
import { T } from "./texts.ts";

/** A text of T that is a function of its values, in the UI's language. */
const say = <A extends unknown[]>(ui: Ui, t: { de: (...a: A) => string; en: (...a: A) => string }, ...a: A) =>
  ui.lang === "de" ? t.de(...a) : t.en(...a);

export interface RunsSectionState {
  /** undefined: not asked yet; null: asking (or it failed). */
  view?: RunsView | null;
  last?: UndoResult;
}

function load(ui: Ui, r: RunsSectionState): void {
  if (r.view !== undefined) return;
  r.view = null;
  ui.call("auditRuns", {}).then(
    (v) => {
      r.view = v;
      ui.rerender();
    },
    () => undefined,
  );
}

const when = (iso: string, ui: Ui) =>
  new Date(iso).toLocaleString(ui.lang === "de" ? "de-DE" : "en-GB", { dateStyle: "short", timeStyle: "short" });

function runItem(ui: Ui, s: PanelState, r: RunsSectionState, run: RunView, i: number): HTMLElement {
  const n = (x: number) => formatNumber(x, ui.lang);
  const kind = ui.pick(T.kinds[run.kind] ?? { de: run.kind, en: run.kind });
  const who = run.who === "schedule" ? ui.pick(T.schedule) : run.who;
  const marks = [
    run.undoneBy ? ui.pick(T.undone) : "",
    run.state === "running" ? ui.pick(T.unfinished) : "",
    run.partial ? ui.pick(T.partial) : "",
  ].filter(Boolean);
  const undo = button(
    `runs-undo-${i}`,
    ui.pick(T.undo),
    (b) =>
      void ui.run(s, b, async () => {
        const out = await ui.call("undoRun", { run: run.id });
        r.last = out;
        s.message = out.already
          ? { kind: "info", text: T.already }
          : {
              kind: "success",
              text: { de: T.done.de(n(out.restored), n(out.rows)), en: T.done.en(n(out.restored), n(out.rows)) },
            };
        r.view = undefined; // listed again with the undo as a run of its own
      }),
    { disabled: run.undoneBy !== null || run.cells === 0 },
  );
  return h(
    "li",
    { class: "cd-run", attrs: { "data-run": run.id, "data-kind": run.kind } },
    h("strong", {}, `${kind} · ${when(run.at, ui)}${who ? ` · ${who}` : ""}`),
    h("div", { class: "cd-note" }, say(ui, T.line, n(run.rows), n(run.cells), n(run.credits))),
    marks.length ? h("div", { class: "cd-note" }, marks.join(" · ")) : null,
    undo,
  );
}

function lastUndo(ui: Ui, last: UndoResult | undefined): HTMLElement | null {
  if (!last || (last.kept.length === 0 && last.deleted.length === 0)) return null;
  return h(
    "ul",
    { id: "runs-kept" },
    ...last.kept.map((k) => h("li", {}, say(ui, T.kept, k.cell, String(k.now ?? "")))),
    ...last.deleted.map((d) => h("li", {}, say(ui, T.deleted, d))),
  );
}

/** The section; it asks for the runs the first time it is shown and after an undo. */
export function runsSection(ui: Ui, s: PanelState & { runs?: RunsSectionState }): HTMLElement {
  const r = (s.runs ??= {});
  load(ui, r);
  const v = r.view;
  const n = (x: number) => formatNumber(x, ui.lang);
  return h(
    "section",
    { class: "cd-step cd-runs", id: "enrich-runs", attrs: { "aria-labelledby": "enrich-h-runs" } },
    h("h2", { id: "enrich-h-runs" }, ui.pick(T.title)),
    h("p", { class: "cd-note" }, ui.pick(T.intro)),
    lastUndo(ui, r.last),
    v && v.runs.length === 0 ? h("p", { id: "runs-none" }, ui.pick(T.none)) : null,
    v ? h("ol", { id: "runs-list" }, ...v.runs.map((run, i) => runItem(ui, s, r, run, i))) : null,
    v
      ? h(
          "p",
          { class: "cd-note", id: "runs-size" },
          say(
            ui,
            T.size,
            n(v.size.runs),
            n(v.size.cells),
            n(Math.ceil(v.size.chars / 1024)),
            n(v.limits.runs),
            n(v.limits.cells),
          ),
        )
      : null,
    h(
      "div",
      { class: "cd-actions" },
      button("runs-reload", ui.pick(T.reload), () => {
        r.view = undefined;
        ui.rerender();
      }),
    ),
  );
}
