/**
 * The chunk's vocabulary: the task of an input row, the operations the job
 * stands on, what the memo keeps of a resolve answer, and where a chunk ends.
 * Working a chunk (resolve, availability, profiles) is ./chunk-run.ts; the
 * sheet job and the CLI loop over it.
 */
import type { Availability, Company, ResolveQuery } from "../api/index.ts";
import type { Include } from "../api/index.ts";
import type { Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import type { OpContext, ResolvedRow } from "../operations/index.ts";
import type { Cell } from "../core/index.ts";
import type { FieldDef } from "./fields.ts";
import type { ColumnMapping } from "./columns.ts";
import { toCandidate } from "./rows.ts";
import type { RunMemo, KeyAnswer, Needs } from "./memo.ts";
import type { Language } from "../i18n/index.ts";
import { identifierQuery, type IdentifierQuery } from "../operations/index.ts";
import type { RowTask } from "./task.ts";

/** The operations the job stands on (bound to CORE-OPS' modules in ./run.ts; fakes in tests). */
export interface EnrichDeps {
  resolveMany(ctx: OpContext, rows: ResolveQuery[], opts?: { mode?: "batch" | "free" }): Operation<ResolvedRow[]>;
  /** Free lookups by website, VAT id, register number or LEI (shared/operations/identifiers.ts); rows with identifiers fail without it. */
  lookupMany?(ctx: OpContext, rows: IdentifierQuery[]): Operation<ResolvedRow[]>;
  getProfiles(ctx: OpContext, ids: string[], include?: Include[]): Operation<Map<string, Company | CompanyDataError>>;
  getAvailability(ctx: OpContext, ids: string[]): Operation<Map<string, Availability | CompanyDataError>>;
}

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
export function keyAnswer(r: ResolvedRow, fields: readonly FieldDef[], needs: Needs, lang: Language): KeyAnswer | null {
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
