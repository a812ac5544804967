/** The JSON inside a form or query parameter (`queries`, `extend`): an object, or INVALID_INPUT naming the parameter. */
import { invalid } from "../shared/core/index.ts";
import { rule } from "../shared/i18n/index.ts";

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function jsonObjectParam(text: string, name: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid(name, { de: "kein gültiges JSON", en: "not valid JSON" });
  }
  if (!isObject(raw)) throw invalid(name, rule.type("object"));
  return raw;
}
