/**
 * Enrich one chunk of rows: resolve the names (rows with an id skip this),
 * ask the free availability endpoint which includes exist, then fetch each
 * distinct company's profile once with exactly the includes it has. This is
 * the unit the sheet job, the pure job and the CLI all loop over.
 */
import type { Doubt, MatchNote } from "../operations/index.ts";
import type { Availability, Company, CompanySummary, ResolveQuery } from "../api/index.ts";
import { COMPANY_ID_PATTERN } from "../api/index.ts";
import type { Include } from "../api/index.ts";
import { all, type Operation } from "../core/index.ts";
import { CompanyDataError, invalid } from "../core/index.ts";
import { notAnId } from "../i18n/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { Cell } from "../core/index.ts";
import { availableIncludes, fieldNeeds, type FieldDef, type FieldNeeds } from "./fields.ts";
import type { ColumnMapping } from "./columns.ts";
import { isoDay, toCandidate, type RowResult } from "./rows.ts";
import { RunMemo, type KeyAnswer, type Needs } from "./memo.ts";
import type { Language } from "../i18n/index.ts";
import { normaliseKey } from "../batch/index.ts";
import { identifierQuery, type IdentifierQuery } from "../operations/index.ts";
import type { RowTask } from "./task.ts";

/** Shape of CORE-OPS' ResolvedRow (shared/operations/resolve.ts), repeated structurally. */
export interface ResolvedRowLike {
  status: "matched" | "ambiguous" | "not_found" | "error";
  match: CompanySummary | null;
  confidence: number | null;
  candidates: CompanySummary[];
  doubt?: Doubt;
  note?: MatchNote;
  error?: CompanyDataError;
}

/** The operations the job stands on (bound to CORE-OPS' modules in ./run.ts; fakes in tests). */
export interface EnrichDeps {
  resolveMany(ctx: OpContext, rows: ResolveQuery[], opts?: { mode?: "batch" | "free" }): Operation<ResolvedRowLike[]>;
  /** Free lookups by website, VAT id, register number or LEI (shared/operations/identifiers.ts); rows with identifiers fail without it. */
  lookupMany?(ctx: OpContext, rows: IdentifierQuery[]): Operation<ResolvedRowLike[]>;
  getProfiles(ctx: OpContext, ids: string[], include?: Include[]): Operation<Map<string, Company | CompanyDataError>>;
  getAvailability(ctx: OpContext, ids: string[]): Operation<Map<string, Availability | CompanyDataError>>;
}

const text = (e: CompanyDataError) => ({ code: e.code, text: { de: e.text("de"), en: e.text("en") } });

/** Keys the job cannot continue without: stop the run, do not mark rows. */
const FATAL = new Set(["MISSING_KEY", "INVALID_KEY"]);

const cellText = (v: Cell | undefined): string => (v == null ? "" : String(v).trim());

/** A postcode typed as a number lost its leading zero (01067 → 1067). */
function zipText(v: Cell | undefined): string {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v < 100000) return String(v).padStart(5, "0");
  return cellText(v);
}

/**
 * The free lookup for a row, when it applies: a website, VAT id or LEI says
 * which company it is (exact, and free where a name costs a batch resolve); a
 * register number alone does too. A register number beside a name stays a
 * hint to the name. A malformed identifier is kept as the error to report.
 */
function lookupOf(
  row: readonly Cell[],
  mapping: ColumnMapping,
  hasName: boolean,
): IdentifierQuery | CompanyDataError | null {
  const at = (k: "website" | "vatId" | "register" | "lei") =>
    mapping[k] !== undefined ? cellText(row[mapping[k]]) : "";
  const website = at("website"),
    vatId = at("vatId"),
    lei = at("lei");
  if (!website && !vatId && !lei && (hasName || !at("register"))) return null;
  try {
    return identifierQuery({ website, vatId, lei, register: website || vatId || lei ? undefined : at("register") });
  } catch (e) {
    return e as CompanyDataError;
  }
}

