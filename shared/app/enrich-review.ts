/**
 * The review list of a run: its rows whose name fits several companies (or
 * whose match contradicts the row), each with the candidates its status cell
 * names and, once the run stands still, what tells two look-alike candidates
 * apart (from the free resolve). A pick from this list is applied by
 * applyCandidate (enrich-run.ts).
 */
import { sheet, type Cell, type Operation } from "../core/index.ts";
import type { ResolveQuery } from "../api/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { outputBlock, reviewCandidates, reviewReason } from "../enrich/index.ts";
import type { ColumnMapping, InputRole, PreviousRow, RowTask, SheetJobSpec } from "../enrich/index.ts";
import { doubtText, resolveMany, type ResolvedRow } from "../operations/index.ts";
import { companyRow } from "./rows.ts";
import { withSession } from "./session.ts";
import type { AppDeps, CompanyRow, ReviewRow } from "./protocol.ts";

/** The review list shows this many rows at most; the rest wait until these are picked. */
const REVIEW_ROWS_SHOWN = 50;
const SEVERAL_FIT: Bilingual = { de: "Mehrere Firmen passen zum Namen.", en: "Several companies fit the name." };

/** A block as progressOf read it: data rows, what the run left beside each, and each row's task. */
export interface ReviewBlock {
  rows: readonly Cell[][];
  previous: readonly (PreviousRow | null)[];
  tasks: readonly RowTask[];
  fieldCount: number;
}

/**
 * The rows to review, their candidates read from their status cells
 * ("prüfen: ID – Name, Ort | …"); with `details`, each candidate completed
 * from the free resolve (addReviewDetails).
 */
export function* reviewRowsOf(
  deps: AppDeps,
  spec: SheetJobSpec,
  block: ReviewBlock,
  details: boolean,
): Operation<ReviewRow[]> {
  const mapping = spec.mapping ?? {};
  const at: number[] = [];
  block.previous.forEach((p, i) => {
    if (p?.outcome === "review" && at.length < REVIEW_ROWS_SHOWN) at.push(i);
  });
  if (!at.length) return [];
  const out = outputBlock(spec, block.fieldCount);
  const status = yield* sheet<Cell[][]>({
    op: "read",
    sheet: spec.sheet,
    row: out.row + 1,
    col: out.col,
    rows: spec.rows - 1,
    cols: 1,
  });
  const rows = at.map((i): ReviewRow => {
    const cell = String(status[i]?.[0] ?? "");
    const head = reviewReason(cell);
    return {
      row: spec.row + 1 + i,
      input: inputText(block.rows[i], mapping),
      candidates: parseCandidates(cell),
      reason: head ? { de: head, en: head } : SEVERAL_FIT,
    };
  });
  if (details)
    yield* addReviewDetails(
      deps,
      rows,
      at.map((i) => block.tasks[i]),
    );
  return rows;
}

/** What the user typed in a row, as the review list names it: name (or identifier), postcode, city, register. */
function inputText(row: readonly Cell[] | undefined, m: ColumnMapping): string {
  if (!row) return "";
  const part = (k: InputRole) => (m[k] !== undefined ? String(row[m[k]] ?? "").trim() : "");
  return [
    part("name") || part("id") || part("lei") || part("vatId") || part("website"),
    part("zip"),
    part("city"),
    part("register"),
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * The status cell names a candidate by id, name and city only; two
 * "Terralogic GmbH, Duisburg" look the same there. What tells them apart
 * (street, postcode, register, industry, status) comes from the row's resolve
 * answer, asked the free way: the cached answer of the run's own resolve, or
 * else the rate-limited single resolve (0 credits). Never a paid call; when
 * the free answer is not to be had (no key, rate limit, deadline), the
 * candidates stay as the status cell names them.
 */
function* addReviewDetails(deps: AppDeps, rows: ReviewRow[], tasks: (RowTask | undefined)[]): Operation<void> {
  const asked = rows
    .map((r, i) => ({ r, q: tasks[i]?.query ?? null }))
    .filter((x): x is { r: ReviewRow; q: ResolveQuery } => x.q !== null);
  if (!asked.length) return;
  let answers: ResolvedRow[];
  try {
    answers = yield* withSession(deps, "review", (s) =>
      resolveMany(
        s.ctx,
        asked.map((x) => x.q),
        { mode: "free" },
      ),
    );
  } catch {
    return;
  }
  asked.forEach(({ r }, i) => {
    const a = answers[i];
    if (!a || a.status === "error") return;
    const known = new Map([...(a.match ? [a.match] : []), ...a.candidates].map((c) => [c.id, c]));
    r.candidates = r.candidates.map((c) => {
      const full = known.get(c.id);
      return full ? { ...companyRow(full), name: full.name || c.name, city: full.city || c.city } : c;
    });
    if (a.doubt) r.reason = { de: doubtText(a.doubt, "de"), en: doubtText(a.doubt, "en") };
  });
}

/** The candidates of a review status (shared/enrich rows.ts reviewCandidates) as rows for the review panel. */
export function parseCandidates(status: string): CompanyRow[] {
  return reviewCandidates(status).map(({ id, name, city }) => ({
    id,
    name,
    legalForm: "",
    street: "",
    zip: "",
    city,
    state: "",
    register: "",
    industry: "",
    size: "",
    status: "",
    statusCode: "",
    active: null,
    score: null,
    distanceKm: null,
  }));
}
