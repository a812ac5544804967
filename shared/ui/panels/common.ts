/** Pieces several panels share: buttons, "Insert", the cost line, the spent message and the company table. */
import type { CompanyRow, CostView } from "../../app/index.ts";
import type { Message, PanelState, Ui } from "../panel.ts";
import { formatNumber } from "../panel.ts";
import { h } from "../dom.ts";

/** A button; `submit` makes it its form's submit button (Enter in a field presses it), and the form's submit handler acts. */
export function button(
  id: string,
  label: string,
  onClick: (btn: HTMLButtonElement) => void,
  opts: { primary?: boolean; disabled?: boolean; submit?: boolean } = {},
): HTMLButtonElement {
  const b: HTMLButtonElement = h("button", {
    type: opts.submit ? "submit" : "button",
    id,
    class: opts.primary ? "cd-btn is-primary" : "cd-btn",
    disabled: opts.disabled,
    on: opts.submit ? {} : { click: () => onClick(b) },
  });
  b.textContent = label;
  return b;
}

/** What "Insert" found at the cursor: the user's cells it would cover, and what was chosen. */
interface InsertAsk {
  cells: number;
  companies: CompanyRow[];
}

/**
 * "Insert": the selected companies (all when none is selected) at the cursor,
 * with a header row. Never over the user's cells without asking: when the
 * cursor's block is not empty, the answer names how many cells would be
 * overwritten and offers "overwrite" or "insert below the data" instead.
 */
/** A panel with Insert buttons: what each (by id) asks before overwriting cells. */
export interface InsertingState extends PanelState {
  insertAsks?: Record<string, InsertAsk | undefined>;
}

export function insertButton(
  ui: Ui,
  s: InsertingState,
  id: string,
  companies: CompanyRow[],
  selected: Set<string>,
): HTMLElement | null {
  // Nothing found, nothing to insert: no button at all rather than a disabled "0 … einfügen".
  if (companies.length === 0) return null;
  const ask = s.insertAsks?.[id];
  const setAsk = (a: InsertAsk | undefined) => {
    s.insertAsks = { ...s.insertAsks, [id]: a };
  };
  const insert = async (chosen: CompanyRow[], more: { place?: "cursor" | "below"; overwrite?: number }) => {
    const out = await ui.call("insertSearchResults", { companies: chosen, header: true, ...more });
    if (out.wouldOverwrite) {
      setAsk({ cells: out.wouldOverwrite, companies: chosen });
      s.message = {
        kind: "info",
        text: {
          de: `An der Cursorposition stehen ${out.wouldOverwrite} nicht leere Zellen; nichts wurde geschrieben.`,
          en: `${out.wouldOverwrite} non-empty cells are at the cursor; nothing was written.`,
        },
      };
      return;
    }
    setAsk(undefined);
    s.message = {
      kind: "success",
      text: {
        de: `${out.rows} ${out.rows === 1 ? "Zeile" : "Zeilen"} in ${out.sheet} eingefügt.`,
        en: `${out.rows} ${out.rows === 1 ? "row" : "rows"} inserted into ${out.sheet}.`,
      },
    };
  };
  // Writing rows already fetched costs nothing: the button says so, as every paid button says its price.
  const main = button(
    id,
    `${ui.t("insertSelected", { n: selected.size || companies.length })} (${ui.t("free")})`,
    (b) =>
      void ui.run(s, b, () =>
        insert(
          companies.filter((c) => selected.size === 0 || selected.has(c.id)),
          {},
        ),
      ),
  );
  if (!ask) return h("span", { class: "cd-insert" }, main);
  const question = h(
    "p",
    { class: "cd-insert-ask", id: `${id}-question` },
    ui.pick({
      de: `${ask.cells} Zellen mit Inhalt würden überschrieben. Überschreiben oder unter den Daten einfügen?`,
      en: `${ask.cells} cells with content would be overwritten. Overwrite them, or insert below the data?`,
    }),
  );
  return h(
    "span",
    { class: "cd-insert" },
    main,
    question,
    button(
      `${id}-overwrite`,
      ui.pick({ de: `${ask.cells} Zellen überschreiben`, en: `Overwrite ${ask.cells} cells` }),
      (b) => void ui.run(s, b, () => insert(ask.companies, { overwrite: ask.cells })),
    ),
    button(
      `${id}-below`,
      ui.pick({ de: "Unter den Daten einfügen", en: "Insert below the data" }),
      (b) => void ui.run(s, b, () => insert(ask.companies, { place: "below" })),
      { primary: true },
    ),
    button(`${id}-cancel`, ui.pick({ de: "Abbrechen", en: "Cancel" }), () => {
      setAsk(undefined);
      s.message = undefined;
      ui.rerender();
    }),
  );
}

/** What a search spent, for the panel's message: stored in both languages, so a language switch re-renders it too. */
export function spentMessage(n: number, credits: number): Message {
  const de = `${n} Treffer · ${credits === 1 ? "1 Credit" : `${credits} Credits`} verbraucht`;
  const en = `${n} results · ${credits === 1 ? "1 credit" : `${credits} credits`} spent`;
  return { kind: "info", text: { de, en } };
}

export function creditsText(ui: Ui, credits: number): string {
  return credits === 1 ? ui.t("oneCredit") : ui.t("nCredits", { n: formatNumber(credits, ui.lang) });
}