/** The task for an input row (before anything an earlier run left is considered). */
export function taskFromRow(index: number, row: readonly Cell[], mapping: ColumnMapping): RowTask {
  const id = mapping.id !== undefined ? cellText(row[mapping.id]).toUpperCase() : "";
  if (id) return { index, query: null, id, confidence: null };
  const name = mapping.name !== undefined ? cellText(row[mapping.name]) : "";
  const lookup = lookupOf(row, mapping, !!name);
  // A malformed identifier: an id that cannot be one, so the row reports the identifier's error.
  if (lookup instanceof CompanyDataError)
    return { index, query: null, id: null, confidence: null, lookup: null, invalid: lookup };
  if (lookup) return { index, query: null, id: null, confidence: null, lookup };
  if (!name) return { index, query: null, id: null, confidence: null };
  const q: ResolveQuery = { name };
  const city = mapping.city !== undefined ? cellText(row[mapping.city]) : "";
  const zip = mapping.zip !== undefined ? zipText(row[mapping.zip]) : "";
  const register = mapping.register !== undefined ? cellText(row[mapping.register]) : "";
  if (city) q.city = city;
  if (zip) q.zip = zip;
  if (register) q.register = register;
  return { index, query: q, id: null, confidence: null };
}

/** What the memo keeps of a resolve answer (errors: nothing, they are asked again). */
export function keyAnswer(
  r: ResolvedRowLike,
  fields: readonly FieldDef[],
  needs: Needs,
  lang: Language,
): KeyAnswer | null {
  if (r.status === "matched" && r.match) {
    const summary = r.match;
    // Without a profile the row's values come from the match alone: kept, as the match itself is not.
    const v = needs.resolved.profile ? undefined : fields.map((f) => f.extract({ summary, company: null, lang }));
    return { o: "m", id: summary.id, c: r.confidence, v, ...(r.note ? { n: r.note } : {}) };
  }
  // Nothing is matched yet: the service's figure is its best candidate's (1 for two companies of one name), which beside "review" would read as a sure match.
  // A match refused for a reason (operations/contradiction.ts) keeps its own figure: the review shows how sure the service was.
  if (r.status === "ambiguous")
    return {
      o: "r",
      c: r.doubt ? r.confidence : null,
      k: r.candidates.map(toCandidate),
      ...(r.doubt ? { d: r.doubt } : {}),
    };
  if (r.status === "not_found") return { o: "n" };
  return null;
}

export const isEmptyTask = (t: RowTask) => !t.query && !t.id && !t.lookup && !t.invalid;

export interface ChunkOutcome {
  results: RowResult[];
  /** A paid call was refused for lack of credits: the run must stop after this chunk. */
  outOfCredits: boolean;
}

