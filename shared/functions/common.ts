/**
 * Helpers the function definitions share: parameter declarations, the
 * per-row and list patterns, and localised column headers.
 */
import { all, type Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import { MAX_SIZE } from "../api/index.ts";
import { cellsOf, isBlank, reader, single, type Reader } from "./input.ts";
import { errorCell, stackLists, type ListPart } from "./cells.ts";
import type { CellOut, FunctionContext, ParamDef, ParamKind } from "./types.ts";

export function param(
  name: string,
  kind: ParamKind,
  de: string,
  en: string,
  opts: { optional?: boolean; range?: boolean } = {},
): ParamDef {
  return { name, kind, help: { de, en }, optional: opts.optional ?? false, acceptsRange: opts.range ?? false };
}

/** The optional `size` argument of the list functions: how many `what` (plural), 1 to the API's MAX_SIZE. */
export function sizeParam(what: Bilingual, fallback: number): ParamDef {
  return param(
    "size",
    "integer",
    `Anzahl ${what.de}, 1–${MAX_SIZE} (Standard ${fallback})`,
    `Number of ${what.en}, 1–${MAX_SIZE} (default ${fallback})`,
    { optional: true },
  );
}
export const readSize = (r: Reader, size: unknown, fallback: number): number =>
  r.integer(single(size), "size", 1, MAX_SIZE, fallback);

export const langOf = (fctx: FunctionContext): Language => fctx.ctx.client.language;

/** Column headers: one Bilingual per column. */
export const headers = (cols: Bilingual[], lang: Language) => cols.map((c) => c[lang]);
export const h = (de: string, en: string): Bilingual => ({ de, en });

/**
 * One output row per input value, aligned with the input. Blank inputs in a
 * range give a blank row; a blank single value is an error (nothing to ask).
 * `parse` rejects bad values per row; `fetch` gets the distinct valid keys at once.
 */
export function* perRow<K>(
  fctx: FunctionContext,
  arg: unknown,
  width: number,
  parse: (v: unknown, r: Reader) => K,
  keyOf: (k: K) => string,
  fetch: (keys: K[]) => Operation<Map<string, CellOut[] | CompanyDataError>>,
): Operation<CellOut[][]> {
  const lang = langOf(fctx);
  const r = reader(lang);
  const { values, range } = cellsOf(arg);
  type Slot = { blank: true } | { error: unknown } | { key: string };
  const distinct = new Map<string, K>();
  const slots: Slot[] = values.map((v) => {
    if (range && isBlank(v)) return { blank: true };
    try {
      const k = parse(v, r);
      const key = keyOf(k);
      if (!distinct.has(key)) distinct.set(key, k);
      return { key };
    } catch (e) {
      return { error: e };
    }
  });
  const answers = distinct.size
    ? yield* fetch([...distinct.values()])
    : new Map<string, CellOut[] | CompanyDataError>();
  const blankRow = () => new Array<CellOut>(width).fill("");
  return slots.map((s) => {
    if ("blank" in s) return blankRow();
    if ("error" in s) return [errorCell(s.error, lang)];
    const a = answers.get(s.key);
    if (a === undefined) return [errorCell(new CompanyDataError("INTERNAL"), lang)];
    if (a instanceof CompanyDataError) return [errorCell(a, lang)];
    return a;
  });
}

/**
 * A list per input: one input gives header + rows; several give one table
 * with the input in a first column. Blank inputs in a range are skipped.
 * Each input is fetched by its own operation; all run in one round of requests.
 */
export function* listPerInput<K>(
  fctx: FunctionContext,
  arg: unknown,
  parse: (v: unknown, r: Reader) => K,
  label: (k: K) => string,
  fetch: (k: K) => Operation<CellOut[][]>,
  header: string[],
  inputHeader: string,
): Operation<CellOut[][]> {
  const lang = langOf(fctx);
  const r = reader(lang);
  const { values, range } = cellsOf(arg);
  const filled = range ? values.filter((v) => !isBlank(v)) : values;
  if (filled.length === 0) throw r.fail(inputHeader, { de: "fehlt", en: "is required" });
  type Parsed = { ok: true; k: K } | { ok: false; error: unknown; input: string };
  const parsed = filled.map((v): Parsed => {
    try {
      return { ok: true, k: parse(v, r) };
    } catch (e) {
      return { ok: false, error: e, input: String(v).slice(0, 40) };
    }
  });
  const stacked = filled.length > 1;
  // One single input that is invalid: the whole answer is that error.
  const first = parsed[0];
  if (!stacked && first && !first.ok) throw first.error;
  const distinct = new Map<string, K>();
  for (const p of parsed) if (p.ok && !distinct.has(label(p.k))) distinct.set(label(p.k), p.k);
  const keys = [...distinct.keys()];
  const settled = yield* allSettled([...distinct.values()].map((k) => fetch(k)));
  const byKey = new Map(keys.map((k, i) => [k, settled[i]]));
  const parts: ListPart[] = parsed.map((p) => {
    if (!p.ok) return { input: p.input, error: p.error };
    const s = byKey.get(label(p.k))!;
    return s.ok ? { input: label(p.k), rows: s.value } : { input: label(p.k), error: s.error };
  });
  return stackLists(header, inputHeader, parts, lang, stacked);
}

/** Run operations side by side (their requests go out together); each settles on its own. */
export function* allSettled<T>(
  ops: Operation<T>[],
): Operation<({ ok: true; value: T } | { ok: false; error: unknown })[]> {
  return yield* all(ops.map((op) => settle(op)));
}

function* settle<T>(op: Operation<T>): Operation<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: yield* op };
  } catch (error) {
    return { ok: false, error };
  }
}
