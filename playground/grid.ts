/**
 * A small spreadsheet grid over the Workbook: a table with row and column
 * headers, a cursor and a selection rectangle (click, shift-click, drag,
 * arrows, shift+arrows), editing in place (Enter/F2 or typing; Escape
 * cancels), dropdown cells for match review, and sheet tabs. Every value is
 * rendered with textContent.
 */
import { h, replace } from "../shared/ui/index.ts";
import type { Cell } from "../shared/core/index.ts";
import { columnName } from "./export.ts";
import { normaliseRange as normalise, type Workbook } from "../shared/sheet/index.ts";

export interface GridOptions {
  label: string;
}

/** One mounted grid: its workbook, its elements and what the user is doing in it. */
interface Grid {
  wb: Workbook;
  table: HTMLTableElement;
  nameBox: HTMLElement;
  tabs: HTMLElement;
  /** The cell being edited, if any. */
  editing: { r: number; c: number } | null;
  /** A selection being dragged with the mouse. */
  dragging: boolean;
  /** The key typed to start editing: the editor's first text. */
  pendingText: string | null;
  render: () => void;
}

export function mountGrid(root: HTMLElement, wb: Workbook, opts: GridOptions) {
  const tabs = h("div", { class: "pg-sheets", role: "tablist", attrs: { "aria-label": "Sheets" } });
  const table = h("table", {
    class: "pg-grid",
    id: "pg-grid",
    role: "grid",
    attrs: { tabindex: "0", "aria-label": opts.label, "aria-multiselectable": "true" },
  });
  const scroller = h("div", { class: "pg-scroll" }, table);
  const nameBox = h("div", { class: "pg-namebox", id: "pg-namebox", attrs: { "aria-live": "polite" } });
  root.append(nameBox, scroller, tabs);
  const g: Grid = {
    wb,
    table,
    nameBox,
    tabs,
    editing: null,
    dragging: false,
    pendingText: null,
    render: () => render(g),
  };
  table.addEventListener("keydown", (ev) => onKey(g, ev));
  listenForPointer(g);
  wb.onChange(g.render);
  g.render();
  return { render: g.render };
}

const cellId = (r: number, c: number) => `pg-c-${r}-${c}`;
const display = (v: Cell) =>
  v === null || v === undefined ? "" : typeof v === "boolean" ? (v ? "TRUE" : "FALSE") : String(v);

/** The rows and columns shown: the sheet's used range and the selection, with room to spare. */
function dims(wb: Workbook) {
  const { rows, cols } = wb.size();
  const sel = normalise(wb.selection);
  return { rows: Math.max(rows + 8, sel.r2 + 3, 30), cols: Math.max(cols + 2, sel.c2 + 2, 8) };
}

