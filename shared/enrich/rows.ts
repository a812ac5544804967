/**
 * One enriched row: what the job found, how it is shown (status text in
 * German or English, confidence, as-of date) and how it is read back from a
 * sheet or CSV, which is what reruns and resumes decide from.
 */
import { doubtText, noteText, type Doubt, type MatchNote } from "../operations/index.ts";
import type { CompanySummary } from "../api/index.ts";
import { COMPANY_ID_AT_START, COMPANY_ID_PATTERN } from "../api/index.ts";
import type { ErrorCode } from "../core/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import type { Cell } from "../core/index.ts";
import { candidateLabel, parseCandidateLabel, type LabelledCandidate } from "./candidate-label.ts";
import { FIELDS, type FieldDef } from "./fields.ts";

/**
 * "empty": a row with neither a name nor an id; it is skipped, and says so.
 * "unbought": matched (its id is written), its profile not bought yet: the
 * matching phase of a run that asks again before buying (job.ts, phase
 * "match") leaves it so; a later run buys it without matching it again.
 */
export type RowOutcome = "matched" | "review" | "not_found" | "error" | "out_of_credits" | "empty" | "unbought";

export interface Candidate {
  id: string;
  name: string;
  city: string;
}

export interface RowResult {
  outcome: RowOutcome;
  /** The company id: matched, given, or resolved before credits ran out (so a resume never resolves it again). */
  id: string | null;
  confidence: number | null;
  /** Ambiguous rows: the candidates the user picks from. */
  candidates?: Candidate[];
  /** Review because the match contradicts the row's city, postcode, register or legal form, or rates below the floor. */
  doubt?: Doubt;
  /** Matched (or matched, unbought) under a former name. */
  note?: MatchNote;
  error?: { code: ErrorCode; text: Bilingual };
  /** yyyy-mm-dd the data is as of; null for rows that got no data. */
  asOf: string | null;
  /** The chosen fields' values, in the order of the selected fields. */
  values: Cell[];
}

export const STATUS: Record<RowOutcome, Bilingual> = {
  matched: { de: "gefunden", en: "matched" },
  review: { de: "prüfen", en: "review" },
  not_found: { de: "nicht gefunden", en: "not found" },
  error: { de: "Fehler", en: "error" },
  out_of_credits: { de: "nicht angereichert: keine Credits", en: "not enriched: out of credits" },
  // Every row gets a status, so counts add up to the rows of the input.
  empty: { de: "übersprungen: kein Name", en: "skipped: no name" },
  unbought: { de: "abgeglichen, Profil nicht gekauft", en: "matched, profile not bought" },
};

/** Output columns besides the fields: status, confidence first, as-of last. */
export const STATUS_HEADER: Bilingual = { de: "Status", en: "Status" };
export const CONFIDENCE_HEADER: Bilingual = { de: "Trefferqualität", en: "Match confidence" };
export const AS_OF_HEADER: Bilingual = { de: "Stand", en: "As of" };

/** Added to an output header that an input column already has ("Ort" → "Ort (Treffer)"). */
export const CLASH_SUFFIX: Bilingual = { de: " (Treffer)", en: " (match)" };

const headerKey = (h: unknown) =>
  String(h ?? "")
    .trim()
    .toLowerCase();

/**
 * The output columns' headers. Given the input's header, an output header
 * equal to an input one (case and outer spaces ignored) gets CLASH_SUFFIX,
 * and a number after it should that be taken too: two columns "Ort" would
 * be read back as one (column detection, a rerun's own header).
 */
export function outputHeader(fields: readonly FieldDef[], lang: Language, inputHeader: readonly Cell[] = []): string[] {
  const plain = [
    STATUS_HEADER[lang],
    CONFIDENCE_HEADER[lang],
    ...fields.map((f) => f.header[lang]),
    AS_OF_HEADER[lang],
  ];
  if (inputHeader.length === 0) return plain;
  const taken = new Set(inputHeader.map(headerKey));
  for (const h of plain) taken.add(headerKey(h));
  return plain.map((h) => {
    if (!inputHeader.some((c) => headerKey(c) === headerKey(h))) return h;
    let out = h + CLASH_SUFFIX[lang];
    for (let n = 2; taken.has(headerKey(out)); n++) out = `${h}${CLASH_SUFFIX[lang]} ${n}`;
    taken.add(headerKey(out));
    return out;
  });
}

