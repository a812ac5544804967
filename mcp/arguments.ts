/**
 * A tool's arguments checked against its input schema — the same zod schema
 * tools/list shows as JSON Schema — before the tool runs. A mismatch is
 * INVALID_INPUT naming the field and the rule in German and English (the
 * core's rules, derived from the schema: "an integer from 1 to 100",
 * "allowed: people, announcements, financials"), which the server answers
 * as a tool error like every other, instead of the SDK's English -32602
 * text.
 */
import type * as z from "zod";
import { invalid } from "../shared/core/index.ts";
import {
  formatPath,
  got,
  ruleOfIssue,
  rule,
  schemaAt,
  valueAt,
  type IssueLike,
  type Rule,
} from "../shared/i18n/index.ts";

const NOT_VALID: Rule = { de: "ungültiger Wert", en: "not a valid value" };
/** A union of several shapes (portfolio entries) tells no single rule: name the shapes. */
const ONE_OF_SHAPES: Rule = {
  de: "erwartet eine der beschriebenen Formen",
  en: "expected one of the described shapes",
};

/**
 * The parsed arguments (defaults filled in), or INVALID_INPUT for the first
 * issue. `prefix` names where the arguments sit ("arguments." for those
 * estimate_credits prices).
 */
export function parseArguments(schema: z.ZodObject, raw: unknown, prefix = ""): Record<string, unknown> {
  const r = schema.safeParse(raw ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0] as (IssueLike & { keys?: readonly string[] }) | undefined;
  if (!issue) throw invalid(prefix.replace(/\.$/, "") || "arguments", NOT_VALID);
  const path = formatPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys?.[0] ?? "?";
    const at = schemaAt(schema, issue.path)?._zod.def;
    throw invalid(
      `${prefix}${path ? `${path}.` : ""}${key}`,
      rule.unknownKey(at?.type === "object" && at.shape ? Object.keys(at.shape) : []),
    );
  }
  // The core's rules read zod's internals, which zod and zod/mini share.
  const why = issue.code === "invalid_union" ? ONE_OF_SHAPES : (ruleOfIssue(issue, schema, raw) ?? NOT_VALID);
  const value = valueAt(raw, issue.path);
  const field = `${prefix}${path}` || prefix.replace(/\.$/, "") || "arguments";
  throw invalid(field, value === undefined ? why : got(why, value));
}
