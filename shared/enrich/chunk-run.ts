/**
 * Enrich one chunk of rows: resolve the names (rows with an id skip this),
 * ask the free availability endpoint which includes exist, then fetch each
 * distinct company's profile once with exactly the includes it has. This is
 * the unit the sheet job, the CLI and the estimate's chunking all follow;
 * each step below is one function over the chunk's rows (ChunkRows).
 */
import type { Availability, Company, CompanySummary, Include } from "../api/index.ts";
import { COMPANY_ID_PATTERN } from "../api/index.ts";
import { all, type Operation } from "../core/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import { notAnId } from "../i18n/index.ts";
import type { MatchNote, OpContext } from "../operations/index.ts";
import { normaliseKey } from "../batch/index.ts";
import { availableIncludes, fieldNeeds, type FieldDef, type FieldNeeds } from "./fields.ts";
import { isoDay, type RowResult } from "./rows.ts";
import { RunMemo } from "./memo.ts";
import { isEmptyTask, keyAnswer, type EnrichDeps } from "./chunk.ts";
import type { RowTask } from "./task.ts";

const text = (e: CompanyDataError) => ({ code: e.code, text: { de: e.text("de"), en: e.text("en") } });

/** Keys the job cannot continue without: stop the run, do not mark rows. */
const FATAL = new Set(["MISSING_KEY", "INVALID_KEY"]);

export interface ChunkOutcome {
  results: RowResult[];
  /** A paid call was refused for lack of credits: the run must stop after this chunk. */
  outOfCredits: boolean;
}

/** What the steps know of each row of the chunk (index k: one entry per task). */
class ChunkRows {
  readonly results: (RowResult | undefined)[];
  readonly ids: (string | null)[];
  readonly confidence: (number | null)[];
  readonly notes: (MatchNote | undefined)[];
  /** Rows whose id came from a resolve (their needs are needs.resolved). */
  readonly resolvedRow: boolean[];
  readonly summaries = new Map<number, CompanySummary>();
  outOfCredits = false;

  constructor(readonly tasks: readonly RowTask[]) {
    this.results = new Array<RowResult | undefined>(tasks.length);
    this.ids = tasks.map((t) => t.id);
    this.confidence = tasks.map((t) => t.confidence);
    this.notes = tasks.map(() => undefined);
    this.resolvedRow = tasks.map(() => false);
  }

  noted(k: number) {
    return this.notes[k] ? { note: this.notes[k] } : {};
  }

  /** The row's answer is this error (a key error stops the run instead). */
  fail(k: number, e: CompanyDataError, id: string | null = null, confidence: number | null = null): void {
    if (FATAL.has(e.code)) throw e;
    if (e.code === "OUT_OF_CREDITS") {
      this.outOfCredits = true;
      this.results[k] = { outcome: "out_of_credits", id, confidence, asOf: null, values: [] };
    } else if (e.code === "NOT_FOUND") {
      this.results[k] = { outcome: "not_found", id: null, confidence: null, asOf: null, values: [] };
    } else {
      this.results[k] = { outcome: "error", id, confidence, error: text(e), asOf: null, values: [] };
    }
  }
}

export function* enrichChunk(
  deps: EnrichDeps,
  ctx: OpContext,
  tasks: readonly RowTask[],
  fields: readonly FieldDef[],
  mode: "batch" | "free",
  memo: RunMemo = new RunMemo(fieldNeeds(fields)),
  /** Match only: resolve, but buy no profile; a row that needs one is left "unbought" with its id (phase "match"). */
  matchOnly = false,
): Operation<ChunkOutcome> {
  const today = isoDay(ctx.client.now());
  const rows = new ChunkRows(tasks);
  const { toResolve, toLookUp } = fromMemo(rows, memo, today);
  yield* resolveRows(deps, ctx, rows, { toResolve, toLookUp, fields, mode, memo });
  const { want, needOf } = profileNeeds(rows, memo, matchOnly);
  const profiles = yield* fetchProfiles(deps, ctx, want, memo.needs.resolved.include);
  matchedRows(rows, { needOf, profiles, fields, memo, today, lang: ctx.client.language });
  return { results: rows.results as RowResult[], outOfCredits: rows.outOfCredits };
}

