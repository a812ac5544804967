/** The frame every step of the Enrich panel shares: a section labelled by its own heading. */
import { h, type Child } from "../../dom.ts";

export function stepSection(headingId: string, title: string, ...children: (Child | Child[])[]): HTMLElement {
  return h(
    "section",
    { class: "cd-step", attrs: { "aria-labelledby": headingId } },
    h("h2", { id: headingId }, title),
    ...children,
  );
}
