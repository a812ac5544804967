/** The console's pieces: buttons, tables, labelled controls and the per-day chart (inline SVG, no library). */
import { field, h, type Child } from "../shared/ui/index.ts";
import type { Console } from "./app.ts";
import { num } from "./app.ts";

export { field, h };

export function button(
  c: Console,
  id: string,
  label: string,
  onClick: () => void,
  opts: { primary?: boolean; disabled?: boolean; submit?: boolean } = {},
): HTMLButtonElement {
  const b = h("button", {
    type: opts.submit ? "submit" : "button",
    id,
    class: opts.primary ? "cd-btn is-primary" : "cd-btn",
    disabled: opts.disabled || c.busy,
    on: opts.submit ? {} : { click: () => onClick() },
  });
  b.textContent = label;
  return b;
}

export type Cell = string | number | Node | null;

/** A table with a caption and column headers; numbers right-aligned with the user's separators. */
export function table(
  id: string,
  caption: string,
  headers: string[],
  rows: { cells: Cell[]; attrs?: Record<string, string> }[],
): HTMLElement {
  return h(
    "div",
    { class: "cd-table-wrap" },
    h(
      "table",
      { class: "cd-table", id },
      h("caption", null, caption),
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          headers.map((x) => h("th", { attrs: { scope: "col" } }, x)),
        ),
      ),
      h(
        "tbody",
        null,
        rows.map((r) =>
          h(
            "tr",
            { attrs: r.attrs ?? {} },
            r.cells.map((v) =>
              typeof v === "number" ? h("td", { class: "cd-num" }, num(v)) : h("td", null, v ?? "–"),
            ),
          ),
        ),
      ),
    ),
  );
}

export function select(
  id: string,
  options: { value: string; label: string }[],
  value: string,
  onChange?: (v: string) => void,
): HTMLSelectElement {
  const s = h(
    "select",
    { id, on: onChange ? { change: () => onChange(s.value) } : {} },
    options.map((o) => h("option", { value: o.value }, o.label)),
  );
  s.value = value;
  return s;
}

export function input(id: string, type: string, value = "", extra: Record<string, string> = {}): HTMLInputElement {
  return h("input", { id, type, value, attrs: extra });
}

/** A section under a heading of its own (`headingId`), which names it for assistive technology. */
export function titled(headingId: string, title: string, ...children: (Child | Child[])[]): HTMLElement {
  return h("section", { attrs: { "aria-labelledby": headingId } }, h("h3", { id: headingId }, title), ...children);
}

/** An empty state: what is missing and what to do. */
export const empty = (id: string, text: string) => h("p", { class: "cd-note cd-empty", id }, text);

/**
 * Credits per day as bars (stacked by user, one colour each), with a title
 * per bar for pointer users and the same figures in a table for everyone
 * else (the chart itself is one image to assistive technology).
 */
export function dayChart(
  id: string,
  label: string,
  month: string,
  rows: { day: string; user: string; credits: number }[],
): HTMLElement {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const users = [...new Set(rows.map((r) => r.user))].sort();
  const perDay = new Map<number, Map<string, number>>();
  for (const r of rows) {
    const d = Number(r.day.slice(8, 10));
    const by = perDay.get(d) ?? new Map<string, number>();
    by.set(r.user, (by.get(r.user) ?? 0) + r.credits);
    perDay.set(d, by);
  }
  const max = Math.max(1, ...[...perDay.values()].map((by) => [...by.values()].reduce((a, b) => a + b, 0)));
  const W = 620;
  const H = 160;
  const pad = 24;
  const bw = (W - pad) / days;
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag: string, attrs: Record<string, string | number>, text?: string) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const svg = el("svg", { viewBox: `0 0 ${W} ${H + 18}`, role: "img", "aria-label": label, class: "cc-chart" });
  svg.appendChild(el("line", { x1: pad, y1: H, x2: W, y2: H, class: "cc-axis" }));
  svg.appendChild(el("text", { x: 0, y: 10, class: "cc-tick" }, num(max)));
  svg.appendChild(el("text", { x: 0, y: H, class: "cc-tick" }, "0"));
  for (let d = 1; d <= days; d++) {
    const by = perDay.get(d);
    let top = H;
    for (const [i, u] of users.entries()) {
      const v = by?.get(u) ?? 0;
      if (!v) continue;
      const hgt = (v / max) * (H - 8);
      top -= hgt;
      const rect = el("rect", {
        x: pad + (d - 1) * bw + 1,
        y: top,
        width: Math.max(1, bw - 2),
        height: hgt,
        class: `cc-bar cc-c${i % 6}`,
        "data-day": d,
        "data-user": u,
      });
      rect.appendChild(el("title", {}, `${month}-${String(d).padStart(2, "0")} · ${u}: ${num(v)}`));
      svg.appendChild(rect);
    }
    if (d === 1 || d % 5 === 0)
      svg.appendChild(el("text", { x: pad + (d - 1) * bw, y: H + 14, class: "cc-tick" }, String(d)));
  }
  const legend = h(
    "ul",
    { class: "cc-legend", attrs: { "aria-hidden": "true" } },
    users.map((u, i) => h("li", null, h("span", { class: `cc-swatch cc-c${i % 6}` }), u)),
  );
  const wrap = h("figure", { class: "cc-figure", id });
  wrap.appendChild(svg);
  wrap.appendChild(legend);
  return wrap;
}
