/**
 * The command line's options and what each command makes of them: the one
 * table of options (read by ./args.ts) and, per command, its arguments from
 * the flags, each value checked with a usage error (exit 2) in the user's
 * language.
 */
import type { Language } from "../shared/i18n/index.ts";
import { DEFAULT_FIELDS, parseFieldList, type Rerun } from "../shared/enrich/index.ts";
import type { EnrichArgs } from "./enrich.ts";
import { ExitError } from "./io.ts";
import { parseEncoding } from "./encoding.ts";
import { EXIT, msg } from "./i18n.ts";
import type { MonitorArgs } from "./monitor.ts";
import type { MonitorServerArgs } from "./monitor-server.ts";
import type { RefreshArgs } from "./refresh.ts";
import type { JobFileArgs } from "./job-files.ts";
import type { SearchArgs } from "./search.ts";
import type { CliOptions, CliValues } from "./args.ts";

/**
 * Every option of every command, in one table (node:util parseArgs, strict):
 * a new flag is one line here. `--lang` is read before it (messages need the
 * language); `mcp` reads its own (mcp/config.ts).
 */
export const OPTIONS = {
  in: { type: "string" },
  out: { type: "string" },
  fields: { type: "string" },
  mode: { type: "string" },
  rerun: { type: "string" },
  lang: { type: "string" },
  size: { type: "string" },
  parallel: { type: "string" },
  encoding: { type: "string" },
  changes: { type: "string" },
  notify: { type: "string" },
  industry: { type: "string" },
  state: { type: "string" },
  near: { type: "string" },
  radius: { type: "string" },
  "size-class": { type: "string" },
  "legal-form": { type: "string" },
  "founded-after": { type: "string" },
  "founded-before": { type: "string" },
  limit: { type: "string" },
  exclude: { type: "string" },
  "min-confidence": { type: "string" },
  "older-than": { type: "string" },
  "month-ceiling": { type: "string" },
  yes: { type: "boolean", short: "y" },
  help: { type: "boolean", short: "h" },
  "active-only": { type: "boolean" },
  append: { type: "boolean" },
  json: { type: "boolean" },
  server: { type: "boolean" },
  name: { type: "string" },
  schedule: { type: "string" },
  hour: { type: "string" },
  weekday: { type: "string" },
  budget: { type: "string" },
  email: { type: "string" },
  run: { type: "string" },
} as const satisfies CliOptions;

/** The flags of one command line, by option name. */
export type Flags = CliValues<typeof OPTIONS>;

function parseRerun(v: string | undefined, lang: Language): Rerun {
  if (v === undefined) return "new-or-failed";
  if (v === "all" || v === "new-or-failed") return v;
  const m = /^older-than=(\d+)$/.exec(v);
  if (m) return { olderThanDays: Number(m[1]) };
  throw new ExitError(EXIT.USAGE, msg.badValue[lang]("--rerun", v));
}

/** Requests in flight at once: a whole number from 1 to 1,000 (absent: the driver's default). */
function parseParallel(v: string | undefined, lang: Language): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new ExitError(EXIT.USAGE, msg.badValue[lang]("--parallel", v));
  return n;
}

function badEncoding(v: string, lang: Language): never {
  throw new ExitError(EXIT.USAGE, msg.badValue[lang]("--encoding", v));
}

const missing = (option: string, lang: Language) => new ExitError(EXIT.USAGE, msg.missingOption[lang](option));
const badValue = (option: string, v: string, lang: Language) =>
  new ExitError(EXIT.USAGE, msg.badValue[lang](option, v));

export function enrichArgs(flags: Flags, env: NodeJS.ProcessEnv, lang: Language): EnrichArgs {
  if (flags.in === undefined) throw missing("--in", lang);
  const mode = flags.mode ?? "batch";
  if (mode !== "batch" && mode !== "free") throw badValue("--mode", mode, lang);
  return {
    input: flags.in,
    output: flags.out,
    fields: flags.fields !== undefined ? parseFieldList(flags.fields) : [...DEFAULT_FIELDS],
    mode,
    rerun: parseRerun(flags.rerun, lang),
    yes: flags.yes === true,
    lang,
    parallel: parseParallel(flags.parallel ?? env.COMPANY_DATA_PARALLEL, lang),
    encoding:
      flags.encoding !== undefined ? (parseEncoding(flags.encoding) ?? badEncoding(flags.encoding, lang)) : undefined,
  };
}