/** 0. What this run already has costs nothing again; returns the rows still to resolve or look up. */
function fromMemo(rows: ChunkRows, memo: RunMemo, today: string): { toResolve: number[]; toLookUp: number[] } {
  const toResolve: number[] = [];
  const toLookUp: number[] = [];
  rows.tasks.forEach((t, k) => {
    if (!t.id && t.invalid) return rows.fail(k, t.invalid);
    if (!t.id && t.lookup) {
      toLookUp.push(k);
      return;
    }
    const known = memo.answer(t, today);
    if (known) {
      rows.results[k] = known;
      return;
    }
    const m = memo.matchedId(t);
    if (m) {
      rows.ids[k] = m.id;
      rows.confidence[k] = m.confidence;
      rows.notes[k] = m.note;
      rows.resolvedRow[k] = true;
    } else if (t.query && !t.id) toResolve.push(k);
  });
  return { toResolve, toLookUp };
}

/** 1. Resolve the rows without an id: names in (paid) batches, identifiers by the free lookup. */
function* resolveRows(
  deps: EnrichDeps,
  ctx: OpContext,
  rows: ChunkRows,
  a: {
    toResolve: number[];
    toLookUp: number[];
    fields: readonly FieldDef[];
    mode: "batch" | "free";
    memo: RunMemo;
  },
): Operation<void> {
  const tasks = rows.tasks;
  // k always indexes tasks (and results, ids, confidence: one entry per task).
  const resolved =
    a.toResolve.length > 0
      ? yield* deps.resolveMany(
          ctx,
          a.toResolve.map((k) => tasks[k]!.query!),
          { mode: a.mode },
        )
      : [];
  if (a.toLookUp.length > 0 && !deps.lookupMany) throw new CompanyDataError("INTERNAL");
  const looked =
    a.toLookUp.length > 0
      ? yield* deps.lookupMany!(
          ctx,
          a.toLookUp.map((k) => tasks[k]!.lookup!),
        )
      : [];
  const answers = [...resolved, ...looked];
  [...a.toResolve, ...a.toLookUp].forEach((k, j) => {
    const r = answers[j];
    if (!r) return rows.fail(k, new CompanyDataError("INTERNAL"));
    const ka = keyAnswer(r, a.fields, a.memo.needs, ctx.client.language);
    if (ka && tasks[k]!.query) a.memo.rememberKey(normaliseKey(tasks[k]!.query), ka);
    if (r.status === "matched" && r.match) {
      rows.ids[k] = r.match.id;
      rows.confidence[k] = r.confidence;
      rows.notes[k] = r.note;
      rows.resolvedRow[k] = true;
      rows.summaries.set(k, r.match);
    } else if (ka?.o === "r") {
      rows.results[k] = {
        outcome: "review",
        id: null,
        confidence: ka.c,
        candidates: ka.k.map((x) => ({ ...x })),
        ...(ka.d ? { doubt: ka.d } : {}),
        asOf: null,
        values: [],
      };
    } else if (ka?.o === "n") {
      rows.results[k] = { outcome: "not_found", id: null, confidence: null, asOf: null, values: [] };
    } else {
      rows.fail(k, r.error ?? new CompanyDataError("INTERNAL"));
    }
  });
}

