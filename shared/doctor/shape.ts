/**
 * Comparing an answer as it came (raw JSON) with the zod/mini schema the
 * client reads it with, field by field. The client's schemas are lenient on
 * purpose (shared/api/schemas.ts: a missing or mistyped optional field
 * becomes null, a broken list becomes empty), so a drifted service does not
 * crash a cell: it silently empties it. This walk makes that silence visible.
 *
 * It reads the schema's definition (`_zod.def`, zod 4's public introspection
 * shape) and knows the kinds the API schemas use: object, array, record,
 * string, number, boolean, enum, union, pipe, and the wrappers optional,
 * nullable and catch.
 */
import type * as z from "zod/mini";

export type ShapeKind =
  /** A field the schema expects (or the probe expects for the known company) is absent. */
  | "missing"
  /** Present with another JSON type than the schema's. */
  | "type"
  /** A coded value outside the schema's list (an enum). */
  | "value"
  /** Fields the schema does not name (listed together per object). */
  | "unknown";

export interface ShapeIssue {
  /** Dotted path from the answer's root; list elements as `[]`. */
  path: string;
  kind: ShapeKind;
  /** What the client expects, in schema words: "string", "object {code, name}", one of "matched | …". */
  expected: string;
  /** What came: a JSON type, the value (for "value"), or the unknown field names. */
  got: string;
  /** For "missing": an unknown field of the same object with a fitting value, probably the new name. */
  renamedTo?: string;
}

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  element?: z.ZodMiniType;
  shape?: Record<string, z.ZodMiniType>;
  catchall?: z.ZodMiniType;
  entries?: Record<string, string>;
  options?: z.ZodMiniType[];
  in?: z.ZodMiniType;
  valueType?: z.ZodMiniType;
}
const defOf = (s: z.ZodMiniType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional / nullable / catch, and whether those wrappers let absence or null pass. */
function unwrap(s: z.ZodMiniType): { core: z.ZodMiniType; optional: boolean; nullable: boolean } {
  let optional = false,
    nullable = false,
    cur = s;
  for (;;) {
    const d = defOf(cur);
    if (d.type === "optional") optional = true;
    else if (d.type === "nullable") nullable = true;
    else if (d.type !== "catch") break;
    cur = d.innerType!;
  }
  return { core: cur, optional, nullable };
}

/** Whether an object field may be absent without the client reading less (z.optional). */
export function isOptional(s: z.ZodMiniType): boolean {
  return defOf(s).type === "optional";
}

export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** The schema in a few words, for a finding's "expected". */
export function describe(s: z.ZodMiniType, depth = 0): string {
  const { core } = unwrap(s);
  const d = defOf(core);
  switch (d.type) {
    case "object":
      return depth > 0 ? "object" : `object {${Object.keys(d.shape ?? {}).join(", ")}}`;
    case "array":
      return `array of ${describe(d.element!, depth + 1)}`;
    case "enum":
      return Object.values(d.entries ?? {}).join(" | ");
    case "union":
      return (d.options ?? []).map((o) => describe(o, depth + 1)).join(" | ");
    case "pipe":
      return describe(d.in!, depth);
    case "record":
      return "object";
    default:
      return d.type;
  }
}

/** Does a JSON value have the schema's kind (not its details)? */
function fits(s: z.ZodMiniType, v: unknown): boolean {
  const { core, nullable } = unwrap(s);
  if (v === null) return nullable;
  const d = defOf(core);
  switch (d.type) {
    case "object":
    case "record":
      return jsonType(v) === "object";
    case "array":
      return Array.isArray(v);
    case "string":
    case "enum":
      return typeof v === "string";
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    case "union":
      return (d.options ?? []).some((o) => fits(o, v));
    case "pipe":
      return fits(d.in!, v);
    default:
      return true; // unknown / any
  }
}

/** Elements of a list looked at: the first few show a drift as well as all of them. */
const ELEMENTS_CHECKED = 5;

/**
 * Every difference between `value` and `schema`. `expectPresent` names
 * optional fields (dotted paths, `[]` for list elements) this answer should
 * carry all the same: the known company has a legal form, so its absence is
 * a finding although the schema lets it be absent.
 */
export function compareShape(
  schema: z.ZodMiniType,
  value: unknown,
  expectPresent: ReadonlySet<string> = new Set(),
): ShapeIssue[] {
  const out: ShapeIssue[] = [];
  const seen = new Set<string>();
  const add = (i: ShapeIssue) => {
    const k = `${i.kind}|${i.path}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(i);
  };
  walk(schema, value, "", add, expectPresent);
  return out;
}

function walk(
  s: z.ZodMiniType,
  v: unknown,
  path: string,
  add: (i: ShapeIssue) => void,
  expect: ReadonlySet<string>,
): void {
  const { core, nullable } = unwrap(s);
  if (v === null && nullable) return;
  if (!fits(core, v)) {
    add({ path: path || "(answer)", kind: "type", expected: describe(core), got: jsonType(v) });
    return;
  }
  const d = defOf(core);
  const at = (k: string) => (path ? `${path}.${k}` : k);
  switch (d.type) {
    case "object": {
      const obj = v as Record<string, unknown>;
      const shape = d.shape ?? {};
      const loose = d.catchall !== undefined && defOf(d.catchall).type !== "never";
      const unknown = loose ? [] : Object.keys(obj).filter((k) => !(k in shape));
      const missing: string[] = [];
      for (const [k, fs] of Object.entries(shape)) {
        if (obj[k] === undefined) {
          if (!isOptional(fs) || expect.has(at(k))) missing.push(k);
          continue;
        }
        walk(fs, obj[k], at(k), add, expect);
      }
      const renamed = new Set<string>();
      for (const k of missing) {
        // An unknown field whose value the schema would take is probably this one, renamed.
        const renamedTo = unknown.find((u) => !renamed.has(u) && obj[u] !== null && fits(shape[k]!, obj[u]));
        if (renamedTo) renamed.add(renamedTo);
        add({
          path: at(k),
          kind: "missing",
          expected: describe(shape[k]!),
          got: "absent",
          ...(renamedTo ? { renamedTo } : {}),
        });
      }
      // A rename is named with the missing field; what is left is news.
      const news = unknown.filter((u) => !renamed.has(u));
      if (news.length)
        add({
          path: path || "(answer)",
          kind: "unknown",
          expected: Object.keys(shape).join(", "),
          got: news.join(", "),
        });
      return;
    }
    case "array":
      (v as unknown[]).slice(0, ELEMENTS_CHECKED).forEach((e) => walk(d.element!, e, `${path}[]`, add, expect));
      return;
    case "record":
      for (const e of Object.values(v as Record<string, unknown>).slice(0, ELEMENTS_CHECKED))
        walk(d.valueType!, e, `${path}{}`, add, expect);
      return;
    case "enum": {
      const allowed = Object.values(d.entries ?? {});
      if (!allowed.includes(v as string))
        add({ path: path || "(answer)", kind: "value", expected: allowed.join(" | "), got: String(v) });
      return;
    }
    case "union": {
      // The first option that takes the value decides (an enum before its catch-all string).
      const options = d.options ?? [];
      const enumOption = options.find((o) => defOf(unwrap(o).core).type === "enum");
      if (enumOption && typeof v === "string") walk(enumOption, v, path, add, expect);
      return;
    }
    case "pipe":
      walk(d.in!, v, path, add, expect);
      return;
    default:
      return;
  }
}
