/**
 * Why a value is wrong, in German and English: the rule a message names after
 * the field ("Ungültige Eingabe (Anzahl Treffer): eine ganze Zahl von 1 bis
 * 100."). Shared by the core's input checks and the emulator's 400 bodies.
 * Rules for zod issues are derived from the issue and the schema at its path,
 * so every request schema explains itself without a message per field.
 */
import type * as z from "zod/mini";
import type { Bilingual } from "./language.ts";

export type Rule = Bilingual;

export interface Bound {
  value: number;
  inclusive: boolean;
}

const r = (de: string, en: string): Rule => ({ de, en });

function items(n: number, kind: "array" | "string"): Rule {
  if (kind === "string") return r(`${n} Zeichen`, `${n} character${n === 1 ? "" : "s"}`);
  return r(`${n} ${n === 1 ? "Eintrag" : "Einträge"}`, `${n} ${n === 1 ? "entry" : "entries"}`);
}

const TYPE_NAMES = {
  string: r("Text", "a string"),
  number: r("eine Zahl", "a number"),
  int: r("eine ganze Zahl", "an integer"),
  boolean: r("true oder false", "true or false"),
  array: r("eine Liste", "a list"),
  object: r("ein Objekt", "an object"),
  null: r("null", "null"),
} satisfies Record<string, Rule>;

/** A short echo of a bad value: the user's own text quoted, anything else by its kind. */
export function shown(v: unknown): Rule {
  if (v === undefined) return r("nichts", "nothing");
  if (v === null) return r("leer", "empty");
  if (typeof v === "string") {
    const s = v.replace(/[\r\n\t]+/g, " ");
    const q = s.length > 40 ? `${s.slice(0, 40)}…` : s;
    return r(`„${q}“`, `"${q}"`);
  }
  if (typeof v === "number")
    return Number.isFinite(v) ? r(String(v).replace(".", ","), String(v)) : r("keine Zahl", "not a number");
  if (typeof v === "boolean") return v ? r("WAHR", "TRUE") : r("FALSCH", "FALSE");
  if (Array.isArray(v)) return TYPE_NAMES.array;
  if (typeof v === "object") return TYPE_NAMES.object;
  return r("ein unbekannter Wert", "an unknown value");
}