export function costLine(
  ui: Ui,
  id: string,
  cost: CostView | null,
  prefix: "costBefore" | "costSpent" = "costBefore",
): HTMLElement {
  const text = cost === null ? ui.t("costUnknown") : ui.t(prefix, { credits: creditsText(ui, cost.credits) });
  return h("p", { class: "cd-cost", id }, text);
}

const STATUS_KEYS = ["ACTIVE", "IN_LIQUIDATION", "INSOLVENT", "DELETED", "INACTIVE"] as const;

/**
 * A company's status in the UI's language, and whether it is active. The code
 * decides (the label came in the language of the request); the `active` flag
 * alone is the fallback when the service sent no status.
 */
export function statusOf(
  ui: Ui,
  r: Pick<CompanyRow, "status" | "statusCode" | "active">,
): { text: string; active: boolean | null } {
  const code = (r.statusCode ?? "").toUpperCase();
  const known = (STATUS_KEYS as readonly string[]).includes(code) ? (code as (typeof STATUS_KEYS)[number]) : null;
  const active = known ? known === "ACTIVE" : r.active;
  if (known) return { text: ui.t(`status_${known}`), active };
  if (r.status) return { text: r.status, active };
  if (r.active === true) return { text: ui.t("status_ACTIVE"), active };
  if (r.active === false) return { text: ui.t("status_INACTIVE"), active };
  return { text: ui.t("statusUnknown"), active: null };
}

/**
 * Companies as a table with a checkbox per row. Every value is text
 * (textContent), so a name like `<img onerror=…>` or `=HYPERLINK(…)` is shown
 * as typed.
 */
export function companyTable(
  ui: Ui,
  idPrefix: string,
  rows: CompanyRow[],
  selected: Set<string>,
  onToggle: () => void,
  opts: { distance?: boolean; score?: boolean; status?: boolean } = {},
): HTMLElement {
  if (rows.length === 0) return h("p", { class: "cd-empty" }, ui.t("noResults"));
  const cols: TableColumns = { status: opts.status !== false, distance: !!opts.distance, score: !!opts.score };
  const all: HTMLInputElement = h("input", {
    type: "checkbox",
    id: `${idPrefix}-all`,
    checked: rows.every((r) => selected.has(r.id)),
    attrs: { "aria-label": ui.t("selectAll") },
    on: {
      change: () => {
        for (const r of rows) all.checked ? selected.add(r.id) : selected.delete(r.id);
        onToggle();
      },
    },
  });
  const head = (label: string, cls?: string) => h("th", { class: cls, attrs: { scope: "col" } }, label);
  return h(
    "div",
    { class: "cd-table-wrap" },
    h(
      "table",
      { class: "cd-table", id: `${idPrefix}-table` },
      h("caption", { class: "cd-sr" }, ui.t("resultsCaption", { n: rows.length })),
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", { attrs: { scope: "col" } }, all),
          head(ui.t("colName")),
          head(ui.t("colCity")),
          cols.status ? head(ui.t("colStatus")) : null,
          cols.distance ? head(ui.t("colDistance"), "cd-col-distance") : null,
          cols.score ? head(ui.t("colScore"), "cd-col-score") : null,
        ),
      ),
      h(
        "tbody",
        null,
        rows.map((r, i) => companyRow(ui, r, `${idPrefix}-row-${i}`, selected, onToggle, cols)),
      ),
    ),
  );
}

/** The optional columns of the company table. */
interface TableColumns {
  status: boolean;
  distance: boolean;
  score: boolean;
}

/** One company's row: its checkbox (id `checkId`), name and register, place, and the optional columns. */
function companyRow(
  ui: Ui,
  r: CompanyRow,
  checkId: string,
  selected: Set<string>,
  onToggle: () => void,
  cols: TableColumns,
): HTMLElement {
  const st = statusOf(ui, r);
  // Not active (in liquidation, insolvent, deleted, inactive): marked by colour and weight, and said in words.
  const inactive = st.active === false;
  const distance = r.distanceKm === null ? "" : `${formatNumber(r.distanceKm, ui.lang)} km`;
  const check = h("input", {
    type: "checkbox",
    id: checkId,
    checked: selected.has(r.id),
    attrs: { "aria-label": ui.t("selectRow", { name: r.name || r.id }) },
    on: {
      change: (ev) => (
        (ev.target as HTMLInputElement).checked ? selected.add(r.id) : selected.delete(r.id),
        onToggle()
      ),
    },
  });
  return h(
    "tr",
    { class: inactive ? "is-inactive" : undefined, attrs: { "data-id": r.id } },
    h("td", null, check),
    h(
      "td",
      { class: "cd-name" },
      h("span", null, r.name || r.id),
      h("span", { class: "cd-sub" }, [r.register, r.id].filter(Boolean).join(" · ")),
    ),
    h(
      "td",
      { class: "cd-city" },
      [r.zip, r.city].filter(Boolean).join(" "),
      // Shown instead of the distance column where the panel is too narrow for it (styles.css).
      cols.distance && distance ? h("span", { class: "cd-sub cd-distance-inline" }, distance) : null,
    ),
    cols.status ? h("td", { class: "cd-status-cell" + (inactive ? " is-inactive" : "") }, st.text) : null,
    cols.distance ? h("td", { class: "cd-num cd-col-distance" }, distance) : null,
    cols.score
      ? h(
          "td",
          { class: "cd-num cd-col-score" },
          r.score === null ? "" : formatNumber(Math.round(r.score * 100), ui.lang) + " %",
        )
      : null,
  );
}