/** What the scheduled jobs' commands (monitor, refresh) share: their files, the yes, the parallel calls. */
function jobArgs(flags: Flags, env: NodeJS.ProcessEnv, lang: Language): JobFileArgs {
  if (typeof flags.in !== "string") throw missing("--in", lang);
  return {
    input: flags.in,
    output: typeof flags.out === "string" ? flags.out : undefined,
    changes: typeof flags.changes === "string" ? flags.changes : undefined,
    yes: flags.yes === true,
    lang,
    parallel: parseParallel(typeof flags.parallel === "string" ? flags.parallel : env.COMPANY_DATA_PARALLEL, lang),
  };
}

export const monitorArgs = (flags: Flags, env: NodeJS.ProcessEnv, lang: Language): MonitorArgs => ({
  ...jobArgs(flags, env, lang),
  notify: flags.notify,
});

/** A whole number from `min` to `max` given as `--name` (absent: `fallback`). */
function whole(name: string, v: string | undefined, fallback: number, min: number, max: number, lang: Language) {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max) throw badValue(`--${name}`, v, lang);
  return n;
}

export function monitorServerArgs(flags: Flags, lang: Language): MonitorServerArgs {
  if (flags.in === undefined) throw missing("--in", lang);
  const frequency = flags.schedule ?? "daily";
  if (frequency !== "hourly" && frequency !== "daily" && frequency !== "weekly")
    throw badValue("--schedule", frequency, lang);
  return {
    input: flags.in,
    name: flags.name ?? "portfolio",
    frequency,
    hour: whole("hour", flags.hour, 7, 0, 23, lang),
    weekday: whole("weekday", flags.weekday, 1, 0, 6, lang),
    budget: flags.budget === undefined ? null : whole("budget", flags.budget, 0, 1, 1_000_000, lang),
    webhooks: flags.notify !== undefined ? [flags.notify] : [],
    emails: (flags.email ?? "")
      .split(/[,;]/)
      .map((e) => e.trim())
      .filter(Boolean),
    lang,
  };
}

export function refreshArgs(flags: Flags, env: NodeJS.ProcessEnv, lang: Language): RefreshArgs {
  const job = jobArgs(flags, env, lang);
  const required = (name: "older-than" | "month-ceiling", max: number) => {
    const v = flags[name];
    if (typeof v !== "string") throw missing(`--${name}`, lang);
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > max) throw badValue(`--${name}`, v, lang);
    return n;
  };
  return {
    ...job,
    olderThanDays: required("older-than", 3650),
    monthCeiling: required("month-ceiling", 10_000_000),
    fields: typeof flags.fields === "string" ? parseFieldList(flags.fields) : undefined,
  };
}

export function runsArgs(flags: Flags, lang: Language): { output: string; json: boolean; lang: Language } {
  if (typeof flags.out !== "string") throw missing("--out", lang);
  return { output: flags.out, json: flags.json === true, lang };
}

/** `search WORDS…`: the words are the query. */
export function searchArgs(flags: Flags, words: (string | undefined)[], lang: Language): SearchArgs {
  const num = (k: "size" | "radius" | "limit") => {
    const v = flags[k];
    if (v === undefined) return undefined;
    const n = Number(v.replace(",", "."));
    if (v.trim() === "" || !Number.isFinite(n)) throw badValue(`--${k}`, v, lang);
    return n;
  };
  const size = num("size");
  return {
    query: words.filter(Boolean).join(" "),
    filters: {
      industry: flags.industry,
      state: flags.state,
      sizeClass: flags["size-class"],
      legalForm: flags["legal-form"],
      foundedAfter: flags["founded-after"],
      foundedBefore: flags["founded-before"],
      activeOnly: flags["active-only"] === true,
    },
    near: flags.near,
    radiusKm: num("radius"),
    limit: num("limit") ?? size ?? 10,
    out: flags.out,
    exclude: flags.exclude,
    append: flags.append === true,
    yes: flags.yes === true,
    lang,
  };
}