export const rule = {
  atMost(n: number, kind: "array" | "string"): Rule {
    const x = items(n, kind);
    return r(`höchstens ${x.de}`, `at most ${x.en}`);
  },
  atLeast(n: number, kind: "array" | "string"): Rule {
    if (kind === "string" && n === 1) return r("darf nicht leer sein", "must not be empty");
    const x = items(n, kind);
    return r(`mindestens ${x.de}`, `at least ${x.en}`);
  },
  /** A number between optional bounds: "eine ganze Zahl von 1 bis 100", "a number, greater than 0 and at most 500". */
  number(min: Bound | undefined, max: Bound | undefined, int: boolean, unit = ""): Rule {
    const what = int ? r("eine ganze Zahl", "an integer") : r("eine Zahl", "a number");
    const u = unit ? ` ${unit}` : "";
    // German writes a decimal comma: "größer als 0,1".
    const de = (b: Bound) => String(b.value).replace(".", ",");
    const en = (b: Bound) => String(b.value);
    if (min?.inclusive && max?.inclusive)
      return r(`${what.de} von ${de(min)} bis ${de(max)}${u}`, `${what.en} from ${en(min)} to ${en(max)}${u}`);
    const parts: Rule[] = [];
    if (min)
      parts.push(
        min.inclusive
          ? r(`mindestens ${de(min)}${u}`, `at least ${en(min)}${u}`)
          : r(`größer als ${de(min)}${u}`, `greater than ${en(min)}${u}`),
      );
    if (max)
      parts.push(
        max.inclusive
          ? r(`höchstens ${de(max)}${u}`, `at most ${en(max)}${u}`)
          : r(`kleiner als ${de(max)}${u}`, `less than ${en(max)}${u}`),
      );
    if (!parts.length) return what;
    return r(
      `${what.de}, ${parts.map((p) => p.de).join(" und ")}`,
      `${what.en}, ${parts.map((p) => p.en).join(" and ")}`,
    );
  },
  /** Shorthand for a whole number from min to max. */
  range(min: number, max: number): Rule {
    return rule.number({ value: min, inclusive: true }, { value: max, inclusive: true }, true);
  },
  oneOf(values: readonly unknown[]): Rule {
    const list = values.map((v) => String(v)).join(", ");
    return r(`erlaubt: ${list}`, `allowed: ${list}`);
  },
  type(expected: string): Rule {
    const t = (TYPE_NAMES as Record<string, Rule | undefined>)[expected] ?? r(expected, expected);
    return r(`erwartet ${t.de}`, `expected ${t.en}`);
  },
  required: r("Pflichtfeld", "required"),
  notEmpty: r("darf nicht leer sein", "must not be empty"),
  pattern(p: string): Rule {
    return r(`muss dem Muster ${p} entsprechen`, `must match ${p}`);
  },
  format(f: string): Rule {
    return r(`erwartet das Format ${f}`, `expected the format ${f}`);
  },
  multipleOf(n: number): Rule {
    return r(`ein Vielfaches von ${n}`, `a multiple of ${n}`);
  },
  exactlyOneOf(names: readonly string[]): Rule {
    const list = names.join(", ");
    return r(`genau eines von ${list} angeben`, `give exactly one of ${list}`);
  },
  onlyOnce: r("darf nur einmal vorkommen", "may appear only once"),
  isoDate: r("ein Datum JJJJ-MM-TT oder ein Zeitpunkt nach ISO 8601", "a date YYYY-MM-DD or an ISO 8601 date-time"),
  validDate: r("ein gültiges Datum JJJJ-MM-TT", "a valid date YYYY-MM-DD"),
  companyId: r(
    "erwartet eine Firmen-ID (DE + 10 Buchstaben oder Ziffern)",
    "expected a company id (DE + 10 letters or digits)",
  ),
  personId: r(
    "erwartet eine Personen-ID (P + 10 Buchstaben oder Ziffern)",
    "expected a person id (P + 10 letters or digits)",
  ),
  unknownKey(allowed: readonly string[]): Rule {
    const list = allowed.join(", ");
    return r(`unbekanntes Feld; erlaubt: ${list}`, `unknown field; allowed: ${list}`);
  },
};

/** "„hello“ ist keine Firmen-ID (…)" for text; for anything else the rule with what was given. */
export function notAnId(kind: "company" | "person", value: unknown): Rule {
  if (typeof value !== "string") return got(kind === "company" ? rule.companyId : rule.personId, value);
  const v = shown(value);
  return kind === "company"
    ? r(
        `${v.de} ist keine Firmen-ID (DE + 10 Buchstaben oder Ziffern)`,
        `${v.en} is not a company id (DE + 10 letters or digits)`,
      )
    : r(
        `${v.de} ist keine Personen-ID (P + 10 Buchstaben oder Ziffern)`,
        `${v.en} is not a person id (P + 10 letters or digits)`,
      );
}

/** A rule followed by the value that broke it: "… (erhalten: „abc“)". */
export function got(why: Rule, value: unknown): Rule {
  const v = shown(value);
  return r(`${why.de} (erhalten: ${v.de})`, `${why.en} (got ${v.en})`);
}

/** Several rules as one sentence part, "a; b". */
export function both(a: Rule, b: Rule): Rule {
  return r(`${a.de}; ${b.de}`, `${a.en}; ${b.en}`);
}

// ---- deriving a rule from a zod issue ----

interface Def {
  type: string;
  format?: string;
  innerType?: Node;
  in?: Node;
  shape?: Record<string, Node>;
  element?: Node;
  valueType?: Node;
  entries?: Record<string, unknown>;
  checks?: {
    _zod: { def: { check: string; value?: number; inclusive?: boolean; minimum?: number; maximum?: number } };
  }[];
}
interface Node {
  _zod: { def: Def };
}

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "nonoptional", "catch"]);

