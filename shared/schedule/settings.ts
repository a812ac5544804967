/**
 * What every job's schedule settings share: whether it is on, how often and
 * at which hour (validated with DE/EN errors naming the field, form fields
 * arriving as text), and how they are kept: per document, versioned, read
 * back through the same validation (a value that no longer passes counts as
 * absent, and the defaults apply).
 */
import * as z from "zod/mini";
import { storeGet, storePut, type Operation } from "../core/index.ts";
import { invalid, readSaved, savedKind, writeSaved, type SavedKind } from "../core/index.ts";
import { got, rule, type Bilingual } from "../i18n/index.ts";
import { validate as V } from "../api/index.ts";
import type { Frequency } from "./slot.ts";

/** Form fields arrive as text: a number written as text is that number. */
export const formNumber = (x: unknown): unknown =>
  typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x)) ? Number(x) : x;

const FREQUENCY_WORD: Record<Frequency, string> = { hourly: "stündlich", daily: "täglich", weekly: "wöchentlich" };

/** "expected hourly or daily", in both languages, for the frequencies a job offers. */
function expectedFrequency(allowed: readonly Frequency[]): Bilingual {
  const list = (words: string[], and: string) =>
    words.length > 1 ? `${words.slice(0, -1).join(", ")} ${and} ${words.at(-1) ?? ""}` : (words[0] ?? "");
  return {
    de: `erwartet ${list(
      allowed.map((f) => `${FREQUENCY_WORD[f]} (${f})`),
      "oder",
    )}`,
    en: `expected ${list([...allowed], "or")}`,
  };
}

export interface SlotFields<F extends Frequency> {
  enabled: boolean;
  frequency: F;
  hour: number;
}

/** The on/off, frequency and hour of a job's settings, validated; INVALID_INPUT names the field. */
export function slotFields<F extends Frequency>(
  v: Record<string, unknown>,
  allowed: readonly F[],
  defaults: { frequency: F; hour: number },
): SlotFields<F> {
  const frequency = v.frequency ?? defaults.frequency;
  if (!allowed.includes(frequency as F)) throw invalid("frequency", got(expectedFrequency(allowed), frequency));
  if (typeof v.enabled !== "boolean" && v.enabled !== undefined) throw invalid("enabled", rule.type("boolean"));
  const hour = V.integer(formNumber(v.hour ?? defaults.hour), "hour", 0, 23);
  return { enabled: v.enabled === true, frequency: frequency as F, hour };
}

/** The zod/mini form of the saved frequency and hour, beside a job's own fields. */
export const slotShape = <F extends Frequency>(allowed: readonly [F, ...F[]]) => ({
  enabled: z.boolean(),
  frequency: z.enum(allowed),
  hour: z.number(),
});

export interface SettingsStore<T> {
  /** The saved form (v1; values written without a version before it still read). */
  kind: SavedKind<T>;
  load: () => Operation<T>;
  save: (s: T) => Operation<void>;
}

/**
 * A job's settings in the document's store under `key`: the shape checked,
 * then the job's validation again, so what is read is what `validate`
 * accepts. Written without a version before v1: still read, or an update
 * would silently stop the user's schedule.
 */
export function settingsStore<T extends object>(opts: {
  key: string;
  shape: z.ZodMiniType<T>;
  validate: (value: unknown) => T;
  defaults: T;
}): SettingsStore<T> {
  const checked: z.ZodMiniType<T> = z.pipe(
    opts.shape,
    z.transform((v, ctx) => {
      try {
        return opts.validate(v);
      } catch {
        ctx.issues.push({ code: "custom", message: opts.key, input: v });
        return z.NEVER;
      }
    }),
  );
  const kind = savedKind(1, checked, checked);
  return {
    kind,
    load: function* () {
      const [raw] = yield* storeGet([opts.key]);
      return readSaved(kind, raw) ?? { ...opts.defaults };
    },
    save: function* (s) {
      yield* storePut({ [opts.key]: writeSaved(kind, opts.validate(s)) });
    },
  };
}
