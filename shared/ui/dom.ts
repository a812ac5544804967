/**
 * The one way the UI makes elements. Children given as strings become text
 * nodes, so API text (a company called `<img onerror=…>`) is shown, never
 * parsed. There is deliberately no innerHTML anywhere in shared/ui/.
 */
export type Child = Node | string | number | null | undefined | false;

export interface Props {
  class?: string;
  id?: string;
  /** <label for> */
  for?: string;
  type?: string;
  name?: string;
  value?: string;
  checked?: boolean;
  disabled?: boolean;
  placeholder?: string;
  min?: string;
  max?: string;
  step?: string;
  role?: string;
  title?: string;
  hidden?: boolean;
  /** aria-*, data-*, autocomplete, … */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: { [E in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[E]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    if (props.class) el.className = props.class;
    if (props.id) el.id = props.id;
    if (props.for !== undefined) el.setAttribute("for", props.for);
    if (props.role) el.setAttribute("role", props.role);
    if (props.title) el.title = props.title;
    if (props.hidden) el.hidden = true;
    const input = el as unknown as HTMLInputElement;
    if (props.type !== undefined) input.type = props.type;
    if (props.name !== undefined) input.name = props.name;
    if (props.placeholder !== undefined) input.placeholder = props.placeholder;
    if (props.min !== undefined) el.setAttribute("min", props.min);
    if (props.max !== undefined) el.setAttribute("max", props.max);
    if (props.step !== undefined) el.setAttribute("step", props.step);
    if (props.value !== undefined) input.value = props.value;
    if (props.checked !== undefined) input.checked = props.checked;
    if (props.disabled !== undefined) input.disabled = props.disabled;
    for (const [k, v] of Object.entries(props.attrs ?? {})) {
      if (v === undefined || v === false) continue;
      el.setAttribute(k, v === true ? "" : String(v));
    }
    for (const [ev, fn] of Object.entries(props.on ?? {})) el.addEventListener(ev, fn as EventListener);
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

/** Replace an element's children. */
export function replace(el: Node, ...children: (Child | Child[])[]): void {
  while (el.firstChild) el.removeChild(el.firstChild);
  append(el, children);
}

let idCounter = 0;
/** Unique ids for label/for pairs. */
export const uid = (prefix: string) => `${prefix}-${++idCounter}`;

/** A labelled form row: <label> + control, the label bound by id. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  if (!control.id) control.id = uid("f");
  const hintEl = hint ? h("div", { class: "hint", id: control.id + "-hint" }, hint) : null;
  if (hintEl) control.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control, hintEl);
}
