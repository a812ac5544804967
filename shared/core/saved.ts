/**
 * Saved state: what an operation writes into the store or cache and reads back
 * in a later call (checkpoints, watermarks, the budget, ledgers, outboxes,
 * settings, cache entries).
 *
 * Whatever is read back may be damaged (a cut-off write, a hand-edited
 * property), foreign (another key's value, another add-on's) or of another
 * version (written by an older or newer build). None of that may throw out of
 * a host or be trusted as if it fitted: each kind of saved state has a zod
 * schema and a version, declared next to the code that owns it, and a value
 * that does not fit counts as absent (`undefined`), exactly like a missing key.
 *
 * The version is the field `v` of the stored object. A kind written before
 * versions existed names its unversioned shape (`unversioned`): read as the
 * current version where losing it would cost the user (a job's checkpoint,
 * today's spend, watermarks: losing them re-buys or re-alerts).
 */
import * as z from "zod/mini";
import type { Bilingual } from "../i18n/index.ts";
import type { Cell } from "./sheet-protocol.ts";

export interface SavedKind<T> {
  /** The stored object's `v`. */
  readonly version: number;
  /** The stored shape; the `v` field is checked before it, so the schema may leave it out. */
  readonly schema: z.ZodMiniType<T>;
  /** The shape written before this kind had a version, read as this version (a migration). */
  readonly unversioned?: z.ZodMiniType<T>;
}

export function savedKind<T>(version: number, schema: z.ZodMiniType<T>, unversioned?: z.ZodMiniType<T>): SavedKind<T> {
  return { version, schema, unversioned };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

function jsonOf(raw: string | null | undefined): { ok: true; value: unknown } | { ok: false } {
  if (raw === null || raw === undefined || raw === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The saved value, or `undefined` (absent) when there is none, the text is not
 * JSON, its version is another, or its shape does not fit.
 */
export function readSaved<T>(kind: SavedKind<T>, raw: string | null | undefined): T | undefined {
  const json = jsonOf(raw);
  if (!json.ok) return undefined;
  const value = json.value;
  const versioned = isObject(value) && "v" in value;
  if (!versioned) return kind.unversioned ? fit(kind.unversioned, value) : undefined;
  return value.v === kind.version ? fit(kind.schema, value) : undefined;
}

/** The text to store: the value with its kind's version. Only object values carry one. */
export function writeSaved<T extends object>(kind: SavedKind<T>, value: T): string {
  return JSON.stringify({ ...value, v: kind.version });
}

/**
 * A value without a version of its own: a part of a versioned record (a
 * checkpoint's result parts, a ledger's key lists), or a journal line, whose
 * record or file says which version it belongs to. Absent when it does not fit.
 */
export function readPart<T>(schema: z.ZodMiniType<T>, raw: string | null | undefined): T | undefined {
  const json = jsonOf(raw);
  return json.ok ? fit(schema, json.value) : undefined;
}

function fit<T>(schema: z.ZodMiniType<T>, value: unknown): T | undefined {
  const r = schema.safeParse(value);
  return r.success ? r.data : undefined;
}

// Shapes many kinds share.
export const savedBilingual: z.ZodMiniType<Bilingual> = z.object({ de: z.string(), en: z.string() });
export const savedCell: z.ZodMiniType<Cell> = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/**
 * A cache entry's envelope (Apps Script's durable cache, Excel's storage
 * cache): expiry (epoch ms) and the stored text. Read with readPart, without
 * a version of its own: the text inside is itself a versioned kind (a cached
 * call, a cached answer), and an envelope that does not fit is a miss. Its
 * `v` stays the value, as every entry already stored has it: a new field name
 * would turn them all into misses and re-buy their answers.
 */
export const savedCacheEnvelope = z.object({ e: z.number(), v: z.string() });