/** An output header without its clash suffixes (see outputHeader); a header suffixed twice by an old rerun too. */
const unsuffixed = (h: string) => h.trim().replace(/(?: \((?:Treffer|match)\)(?: \d+)?)+$/, "");

/** Whether a header cell is `h` in either language, with any number of clash suffixes ("Firmenname (Treffer)" is a header of its own). */
function isHeader(c: Cell | undefined, h: Bilingual): boolean {
  let s = String(c ?? "").trim();
  for (;;) {
    if (s === h.de || s === h.en) return true;
    const shorter = s.replace(/ \((?:Treffer|match)\)(?: \d+)?$/, "");
    if (shorter === s) return false;
    s = shorter;
  }
}

/** The job's own output block found in a header row: where it starts, and its fields when the row holds all of it. */
export interface FoundOutput {
  /** 0-based column of its status header. */
  start: number;
  /** Field ids in column order; null when the block is cut off or holds a header that is no field. */
  fields: string[] | null;
}

/**
 * Find the leftmost output block of an earlier run in a header row (either
 * language, clash suffixes allowed): a status header directly followed by a
 * confidence header. Whatever stands left of it is the input; nothing in it
 * is ever taken for an input column, and a rerun writes into it again.
 */
export function findOutputBlock(row: readonly Cell[]): FoundOutput | null {
  for (let i = 0; i + 1 < row.length; i++) {
    if (!isHeader(row[i], STATUS_HEADER) || !isHeader(row[i + 1], CONFIDENCE_HEADER)) continue;
    const fields: string[] = [];
    for (let j = i + 2; j < row.length; j++) {
      if (isHeader(row[j], AS_OF_HEADER)) return { start: i, fields };
      const f = FIELDS.find((d) => isHeader(row[j], d.header));
      if (!f) break;
      fields.push(f.id);
    }
    return { start: i, fields: null };
  }
  return null;
}

/** True when a row read back is our own header in either language (clash suffixes allowed). */
export function isOutputHeader(row: readonly Cell[], fields: readonly FieldDef[]): boolean {
  const de = outputHeader(fields, "de");
  const en = outputHeader(fields, "en");
  return (
    row.length >= de.length &&
    de.every((h, i) => {
      const c = String(row[i] ?? "");
      const u = unsuffixed(c);
      return c === h || c === en[i] || u === h || u === en[i];
    })
  );
}

export { candidateLabel } from "./candidate-label.ts";

/** Between the candidates of a review status: "prüfen: DE… – Name, City | DE… – …". */
const CANDIDATE_SEPARATOR = " | ";

/**
 * The candidates a review status lists, read back through the one label
 * parser. The status is the record of a review row's candidates: it is
 * written with the row and moves with it when the table is sorted, while the
 * ledger keeps only hashes, the memo lasts one call and no host reads a
 * dropdown's values back.
 */
export function reviewCandidates(status: string): LabelledCandidate[] {
  const at = status.indexOf(":");
  if (at < 0) return [];
  return status
    .slice(at + 1)
    .split(CANDIDATE_SEPARATOR)
    .flatMap((label) => parseCandidateLabel(label) ?? []);
}

/**
 * The reason a review status gives in its head, "prüfen (Ort weicht ab
 * (Hamburg ≠ Hannover)): …" → "Ort weicht ab (Hamburg ≠ Hannover)", or ""
 * when it gives none: statusText's review head, read back.
 */
export function reviewReason(status: string): string {
  const at = status.indexOf(":");
  const head = at < 0 ? status : status.slice(0, at);
  const open = head.indexOf("(");
  return open < 0 || !head.trimEnd().endsWith(")") ? "" : head.slice(open + 1, head.trimEnd().length - 1).trim();
}

