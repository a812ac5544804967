/** The Search panel's text and number inputs: each keeps what is typed, as typed, in the panel's state. */
import { h } from "../../dom.ts";

/** What an input may say besides its value (a number input's bounds, a datalist to pick from). */
export interface InputProps {
  type?: string;
  placeholder?: string;
  min?: string;
  max?: string;
  step?: string;
  /** The id of a <datalist> offering values. */
  list?: string;
  /** The accessible name, for an input without a visible label. */
  label?: string;
  maxLength?: string;
}

/** An input showing `values[key]` and writing every keystroke back: the panel reads the text when it acts. */
export function typedInput<K extends string>(
  id: string,
  values: Partial<Record<K, string>>,
  key: K,
  props: InputProps = {},
): HTMLInputElement {
  return h("input", {
    id,
    type: props.type ?? "text",
    value: values[key] ?? "",
    placeholder: props.placeholder,
    min: props.min,
    max: props.max,
    step: props.step,
    attrs: { autocomplete: "off", list: props.list, "aria-label": props.label, maxlength: props.maxLength },
    on: { input: (ev) => (values[key] = (ev.target as HTMLInputElement).value) },
  });
}