function unwrap(s: Node | undefined): Node | undefined {
  for (let k = 0; s && k < 20; k++) {
    const d = s._zod.def;
    if (WRAPPERS.has(d.type) && d.innerType) s = d.innerType;
    else if (d.type === "pipe" && d.in) s = d.in;
    else return s;
  }
  return s;
}

/** The schema that judged the value at `path`, or undefined where the walk cannot follow (unions, lazy). */
export function schemaAt(root: z.ZodMiniType, path: readonly PropertyKey[]): Node | undefined {
  let s = unwrap(root);
  for (const seg of path) {
    if (!s) return undefined;
    const d = s._zod.def;
    if (d.type === "object" && d.shape) s = unwrap(d.shape[String(seg)]);
    else if (d.type === "array" && d.element) s = unwrap(d.element);
    else if (d.type === "record" && d.valueType) s = unwrap(d.valueType);
    else return undefined;
  }
  return s;
}

function numberBounds(s: Node | undefined): { min?: Bound; max?: Bound; int: boolean } {
  const d = s?._zod.def;
  const out: { min?: Bound; max?: Bound; int: boolean } = { int: /int/.test(d?.format ?? "") };
  for (const c of d?.checks ?? []) {
    const cd = c._zod.def;
    if (cd.check === "greater_than" && typeof cd.value === "number")
      out.min = { value: cd.value, inclusive: cd.inclusive === true };
    if (cd.check === "less_than" && typeof cd.value === "number")
      out.max = { value: cd.value, inclusive: cd.inclusive === true };
  }
  return out;
}

/** The value at a zod issue's path in what was parsed (undefined where the path leads nowhere). */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg];
  }
  return v;
}

export interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  expected?: string;
  values?: readonly unknown[];
  format?: string;
  pattern?: string;
  divisor?: number | bigint;
  keys?: readonly string[];
}

/**
 * The rule behind one zod issue; `input` is the value that was parsed (to
 * tell a missing field from a wrong one). `patterns` names well-known
 * regular expressions (a company id) instead of showing them raw.
 */
export function ruleOfIssue(
  issue: IssueLike,
  root: z.ZodMiniType,
  input: unknown,
  patterns: Record<string, Rule> = {},
): Rule | undefined {
  const at = () => schemaAt(root, issue.path);
  switch (issue.code) {
    case "too_big":
    case "too_small": {
      const big = issue.code === "too_big";
      const n = Number(big ? issue.maximum : issue.minimum);
      if (issue.origin === "array" || issue.origin === "set" || issue.origin === "string") {
        const kind = issue.origin === "string" ? "string" : "array";
        return big ? rule.atMost(n, kind) : rule.atLeast(n, kind);
      }
      const b = numberBounds(at());
      const violated: Bound = { value: n, inclusive: issue.inclusive !== false };
      return rule.number(big ? b.min : violated, big ? violated : b.max, b.int || issue.origin === "int");
    }
    case "invalid_type": {
      if (valueAt(input, issue.path) === undefined) return rule.required;
      if (issue.expected === "int" || issue.expected === "number") {
        const b = numberBounds(at());
        return rule.number(b.min, b.max, b.int || issue.expected === "int");
      }
      return rule.type(issue.expected ?? "?");
    }
    case "invalid_value":
      return issue.values ? rule.oneOf(issue.values) : undefined;
    case "invalid_format":
      if (issue.format === "regex" && issue.pattern) return patterns[issue.pattern] ?? rule.pattern(issue.pattern);
      return issue.format ? rule.format(issue.format) : undefined;
    case "not_multiple_of":
      return rule.multipleOf(Number(issue.divisor));
    case "unrecognized_keys": {
      const s = at();
      const shape = s?._zod.def.type === "object" ? s._zod.def.shape : undefined;
      return shape ? rule.oneOf(Object.keys(shape)) : undefined;
    }
    default:
      return undefined;
  }
}

/** "a.b[2].c" from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : (s ? "." : "") + String(p);
  return s;
}