/** 2. Which rows need a profile, and with which includes (a company bought before in this run is not bought again). */
function profileNeeds(
  rows: ChunkRows,
  memo: RunMemo,
  matchOnly: boolean,
): { want: Map<string, FieldNeeds>; needOf: (FieldNeeds | null)[] } {
  const want = new Map<string, FieldNeeds>();
  const needOf: (FieldNeeds | null)[] = rows.tasks.map(() => null);
  rows.tasks.forEach((t, k) => {
    if (rows.results[k]) return;
    if (isEmptyTask(t)) {
      rows.results[k] = { outcome: "empty", id: null, confidence: null, asOf: null, values: [] };
      return;
    }
    const id = rows.ids[k]!;
    if (!COMPANY_ID_PATTERN.test(id)) return rows.fail(k, invalid("id", notAnId("company", id)));
    const n = rows.resolvedRow[k] ? memo.needs.resolved : memo.needs.givenId;
    const confidence = rows.confidence[k] ?? null;
    // Another name for a company this run already bought.
    const done = n.profile ? memo.companies.get(id) : undefined;
    if (done) {
      rows.results[k] = { outcome: "matched", id, confidence, ...rows.noted(k), asOf: done.a, values: [...done.v] };
      return;
    }
    if (matchOnly && n.profile) {
      rows.results[k] = { outcome: "unbought", id, confidence, ...rows.noted(k), asOf: null, values: [] };
      return;
    }
    needOf[k] = n;
    if (n.profile) want.set(id, n);
  });
  return { want, needOf };
}

/**
 * 3. Availability is free: asked before paying for includes that may not
 * exist. 4. One profile call per company, grouped by include set; groups run
 * in parallel.
 */
function* fetchProfiles(
  deps: EnrichDeps,
  ctx: OpContext,
  want: ReadonlyMap<string, FieldNeeds>,
  include: Include[],
): Operation<Map<string, Company | CompanyDataError>> {
  const wanted = [...want.keys()];
  const av = new Map<string, Availability | CompanyDataError>();
  if (include.length > 0 && wanted.length > 0) {
    const got = yield* deps.getAvailability(ctx, wanted);
    for (const [id, a] of got) {
      if (a instanceof CompanyDataError && FATAL.has(a.code)) throw a;
      av.set(id, a);
    }
  }
  const groups = new Map<string, string[]>();
  for (const id of wanted) {
    const a = av.get(id);
    // An availability error is no reason to withhold what the user asked for.
    const key = availableIncludes(include, a instanceof CompanyDataError ? null : a).join(",");
    const group = groups.get(key);
    if (group) group.push(id);
    else groups.set(key, [id]);
  }
  const groupKeys = [...groups.keys()];
  const answers = yield* all(
    groupKeys.map((key) => deps.getProfiles(ctx, groups.get(key)!, key ? (key.split(",") as Include[]) : [])),
  );
  const profiles = new Map<string, Company | CompanyDataError>();
  answers.forEach((m) => m.forEach((v, id) => profiles.set(id, v)));
  return profiles;
}

/** 5. The rows left: matched, with their values from the match and the profile. */
function matchedRows(
  rows: ChunkRows,
  a: {
    needOf: readonly (FieldNeeds | null)[];
    profiles: ReadonlyMap<string, Company | CompanyDataError>;
    fields: readonly FieldDef[];
    memo: RunMemo;
    today: string;
    lang: OpContext["client"]["language"];
  },
): void {
  rows.tasks.forEach((_, k) => {
    if (rows.results[k]) return;
    const id = rows.ids[k]!;
    const n = a.needOf[k]!;
    const summary = rows.summaries.get(k) ?? null;
    let company: Company | null = null;
    if (n.profile) {
      const p = a.profiles.get(id);
      if (!p) return rows.fail(k, new CompanyDataError("INTERNAL"), id, rows.confidence[k]);
      if (p instanceof CompanyDataError) return rows.fail(k, p, id, rows.confidence[k]);
      company = p;
    }
    const result: RowResult = {
      outcome: "matched",
      id,
      confidence: rows.confidence[k] ?? null,
      ...rows.noted(k),
      asOf: company?.asOf?.slice(0, 10) || a.today,
      values: a.fields.map((f) => f.extract({ summary, company, lang: a.lang })),
    };
    rows.results[k] = result;
    if (company) a.memo.rememberCompany(id, result.values, result.asOf);
  });
}