function render(g: Grid) {
  const { wb, table } = g;
  const { rows, cols } = dims(wb);
  const sel = normalise(wb.selection);
  const cur = { r: wb.selection.r1, c: wb.selection.c1 };
  const head = h(
    "tr",
    null,
    h("th", { class: "pg-corner", attrs: { role: "presentation" } }),
    Array.from({ length: cols }, (_, j) => h("th", { attrs: { scope: "col" } }, columnName(j + 1))),
  );
  const body = Array.from({ length: rows }, (_, i) => {
    const r = i + 1;
    return h(
      "tr",
      null,
      h("th", { attrs: { scope: "row" } }, String(r)),
      Array.from({ length: cols }, (_, j) => cellElement(g, r, j + 1, sel, cur)),
    );
  });
  replace(table, h("thead", null, head), h("tbody", null, body));
  table.setAttribute("aria-activedescendant", cellId(cur.r, cur.c));
  g.nameBox.textContent = `${wb.active}!${columnName(sel.c1)}${sel.r1}${sel.r1 !== sel.r2 || sel.c1 !== sel.c2 ? `:${columnName(sel.c2)}${sel.r2}` : ""}`;
  renderTabs(g);
  document.getElementById(cellId(cur.r, cur.c))?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

/** One cell: its value as text (or its editor), its colour, whether it is selected or the cursor. */
function cellElement(
  g: Grid,
  r: number,
  c: number,
  sel: ReturnType<typeof normalise>,
  cur: { r: number; c: number },
): HTMLElement {
  const { wb, editing } = g;
  const v = wb.get(wb.active, r, c);
  const inSel = r >= sel.r1 && r <= sel.r2 && c >= sel.c1 && c <= sel.c2;
  const isCur = r === cur.r && c === cur.c;
  const td = h("td", {
    id: cellId(r, c),
    role: "gridcell",
    class: ["pg-cell", inSel ? "is-sel" : "", isCur ? "is-cur" : "", typeof v === "number" ? "is-num" : ""]
      .join(" ")
      .trim(),
    attrs: { "aria-selected": String(inSel), "data-r": r, "data-c": c },
  });
  const colour = wb.colourAt(wb.active, r, c);
  if (colour && /^#[0-9a-f]{3,8}$/i.test(colour)) td.style.background = colour;
  if (editing && editing.r === r && editing.c === c) td.append(editor(g, r, c));
  else {
    td.textContent = display(v);
    if (wb.dropdownAt(wb.active, r, c)) td.classList.add("has-dropdown");
  }
  return td;
}

/** The sheet tabs: a click shows that sheet with the cursor at A1. */
function renderTabs(g: Grid) {
  const { wb } = g;
  replace(
    g.tabs,
    [...wb.sheets.keys()].map((name) =>
      h(
        "button",
        {
          type: "button",
          role: "tab",
          class: "pg-sheet-tab" + (name === wb.active ? " is-active" : ""),
          attrs: { "aria-selected": String(name === wb.active), "data-sheet": name },
          on: {
            click: () => (
              (wb.active = name),
              (wb.selection = { r1: 1, c1: 1, r2: 1, c2: 1 }),
              (g.editing = null),
              g.render()
            ),
          },
        },
        name,
      ),
    ),
  );
}

function editor(g: Grid, r: number, c: number): HTMLElement {
  const options = g.wb.dropdownAt(g.wb.active, r, c);
  const current = display(g.wb.get(g.wb.active, r, c));
  return options ? dropdownEditor(g, r, c, current, options) : textEditor(g, r, c, current);
}

/** A dropdown cell's editor: its current value first, then its options. */
function dropdownEditor(g: Grid, r: number, c: number, current: string, options: readonly string[]): HTMLElement {
  const sel = h(
    "select",
    {
      class: "pg-editor",
      attrs: { "aria-label": `${columnName(c)}${r}` },
      on: {
        keydown: (ev) => {
          ev.stopPropagation(); // the grid's own keys must not act on the editor's
          if (ev.key === "Enter") {
            ev.preventDefault();
            commit(g, r, c, sel.value, 1);
          } else if (ev.key === "Escape") {
            ev.preventDefault();
            cancel(g);
          }
        },
        change: () => commit(g, r, c, sel.value, 0),
      },
    },
    h("option", { value: current }, current),
    options.map((o) => h("option", { value: o }, o)),
  );
  queueMicrotask(() => sel.focus());
  return sel;
}

function textEditor(g: Grid, r: number, c: number, current: string): HTMLElement {
  const input = h("input", {
    type: "text",
    class: "pg-editor",
    value: g.pendingText ?? current,
    attrs: { "aria-label": `${columnName(c)}${r}` },
    on: {
      keydown: (ev) => {
        ev.stopPropagation();
        if (ev.key === "Enter") {
          ev.preventDefault();
          commit(g, r, c, input.value, 1);
        } else if (ev.key === "Escape") {
          ev.preventDefault();
          cancel(g);
        } else if (ev.key === "Tab") {
          ev.preventDefault();
          commit(g, r, c, input.value, 0, ev.shiftKey ? -1 : 1);
        }
      },
      blur: () => g.editing && commit(g, r, c, input.value, 0, 0, false),
    },
  });
  g.pendingText = null;
  queueMicrotask(() => {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  });
  return input;
}

/** Typed text stays text; a number typed as such becomes a number, as in a spreadsheet. */
function parse(text: string): Cell {
  const t = text.trim();
  return t !== "" && /^-?\d+([.,]\d+)?$/.test(t) && !/^0\d/.test(t) ? Number(t.replace(",", ".")) : text;
}

function commit(g: Grid, r: number, c: number, text: string, dr: number, dc = 0, refocus = true) {
  g.editing = null;
  g.wb.set(g.wb.active, r, c, parse(text));
  move(g, dr, dc, false);
  g.wb.changed();
  if (refocus) g.table.focus();
}

function cancel(g: Grid) {
  g.editing = null;
  g.render();
  g.table.focus();
}

function move(g: Grid, dr: number, dc: number, extend: boolean) {
  const s = g.wb.selection;
  if (extend) {
    g.wb.selection = { ...s, r2: Math.max(1, s.r2 + dr), c2: Math.max(1, s.c2 + dc) };
  } else {
    const r = Math.max(1, s.r1 + dr);
    const c = Math.max(1, s.c1 + dc);
    g.wb.selection = { r1: r, c1: c, r2: r, c2: c };
  }
  g.render();
}

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** The grid's keys while no cell is edited: move, extend, edit, clear, or start typing into the cursor's cell. */
function onKey(g: Grid, ev: KeyboardEvent) {
  const { wb } = g;
  if (g.editing) return;
  const arrow = ARROWS[ev.key];
  if (arrow) {
    ev.preventDefault();
    move(g, arrow[0], arrow[1], ev.shiftKey);
  } else if (ev.key === "Enter" || ev.key === "F2") {
    ev.preventDefault();
    g.editing = { r: wb.selection.r1, c: wb.selection.c1 };
    g.render();
  } else if (ev.key === "Delete" || ev.key === "Backspace") {
    ev.preventDefault();
    const s = normalise(wb.selection);
    for (let r = s.r1; r <= s.r2; r++) for (let c = s.c1; c <= s.c2; c++) wb.set(wb.active, r, c, "");
    wb.changed();
  } else if (ev.key.length === 1 && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
    ev.preventDefault();
    g.pendingText = ev.key;
    g.editing = { r: wb.selection.r1, c: wb.selection.c1 };
    g.render();
  }
}

const cellOf = (target: EventTarget | null) => {
  const td = (target as HTMLElement | null)?.closest?.("td.pg-cell") as HTMLElement | null;
  return td ? { r: Number(td.dataset.r), c: Number(td.dataset.c) } : null;
};

/** Click, shift-click and drag select; a double click edits. */
function listenForPointer(g: Grid) {
  const { wb, table } = g;
  table.addEventListener("mousedown", (ev) => {
    const at = cellOf(ev.target);
    if (!at || (g.editing && g.editing.r === at.r && g.editing.c === at.c)) return;
    ev.preventDefault();
    g.editing = null;
    wb.selection = ev.shiftKey ? { ...wb.selection, r2: at.r, c2: at.c } : { r1: at.r, c1: at.c, r2: at.r, c2: at.c };
    g.dragging = true;
    g.render();
    table.focus();
  });
  table.addEventListener("mouseover", (ev) => {
    if (!g.dragging) return;
    const at = cellOf(ev.target);
    if (at && (at.r !== wb.selection.r2 || at.c !== wb.selection.c2)) {
      wb.selection = { ...wb.selection, r2: at.r, c2: at.c };
      g.render();
    }
  });
  window.addEventListener("mouseup", () => (g.dragging = false));
  table.addEventListener("dblclick", (ev) => {
    const at = cellOf(ev.target);
    if (!at) return;
    g.editing = at;
    g.render();
  });
}