export function* enrichChunk(
  deps: EnrichDeps,
  ctx: OpContext,
  tasks: readonly RowTask[],
  fields: readonly FieldDef[],
  mode: "batch" | "free",
  memo: RunMemo = new RunMemo(fieldNeeds(fields)),
  /** Match only: resolve, but buy no profile; a row that needs one is left "unbought" with its id (job.ts, phase "match"). */
  matchOnly = false,
): Operation<ChunkOutcome> {
  const needs = memo.needs;
  const lang = ctx.client.language;
  const today = isoDay(ctx.client.now());
  const results: (RowResult | undefined)[] = new Array<RowResult | undefined>(tasks.length);
  let outOfCredits = false;

  const fail = (k: number, e: CompanyDataError, id: string | null = null, confidence: number | null = null) => {
    if (FATAL.has(e.code)) throw e;
    if (e.code === "OUT_OF_CREDITS") {
      outOfCredits = true;
      results[k] = { outcome: "out_of_credits", id, confidence, asOf: null, values: [] };
    } else if (e.code === "NOT_FOUND") {
      results[k] = { outcome: "not_found", id: null, confidence: null, asOf: null, values: [] };
    } else {
      results[k] = { outcome: "error", id, confidence, error: text(e), asOf: null, values: [] };
    }
  };

  // 0. What this run already has costs nothing again.
  const summaries = new Map<number, CompanySummary>();
  const ids: (string | null)[] = tasks.map((t) => t.id);
  const confidence: (number | null)[] = tasks.map((t) => t.confidence);
  const notes: (MatchNote | undefined)[] = tasks.map(() => undefined);
  const noted = (k: number) => (notes[k] ? { note: notes[k] } : {});
  /** Rows whose id came from a resolve (their needs are needs.resolved). */
  const resolvedRow: boolean[] = tasks.map(() => false);
  const toResolve: number[] = [];
  const toLookUp: number[] = [];
  tasks.forEach((t, k) => {
    if (!t.id && t.invalid) return fail(k, t.invalid);
    if (!t.id && t.lookup) {
      toLookUp.push(k);
      return;
    }
    const known = memo.answer(t, today);
    if (known) {
      results[k] = known;
      return;
    }
    const m = memo.matchedId(t);
    if (m) {
      ids[k] = m.id;
      confidence[k] = m.confidence;
      notes[k] = m.note;
      resolvedRow[k] = true;
    } else if (t.query && !t.id) toResolve.push(k);
  });

  // 1. Resolve the rows without an id: names in (paid) batches, identifiers by the free lookup.
  // k always indexes tasks (and results, ids, confidence: one entry per task).
  const resolved =
    toResolve.length > 0
      ? yield* deps.resolveMany(
          ctx,
          toResolve.map((k) => tasks[k]!.query!),
          { mode },
        )
      : [];
  if (toLookUp.length > 0 && !deps.lookupMany) throw new CompanyDataError("INTERNAL");
  const looked =
    toLookUp.length > 0
      ? yield* deps.lookupMany!(
          ctx,
          toLookUp.map((k) => tasks[k]!.lookup!),
        )
      : [];
  {
    const order = [...toResolve, ...toLookUp];
    const answers = [...resolved, ...looked];
    order.forEach((k, j) => {
      const r = answers[j];
      if (!r) return fail(k, new CompanyDataError("INTERNAL"));
      const a = keyAnswer(r, fields, needs, lang);
      if (a && tasks[k]!.query) memo.rememberKey(normaliseKey(tasks[k]!.query), a);
      if (r.status === "matched" && r.match) {
        ids[k] = r.match.id;
        confidence[k] = r.confidence;
        notes[k] = r.note;
        resolvedRow[k] = true;
        summaries.set(k, r.match);
      } else if (a?.o === "r") {
        results[k] = {
          outcome: "review",
          id: null,
          confidence: a.c,
          candidates: a.k.map((x) => ({ ...x })),
          ...(a.d ? { doubt: a.d } : {}),
          asOf: null,
          values: [],
        };
      } else if (a?.o === "n") {
        results[k] = { outcome: "not_found", id: null, confidence: null, asOf: null, values: [] };
      } else {
        fail(k, r.error ?? new CompanyDataError("INTERNAL"));
      }
    });
  }

  // 2. Which rows need a profile, and with which includes.
  const want = new Map<string, FieldNeeds>();
  const needOf: (FieldNeeds | null)[] = tasks.map(() => null);
  tasks.forEach((t, k) => {
    if (results[k]) return;
    if (isEmptyTask(t)) {
      results[k] = { outcome: "empty", id: null, confidence: null, asOf: null, values: [] };
      return;
    }
    const id = ids[k]!;
    if (!COMPANY_ID_PATTERN.test(id)) return fail(k, invalid("id", notAnId("company", id)));
    const n = resolvedRow[k] ? needs.resolved : needs.givenId;
    // Another name for a company this run already bought.
    const done = n.profile ? memo.companies.get(id) : undefined;
    if (done) {
      results[k] = {
        outcome: "matched",
        id,
        confidence: confidence[k] ?? null,
        ...noted(k),
        asOf: done.a,
        values: [...done.v],
      };
      return;
    }
    if (matchOnly && n.profile) {
      results[k] = { outcome: "unbought", id, confidence: confidence[k] ?? null, ...noted(k), asOf: null, values: [] };
      return;
    }
    needOf[k] = n;
    if (n.profile) want.set(id, n);
  });

  // 3. Availability is free: ask it before paying for includes that may not exist.
  const wanted = [...want.keys()];
  const include = needs.resolved.include;
  const av = new Map<string, Availability | CompanyDataError>();
  if (include.length > 0 && wanted.length > 0) {
    const got = yield* deps.getAvailability(ctx, wanted);
    for (const [id, a] of got) {
      if (a instanceof CompanyDataError && FATAL.has(a.code)) throw a;
      av.set(id, a);
    }
  }
  const includeOf = new Map<string, Include[]>();
  for (const id of wanted) {
    const a = av.get(id);
    // An availability error is no reason to withhold what the user asked for.
    includeOf.set(id, availableIncludes(include, a instanceof CompanyDataError ? null : a));
  }

  // 4. One profile call per company, grouped by include set; groups run in parallel.
  const groups = new Map<string, string[]>();
  for (const id of wanted) {
    const key = includeOf.get(id)!.join(",");
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  const groupKeys = [...groups.keys()];
  const answers = yield* all(
    groupKeys.map((key) => deps.getProfiles(ctx, groups.get(key)!, key ? (key.split(",") as Include[]) : [])),
  );
  const profiles = new Map<string, Company | CompanyDataError>();
  answers.forEach((m) => m.forEach((v, id) => profiles.set(id, v)));

  // 5. Rows.
  tasks.forEach((_, k) => {
    if (results[k]) return;
    const id = ids[k]!;
    const n = needOf[k]!;
    const summary = summaries.get(k) ?? null;
    let company: Company | null = null;
    if (n.profile) {
      const p = profiles.get(id);
      if (!p) return fail(k, new CompanyDataError("INTERNAL"), id, confidence[k]);
      if (p instanceof CompanyDataError) return fail(k, p, id, confidence[k]);
      company = p;
    }
    results[k] = {
      outcome: "matched",
      id,
      confidence: confidence[k] ?? null,
      ...noted(k),
      asOf: company?.asOf?.slice(0, 10) || today,
      values: fields.map((f) => f.extract({ summary, company, lang })),
    };
    if (company) memo.rememberCompany(id, results[k].values, results[k].asOf);
  });

  return { results: results as RowResult[], outOfCredits };
}

/** The row needs a request (a resolve or a profile): the memo does not answer it. */
export const hasWork = (memo: RunMemo, t: RowTask): boolean => !isEmptyTask(t) && memo.answer(t, "") === null;

/** A chunk with fewer than ten new names may grow by this many rows (at least) to reach ten. */
export const MIN_CHUNK_GROWTH = 100;

/**
 * Where the chunk starting at `start` ends. A batch resolve costs ceil(n/10):
 * a chunk whose new names are not a whole number of tens would round up, and
 * every chunk would round again. So in batch mode a chunk ends after its last
 * whole ten of new names (the rest go with the next chunk), and a chunk with
 * fewer than ten grows (by at most max(MIN_CHUNK_GROWTH, 3 × size) rows that
 * the memo does not answer: in a tail of repeats most rows cost nothing)
 * until it has ten; over a run that is ceil(distinct names / 10), the
 * minimum. Nothing is resolved ahead of the rows that use it: a run cut
 * between chunks leaves no paid answer behind that only a cache would keep.
 */
export function chunkEnd(
  count: number,
  taskAt: (j: number) => RowTask,
  start: number,
  size: number,
  mode: "batch" | "free",
  memo: RunMemo,
): number {
  const step = Math.max(1, Math.floor(size));
  const base = Math.min(count, start + step);
  if (mode !== "batch") return base;
  const keys = new Set<string>();
  let lastWhole = start;
  for (let j = start; j < base; j++) {
    const k = memo.pendingKey(taskAt(j));
    if (k) keys.add(k);
    if (keys.size % 10 === 0) lastWhole = j + 1;
  }
  if (keys.size % 10 === 0 || base === count) return base;
  if (keys.size >= 10) return lastWhole;
  // Rows the memo answers cost nothing: only rows with work count against the growth.
  let budget = Math.max(MIN_CHUNK_GROWTH, 3 * step);
  let end = base;
  while (keys.size % 10 !== 0 && end < count && budget > 0) {
    const t = taskAt(end);
    const k = memo.pendingKey(t);
    if (k) keys.add(k);
    if (hasWork(memo, t)) budget--;
    end++;
  }
  // Not reachable within the limit (a sparse tail of new names): growing would only make the chunk longer.
  return keys.size % 10 === 0 || end === count ? end : base;
}