export const toCandidate = (s: CompanySummary): Candidate => ({ id: s.id, name: s.name ?? "", city: s.city ?? "" });

export function statusText(r: RowResult, lang: Language): string {
  switch (r.outcome) {
    case "error":
      return `${STATUS.error[lang]}: ${r.error?.text[lang] ?? ""}`;
    case "review": {
      const list = (r.candidates ?? []).map(candidateLabel).join(CANDIDATE_SEPARATOR);
      const head = r.doubt ? `${STATUS.review[lang]} (${doubtText(r.doubt, lang)})` : STATUS.review[lang];
      return list ? `${head}: ${list}` : head;
    }
    case "matched":
    case "unbought":
      // "gefunden (früherer Name SAP AG)": still read back as matched (parseStatus reads the start).
      return r.note ? `${STATUS[r.outcome][lang]} (${noteText(r.note, lang)})` : STATUS[r.outcome][lang];
    default:
      return STATUS[r.outcome][lang];
  }
}

/** The output cells of one row: status, confidence, fields, as-of. */
export function outputCells(r: RowResult, width: number, lang: Language): Cell[] {
  if (r.outcome === "empty") return [statusText(r, lang), "", ...new Array<Cell>(width).fill(""), ""];
  const values =
    r.values.length === width
      ? r.values
      : [...r.values, ...new Array<Cell>(Math.max(0, width - r.values.length)).fill("")].slice(0, width);
  // The id column is the first field: review rows leave it for the user's pick.
  if (r.outcome !== "review" && values.length > 0 && (values[0] === "" || values[0] == null) && r.id) values[0] = r.id;
  return [statusText(r, lang), r.confidence ?? "", ...values, r.asOf ?? ""];
}

/** What a previous run left in a row, read back from its output cells. */
export interface PreviousRow {
  outcome: RowOutcome;
  /** A company id in the id column (a pick from the review dropdown counts). */
  id: string | null;
  confidence: number | null;
  asOf: string | null;
}

export function idFromCell(v: Cell): string | null {
  const m = COMPANY_ID_AT_START.exec(String(v ?? "").toUpperCase());
  const id = m?.[1];
  return id !== undefined && COMPANY_ID_PATTERN.test(id) ? id : null;
}

export function parseStatus(v: Cell | undefined): RowOutcome | null {
  const s = String(v ?? "")
    .trim()
    .toLowerCase();
  if (!s) return null;
  // "unbought" before "matched": its English text starts with the other's.
  for (const outcome of ["out_of_credits", "not_found", "unbought", "matched", "review", "error", "empty"] as const) {
    const t = STATUS[outcome];
    if (s.startsWith(t.de.toLowerCase()) || s.startsWith(t.en.toLowerCase())) return outcome;
  }
  return null;
}

/** Read back a row's output cells (status, confidence, fields…, as-of); null when the row has none. */
export function readPrevious(cells: readonly Cell[], width: number): PreviousRow | null {
  const outcome = parseStatus(cells[0]);
  if (!outcome) return null;
  const conf = cells[1];
  const asOf = String(cells[2 + width] ?? "").trim();
  return {
    outcome,
    id: idFromCell(cells[2] ?? null),
    confidence:
      typeof conf === "number"
        ? conf
        : conf !== "" && conf != null && !Number.isNaN(Number(conf))
          ? Number(conf)
          : null,
    asOf: /^\d{4}-\d{2}-\d{2}/.test(asOf) ? asOf.slice(0, 10) : null,
  };
}

/** A row read back with its values (candidates are not: they are only in the status text). */
export function readResult(cells: readonly Cell[] | undefined, width: number): RowResult | null {
  const p = cells ? readPrevious(cells, width) : null;
  if (!p) return null;
  return { outcome: p.outcome, id: p.id, confidence: p.confidence, asOf: p.asOf, values: cells!.slice(2, 2 + width) };
}

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
