/**
 * The portfolio check ("Check now", and every scheduled run), sans IO.
 *
 *  1. Read the portfolio table. Rows with an id are used as they are; rows
 *     with a name are resolved first (free single resolve: names are resolved
 *     once, the id is written into the ID column). Ambiguous names are never
 *     guessed: the ID cell gets a dropdown of candidates for the user to pick.
 *  2. Ask the free availability endpoint for every company. It carries the
 *     last change date and the financial years, which decide per company what
 *     must be paid for:
 *       first check                 → profile (+ financials if any exist)
 *       last change on/after the wm → profile + changes since the watermark
 *       new financial year          → profile with financials
 *       otherwise                   → nothing (the stored result is shown)
 *     The sum is the run's exact price, known before a credit is spent.
 *  3. Work through the table in windows of rows: pay for the window's
 *     companies (all calls in one parallel batch), append their new changes
 *     to the change log ("Änderungen"/"Changes", see openLog; deduplicated by line key), remember the new
 *     watermarks, write the window's result columns as one block + colours.
 *     The caller records the spend in the ledger (the app session does).
 *     A per-run budget defers the companies that would exceed it; a deadline
 *     pauses at a window boundary and a later call resumes the same run.
 *  4. Account for every entry (see RunSummary): a company whose free or paid
 *     call failed for a passing reason is left to do and the run pauses, so
 *     the next call continues with it (a bounded number of times, then it is
 *     an error row); what was paid before the failure is kept, never paid again.
 *
 * Financials ride on the profile (include=financials, 1 + 4) rather than a
 * separate call (4) because a company needing financials always needs its
 * profile too: same credits, one request fewer. They are fetched only when
 * availability lists a financial year not seen before, so a monitored
 * company pays 4 credits for figures about once a year, not every run.
 */
import type { Company, CompanySummary } from "../api/schemas.ts";
import { all, sheet, storeGet, storePut, type Operation } from "../core/effects.ts";
import { CompanyDataError, invalid } from "../core/errors.ts";
import type { Bilingual, Language } from "../i18n/language.ts";
import { got, notAnId, rule } from "../i18n/rules.ts";
import type { OpContext } from "../operations/context.ts";
import { getAvailability, getChanges, getProfiles, type Availability, type ChangesResult } from "../operations/company.ts";
import { resolveMany } from "../operations/resolve.ts";
import { noSuchSheet, type Cell } from "../sheet/protocol.ts";
import { namesAgree, pairByKey, rowKey } from "../enrich/row-key.ts";
import { movesOf, noteNews } from "./alerts.ts";
import { appendNew, logLine, openLog, type LogLine } from "./changelog.ts";
import { MAX_ENTRY_CREDITS, planCredits, type PortfolioPlanned } from "./estimate.ts";
import { readSaved, writeSaved } from "../core/saved.ts";
import { LAST_RUN, RUN_STATE } from "./state-schema.ts";
import { candidateLabel, idFromCell, layoutOf, queryOf, type Layout, type OutputKey } from "./layout.ts";
import { GROUP_COLOUR, GROUP_LABEL, screen } from "./risk.ts";
import { changedSince, financialsChanged, isoInstant, laterOf, loadStates, saveStates, type CompanyState, type StoredResult } from "./watermark.ts";

export const PORTFOLIO_SHEET = "Portfolio";
/** Changes asked for per company and check (the API's largest page). */
export const CHANGES_PAGE = 100;
/** Rows per window: one block write and one parallel batch of calls each. */
export const DEFAULT_WINDOW_ROWS = 20;
/** Availability calls per parallel batch (a rate-limited endpoint). */
const AVAILABILITY_GROUP = 25;

/** Failures a later call can get past: the company is left to do (the run pauses and continues), not an error. */
const RETRYABLE: ReadonlySet<string> = new Set(["RATE_LIMITED", "NETWORK", "SERVER_ERROR", "TIMEOUT"]);
/** Failures after which nothing more can be paid for: the run stops, the company is left to do. */
const STOPPING: ReadonlySet<string> = new Set(["OUT_OF_CREDITS", "INVALID_KEY", "MISSING_KEY"]);
/**
 * Calls in a row that a run continues for failed calls alone (no company
 * finished) before the companies still failing become error rows: a service
 * that keeps failing must not keep a run (and a Sheets trigger) paused forever.
 */
export const MAX_STALLED_CALLS = 3;

type Outcome = "left" | "error" | "notFound" | "stop";
/** What a failed call makes of a company. On the last allowed call a retryable failure is an error. */
function outcomeOf(e: CompanyDataError, final: boolean): Outcome {
  if (e.code === "NOT_FOUND") return "notFound";
  if (STOPPING.has(e.code)) return "stop";
  if (RETRYABLE.has(e.code)) return final ? "error" : "left";
  return "error";
}

export interface CheckOptions {
  sheet?: string;
  /** The change log's sheet; default "Änderungen" (de) / "Changes" (en), an existing one under either name first. */
  changesSheet?: string;
  /** Credits this run may spend; null/undefined = no cap. */
  budget?: number | null;
  /** Epoch ms: no new window starts after it (the host's time limit, minus a margin). */
  deadline?: number;
  windowRows?: number;
  /** Plan and price only: no paid call, nothing written. */
  preview?: boolean;
  /** Alert channels ("email", "webhook") whose outboxes (alerts.ts) take new changes and risk moves for a later delivery. */
  alerts?: readonly string[];
}

export type RunStatus = "done" | "paused" | "budget" | "stopped" | "preview";

export interface PlanItem {
  id: string;
  profile: boolean;
  financials: boolean;
  changes: boolean;
  credits: number;
}

/**
 * Counts of one call. Every entry (a distinct company, or a row whose name did
 * not resolve to one) ends a call as exactly one of: earlier, checked,
 * unchanged, left, errors, notFound, ambiguous — they always add up to
 * `entries`, so no company drops out of a check unseen. A preview counts the
 * same way: `left` is what the run will do (plus what could not be priced).
 */
export interface RunSummary {
  runId: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  /** Distinct companies in the table (after resolution). */
  companies: number;
  /** Distinct companies plus rows whose name did not resolve to a company. */
  entries: number;
  /** Companies that earlier calls of this (continued) run finished. */
  earlier: number;
  /** Companies whose availability lists financial years (what a schedule's ceiling counts). */
  withFinancials: number;
  rows: number;
  /** Companies paid for in this call. */
  checked: number;
  /** Companies where availability showed nothing new (free). */
  unchanged: number;
  ambiguous: number;
  notFound: number;
  errors: number;
  groups: Record<"risk" | "watch" | "none", number>;
  newChanges: number;
  /**
   * Pages of changes beyond the first that companies with more than
   * CHANGES_PAGE new changes needed (1 credit each; see changesPages): the
   * only spend the plan cannot know in advance. spent = estimate + this.
   */
  extraChangePages: number;
  /** Exact price of the plan at the start of this call (what "Check now" shows). */
  estimate: number;
  plan: PortfolioPlanned;
  spent: number;
  /** Credits of the whole run: every call of a run continued after a pause, this one included (what the message says). */
  runSpent: number;
  requests: number;
  /**
   * What is left to do: companies deferred by the budget or a stop, not
   * reached before the time limit, or whose free or paid call failed for a
   * reason a later call can get past (rate limit, network, server); the run
   * pauses and its next call continues with them. `unpriced` of them (and
   * unresolved name rows) had no availability answer: their credits are not
   * in `credits`, except in a preview, where `credits` is the price shown:
   * the exact price of the priced ones plus MAX_ENTRY_CREDITS per unpriced one.
   */
  left: { companies: number; credits: number; unpriced: number };
  message: Bilingual;
}

export const RUN_KEY = (ctx: OpContext) => `doc:mon:${ctx.scope}:run`;
export const LAST_RUN_KEY = (ctx: OpContext) => `doc:mon:${ctx.scope}:last`;

interface RunCheckpoint {
  id: string;
  startedAt: string;
  sheet: string;
  /** Calls in a row that ended with companies left by failed calls and finished none. */
  stalls?: number;
  /** Credits the run's earlier calls spent (the summary and the per-run budget count the whole run). */
  spent?: number;
}

/** "pending": a name whose free resolve failed for a reason a later call can get past. */
type RowKind = "company" | "ambiguous" | "not_found" | "error" | "pending" | "empty";

interface Row {
  r: number; // 0-based index in the table (0 = header)
  kind: RowKind;
  id: string | null;
  /** The ID cell must be rewritten (a resolved name, or a picked candidate label). */
  writeId: boolean;
  candidates: CompanySummary[];
  error?: CompanyDataError;
  name: string | null;
  /** The id was in the row's ID cell (not resolved by this run): checked against the row's name. */
  fromCell?: boolean;
}

const AMBIGUOUS_COLOUR = "#fce5cd";
const GREY = "#efefef";

const STATUS_TEXT = {
  ambiguous: (n: number): { group: Bilingual; flag: Bilingual } => ({
    group: { de: "Mehrdeutig", en: "Ambiguous" },
    flag: { de: `Bitte die Firma in der ID-Spalte wählen (${n} ${n === 1 ? "Kandidat" : "Kandidaten"})`, en: `Pick the company in the ID column (${n} ${n === 1 ? "candidate" : "candidates"})` },
  }),
  notFound: { group: { de: "Nicht gefunden", en: "Not found" }, flag: { de: "Keine Firma zu diesem Eintrag", en: "No company for this entry" } },
  left: { de: "Offen", en: "Left to do" },
  leftFlag: (e: CompanyDataError): Bilingual => ({
    de: `Noch nicht geprüft (${e.text("de")}); die Prüfung wird damit fortgesetzt.`,
    en: `Not checked yet (${e.text("en")}); the check continues with it.`,
  }),
};

/** An id in a row whose company the service calls something else than the row does. */
const ID_MISMATCH = {
  group: { de: "ID prüfen", en: "Check ID" },
  flag: (id: string, service: string, row: string): Bilingual => ({
    de: `Die ID ${id} gehört zu „${service}“, nicht zu „${row}“; bitte die ID prüfen oder löschen (dann wird der Name neu aufgelöst).`,
    en: `The ID ${id} belongs to "${service}", not to "${row}"; please check the ID or clear it (the name is then resolved again).`,
  }),
};

/**
 * A row's identity in the portfolio (row-key.ts): its name, city, zip and
 * register, which the check never writes; a row with only an id is its id.
 */
function portfolioKey(cells: readonly Cell[], layout: Layout): string {
  const { id: _id, ...input } = layout.input;
  const k = rowKey(cells, input);
  if (k) return k;
  const id = idFromCell(cells[layout.idCol] ?? null);
  if (id) return "id=" + id.id;
  // Something else in the ID cell (an error row): the text itself.
  const raw = String(cells[layout.idCol] ?? "").trim();
  return raw ? "cell=" + raw : "";
}

/**
 * Where the window's rows stand now (1-based sheet rows; null for a row
 * deleted or edited since the table was read), by key with duplicates in
 * order: a fresh read right before the window's write, so a sort during the
 * check never puts a result or an id into another company's row.
 */
function* placeRows(sheetName: string, layout: Layout, keysThen: readonly string[], windowRows: readonly Row[]): Operation<{ pos: (number | null)[]; now: Cell[][] }> {
  const now = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: sheetName, fresh: true });
  if (!now) throw noSuchSheet(sheetName);
  const pairs = pairByKey(keysThen.slice(1), now.slice(1).map((c) => portfolioKey(c, layout)));
  const at = new Map<number, number>();
  pairs.forEach((i, j) => { if (i !== null) at.set(i + 1, j + 2); });
  return { pos: windowRows.map((row) => at.get(row.r) ?? null), now };
}

/** Runs of consecutive entries whose sheet rows follow each other: [start, end) of each, skipping rows that are gone. */
function placedRuns(pos: readonly (number | null)[]): [number, number][] {
  const runs: [number, number][] = [];
  for (let k = 0; k < pos.length; ) {
    if (pos[k] === null) { k++; continue; }
    let end = k + 1;
    while (end < pos.length && pos[end] !== null && pos[end] === pos[end - 1]! + 1) end++;
    runs.push([k, end]);
    k = end;
  }
  return runs;
}

const shortInstant = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

function planFor(id: string, a: Availability, st: CompanyState | null, runId: string): PlanItem {
  const hasFin = a.financials === true && (a.financialYears?.length ?? 0) > 0;
  let item: Omit<PlanItem, "credits">;
  if (!st) item = { id, profile: true, financials: hasFin, changes: false };
  else {
    const changed = changedSince(a.lastChangeDate, st.wm);
    const fin = hasFin && financialsChanged(st.finYears, a.financialYears);
    // This run already holds the profile (its changes call failed): only the changes are still to pay.
    const profile = (changed || fin || st.needProfile === true) && st.profiledRun !== runId;
    item = { id, profile, financials: profile && fin, changes: changed };
  }
  return { ...item, credits: planCredits({ availability: 0, profiles: item.profile && !item.financials ? 1 : 0, profilesWithFinancials: item.financials ? 1 : 0, changes: item.changes ? 1 : 0 }) };
}

function tally(items: Iterable<PlanItem>, availability: number): PortfolioPlanned {
  const p: PortfolioPlanned = { kind: "portfolio", availability, profiles: 0, profilesWithFinancials: 0, changes: 0 };
  for (const i of items) {
    if (i.profile && !i.financials) p.profiles++;
    if (i.financials) p.profilesWithFinancials++;
    if (i.changes) p.changes++;
  }
  return p;
}

function resultCells(lang: Language, row: Row, st: CompanyState | null | undefined, avail: Availability | undefined, err: CompanyDataError | undefined): { cells: Partial<Record<OutputKey, Cell>>; colour: string } {
  if (row.kind === "ambiguous") {
    const t = STATUS_TEXT.ambiguous(row.candidates.length);
    return { cells: { group: t.group[lang], flag: t.flag[lang] }, colour: AMBIGUOUS_COLOUR };
  }
  if (row.kind === "not_found") return { cells: { group: STATUS_TEXT.notFound.group[lang], flag: STATUS_TEXT.notFound.flag[lang] }, colour: GREY };
  if (row.kind === "pending") {
    const flag = STATUS_TEXT.leftFlag(err ?? row.error ?? new CompanyDataError("INTERNAL"))[lang];
    // A company left to do keeps its last result; the flag says it is not newer and why.
    if (!st) return { cells: { group: STATUS_TEXT.left[lang], flag }, colour: GREY };
    const prev = resultCells(lang, { ...row, kind: "company" }, st, avail, undefined);
    return { cells: { ...prev.cells, flag: `${st.result.text[lang]} · ${flag}` }, colour: prev.colour };
  }
  const e = err ?? row.error;
  if (row.kind === "error" || (e && !st)) return { cells: { group: lang === "de" ? "Fehler" : "Error", flag: (e ?? new CompanyDataError("INTERNAL")).text(lang) }, colour: GREY };
  if (!st) return { cells: {}, colour: "" };
  const r = st.result;
  return {
    cells: {
      group: GROUP_LABEL[r.group][lang],
      // A failed refresh keeps the last result and says why it is not newer.
      flag: e ? `${r.text[lang]} · ${e.text(lang)}` : r.text[lang],
      netIncome: r.keyFigure?.netIncome ?? "",
      year: r.keyFigure?.year ?? "",
      lastChange: avail?.lastChangeDate ?? st.lastChange ?? "",
      newChanges: st.newChanges,
      checked: shortInstant(st.checkedAt),
    },
    colour: GROUP_COLOUR[r.group],
  };
}

/** Runs of adjacent columns among `cols` (0-based, any order): each run's first column (1-based) and which entries of `cols` it holds, in column order. */
function adjacentRuns(cols: number[]): { col: number; keys: number[] }[] {
  const order = cols.map((c, k) => ({ c, k })).sort((a, b) => a.c - b.c);
  const runs: { col: number; keys: number[] }[] = [];
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    while (end < order.length && order[end].c === order[end - 1].c + 1) end++;
    runs.push({ col: order[start].c + 1, keys: order.slice(start, end).map((p) => p.k) });
    start = end;
  }
  return runs;
}

/** Write one value per row into some columns: one block per run of adjacent columns. */
function* writeColumns(sheetName: string, firstRow: number, cols: number[], values: Cell[][]): Operation<void> {
  for (const run of adjacentRuns(cols)) {
    yield* sheet({ op: "write", sheet: sheetName, row: firstRow, col: run.col, values: values.map((row) => run.keys.map((k) => row[k])) });
  }
}

function* colourColumns(sheetName: string, firstRow: number, cols: number[], colours: string[][]): Operation<void> {
  for (const run of adjacentRuns(cols)) {
    yield* sheet({ op: "colour", sheet: sheetName, row: firstRow, col: run.col, colours: colours.map((row) => run.keys.map((k) => row[k])) });
  }
}

/** The last run's summary (for the sidebar, and Excel's "is a check due"). */
export function* lastRun(ctx: OpContext): Operation<RunSummary | null> {
  const [raw] = yield* storeGet([LAST_RUN_KEY(ctx)]);
  const last: RunSummary | undefined = readSaved(LAST_RUN, raw);
  return last ?? null;
}

export function* checkPortfolio(ctx: OpContext, opts: CheckOptions = {}): Operation<RunSummary> {
  const lang = ctx.client.language;
  const sheetName = opts.sheet?.trim() || PORTFOLIO_SHEET;
  // No name given: the log in the user's language, or the one kept under the other language's name.
  const changesSheetOpt = opts.changesSheet?.trim() || undefined;
  const windowRows = opts.windowRows ?? DEFAULT_WINDOW_ROWS;
  if (!Number.isInteger(windowRows) || windowRows < 1) throw invalid("windowRows", got(rule.number({ value: 1, inclusive: true }, undefined, true), windowRows));
  const budget = opts.budget ?? null;
  if (budget !== null && (!Number.isInteger(budget) || budget < 0)) throw invalid("budget", got(rule.number({ value: 0, inclusive: true }, undefined, true, "Credits"), budget));
  const preview = opts.preview === true;

  // Monitoring needs today's answers: no cache for availability, profiles and changes.
  let spent = 0;
  let requests = 0;
  const fresh: OpContext = {
    ...ctx,
    cacheTtlSeconds: 0,
    client: {
      ...ctx.client,
      onSpend: (ep, c) => { spent += c; ctx.client.onSpend?.(ep, c); },
      onRequest: (ep) => { requests++; ctx.client.onRequest?.(ep); },
    },
  };
  const nowIso = () => isoInstant(ctx.client.now());

  // ---- 1. the run (a continued run counts its stalled calls) and the table
  const [rawRun] = yield* storeGet([RUN_KEY(ctx)]);
  let run: RunCheckpoint | null = readSaved(RUN_STATE, rawRun) ?? null;
  if (run && run.sheet !== sheetName) run = null;
  const resumed = run !== null;
  if (!run) run = { id: `r${ctx.client.now().toString(36)}`, startedAt: nowIso(), sheet: sheetName };
  const runId = run.id;
  const spentBefore = preview ? 0 : run.spent ?? 0;
  // The last call a run may make for failed calls: what still fails becomes an error row.
  const final = !preview && (run.stalls ?? 0) >= MAX_STALLED_CALLS;

  const table = yield* sheet<Cell[][] | null>({ op: "readAll", sheet: sheetName });
  if (!table) throw noSuchSheet(sheetName);
  const header = table[0] ?? [];
  const layout: Layout = layoutOf(header, lang);
  const keysThen = table.map((c) => portfolioKey(c, layout));
  const rows: Row[] = [];
  const toResolve: { row: Row; q: NonNullable<ReturnType<typeof queryOf>> }[] = [];
  for (let r = 1; r < table.length; r++) {
    const cells = table[r];
    const rawId = cells[layout.idCol] ?? null;
    const idCell = idFromCell(rawId);
    const name = layout.input.name !== undefined ? String(cells[layout.input.name] ?? "").trim() || null : null;
    const row: Row = { r, kind: "empty", id: null, writeId: false, candidates: [], name };
    if (idCell) {
      row.kind = "company";
      row.id = idCell.id;
      row.writeId = !idCell.bare;
      row.fromCell = true;
    } else {
      const q = queryOf(cells, layout.input);
      if (q) toResolve.push({ row, q });
      else if (String(rawId ?? "").trim() !== "") {
        // Something in the ID cell that is no company id, and no name to resolve: say so, never skip the row.
        row.kind = "error";
        row.error = invalid("id", notAnId("company", String(rawId).trim()), { de: "Spalte ID", en: "ID column" });
      }
    }
    rows.push(row);
  }
  if (toResolve.length) {
    const resolved = yield* resolveMany(ctx, toResolve.map((t) => t.q), { mode: "free" });
    resolved.forEach((res, k) => {
      const row = toResolve[k].row;
      if (res.status === "matched" && res.match) {
        row.kind = "company";
        row.id = res.match.id;
        row.writeId = true;
      } else if (res.status === "ambiguous") {
        row.kind = "ambiguous";
        row.candidates = res.candidates;
      } else if (res.status === "not_found") row.kind = "not_found";
      else {
        const e = res.error ?? new CompanyDataError("INTERNAL");
        const o = outcomeOf(e, final);
        row.kind = o === "left" || o === "stop" ? "pending" : o === "notFound" ? "not_found" : "error";
        row.error = e;
      }
    });
  }
  const ids = [...new Set(rows.filter((r) => r.id).map((r) => r.id!))];
  const nameOf = new Map<string, string>();
  for (const r of rows) if (r.id && r.name && !nameOf.has(r.id)) nameOf.set(r.id, r.name);

  // ---- 2. the plan
  if (!preview && !resumed) yield* storePut({ [RUN_KEY(ctx)]: writeSaved(RUN_STATE, run) });

  const states = yield* loadStates(ctx, ids);
  const todo = ids.filter((id) => states.get(id)?.run !== runId);
  const doneBefore = new Set(ids.filter((id) => states.get(id)?.run === runId));
  const avail = new Map<string, Availability | CompanyDataError>();
  for (let i = 0; i < todo.length; i += AVAILABILITY_GROUP) {
    const part = yield* getAvailability(fresh, todo.slice(i, i + AVAILABILITY_GROUP));
    for (const [id, a] of part) avail.set(id, a);
  }
  // Where each company stands when its calls failed: left to do, an error row, or not found.
  const pending = new Map<string, CompanyDataError>();
  const failed = new Map<string, CompanyDataError>();
  const notFound = new Set<string>();
  let stopped: CompanyDataError | null = null;
  const settle = (id: string, e: CompanyDataError) => {
    const o = outcomeOf(e, final);
    if (o === "notFound") notFound.add(id);
    else if (o === "error") failed.set(id, e);
    else {
      pending.set(id, e);
      if (o === "stop") stopped ??= e;
    }
  };
  const plan = new Map<string, PlanItem>();
  for (const id of todo) {
    const a = avail.get(id) ?? new CompanyDataError("INTERNAL");
    if (a instanceof CompanyDataError) settle(id, a);
    else plan.set(id, planFor(id, a, states.get(id) ?? null, runId));
  }
  const planned = tally(plan.values(), todo.length);
  const estimate = planCredits(planned);
  const nameRows = rows.filter((r) => r.kind === "ambiguous" || r.kind === "not_found" || r.kind === "error" || r.kind === "pending");

  const summary: RunSummary = {
    runId, status: "done", startedAt: run.startedAt, finishedAt: null,
    companies: ids.length,
    entries: ids.length + nameRows.length,
    earlier: doneBefore.size,
    withFinancials: [...avail.values()].filter((a) => !(a instanceof CompanyDataError) && a.financials === true && (a.financialYears?.length ?? 0) > 0).length,
    rows: rows.filter((r) => r.kind !== "empty").length,
    checked: 0, unchanged: 0,
    ambiguous: 0, notFound: 0, errors: 0,
    groups: { risk: 0, watch: 0, none: 0 }, newChanges: 0, extraChangePages: 0,
    estimate, plan: planned, spent: 0, runSpent: spentBefore, requests: 0, left: { companies: 0, credits: 0, unpriced: 0 },
    message: { de: "", en: "" },
  };
  const countRows = () => {
    summary.ambiguous = rows.filter((r) => r.kind === "ambiguous").length;
    summary.notFound = rows.filter((r) => r.kind === "not_found").length + notFound.size;
    summary.errors = rows.filter((r) => r.kind === "error").length + failed.size;
  };
  if (preview) {
    countRows();
    const paid = [...plan.values()].filter((p) => p.credits > 0).length;
    const unpricedRows = rows.filter((r) => r.kind === "pending").length;
    summary.status = "preview";
    summary.unchanged = plan.size - paid;
    // What could not be priced counts at the most an entry can cost: the figure shown is a bound, never an undercount.
    const unpriced = pending.size + unpricedRows;
    const bound = estimate + unpriced * MAX_ENTRY_CREDITS;
    summary.left = { companies: paid + unpriced, credits: bound, unpriced };
    const firstPending = [...pending.values()][0] ?? rows.find((r) => r.kind === "pending")?.error;
    summary.message = {
      de: (unpriced ? `Diese Prüfung kostet höchstens ${bound} Credits (${paid} von ${ids.length} Firmen brauchen kostenpflichtige Abfragen: ${estimate} Credits).` : `Diese Prüfung kostet ${estimate} Credits (${paid} von ${ids.length} Firmen brauchen kostenpflichtige Abfragen).`) +
        (unpriced ? ` ${unpriced} Einträge ließen sich gerade nicht prüfen (${firstPending.text("de")}); sie sind mit dem Höchstpreis von ${MAX_ENTRY_CREDITS} Credits je Eintrag eingerechnet, die Prüfung fragt sie erneut ab.` : "") +
        (summary.errors ? ` ${summary.errors} Einträge mit Fehler.` : "") +
        (summary.notFound ? ` ${summary.notFound} nicht gefunden.` : "") +
        (summary.ambiguous ? ` ${summary.ambiguous} mehrdeutig (bitte wählen).` : ""),
      en: (unpriced ? `This check costs at most ${bound} credits (${paid} of ${ids.length} companies need paid calls: ${estimate} credits).` : `This check costs ${estimate} credits (${paid} of ${ids.length} companies need paid calls).`) +
        (unpriced ? ` ${unpriced} entries could not be checked just now (${firstPending.text("en")}); they are counted at the most an entry can cost, ${MAX_ENTRY_CREDITS} credits each, and the check asks again.` : "") +
        (summary.errors ? ` ${summary.errors} entries with errors.` : "") +
        (summary.notFound ? ` ${summary.notFound} not found.` : "") +
        (summary.ambiguous ? ` ${summary.ambiguous} ambiguous (please pick).` : ""),
    };
    return summary;
  }

  // ---- 3. windows
  if (layout.newHeaders.size) {
    const cols = [...layout.newHeaders.keys()];
    yield* writeColumns(sheetName, 1, cols, [cols.map((c) => layout.newHeaders.get(c)!)]);
  }
  const { name: changesSheet, keys: logged } = yield* openLog(lang, changesSheetOpt);
  const deferred = new Set<string>();
  /** Companies this call already handled in an earlier window: a duplicate row is shown, never paid again. */
  const handled = new Set<string>();
  let progress = false;
  let paused = false;
  const outCols = (Object.keys(layout.out) as OutputKey[]);
  let worked = false;

  for (let w = 0; w < rows.length; w += windowRows) {
    // At least one window per call, so a call that spent its time on the free checks still moves on.
    if (opts.deadline !== undefined && worked && ctx.client.now() >= opts.deadline) {
      paused = true;
      break;
    }
    const windowRowsList = rows.slice(w, w + windowRows);
    const windowIds = [...new Set(windowRowsList.filter((r) => r.id && plan.has(r.id) && !handled.has(r.id)).map((r) => r.id!))];
    // A resumed run skips windows it finished before the pause.
    if (windowRowsList.every((r) => r.kind === "empty" || (r.id !== null && doneBefore.has(r.id) && !r.writeId))) continue;
    worked = true;
    for (const id of windowIds) handled.add(id);
    // Budget: defer, in table order, whatever would go over it; once over, defer all paid work.
    const pay: PlanItem[] = [];
    for (const id of windowIds) {
      const p = plan.get(id)!;
      if (p.credits === 0) continue;
      if (stopped || deferred.size > 0 || (budget !== null && spentBefore + spent + pay.reduce((s, x) => s + x.credits, 0) + p.credits > budget)) deferred.add(id);
      else pay.push(p);
    }
    // Paid calls of the window, all in one parallel batch.
    const plain = pay.filter((p) => p.profile && !p.financials).map((p) => p.id);
    const withFin = pay.filter((p) => p.financials).map((p) => p.id);
    const changesOf = pay.filter((p) => p.changes);
    const results = (yield* all<unknown>([
      getProfiles(fresh, plain),
      getProfiles(fresh, withFin, ["financials"]),
      ...changesOf.map((p) => catching(getChanges(fresh, p.id, states.get(p.id)!.wm, CHANGES_PAGE))),
    ])) as [Map<string, Company | CompanyDataError>, Map<string, Company | CompanyDataError>, ...(ChangesResult | CompanyDataError)[]];
    const profiles = new Map([...results[0], ...results[1]]);
    const changes = new Map<string, ChangesResult | CompanyDataError>(changesOf.map((p, k) => [p.id, results[2 + k] as ChangesResult | CompanyDataError]));

    // New change lines first, watermarks after: a crash in between re-fetches, and the line keys keep the log single.
    const lines: LogLine[] = [];
    for (const [id, c] of changes) {
      if (c instanceof CompanyDataError) continue;
      const prof = profiles.get(id);
      const name = prof && !(prof instanceof CompanyDataError) ? prof.name ?? null : states.get(id)?.name ?? nameOf.get(id) ?? null;
      for (const ch of c.changes) lines.push(logLine(id, name, ch));
    }
    // News goes to the alert outbox before the log has it: a line in the log is never news again.
    const channels = opts.alerts ?? [];
    const newLines = channels.length ? lines.filter((l) => !logged.has(l.key)) : [];
    if (newLines.length) yield* noteNews(ctx, channels, { changes: newLines });
    const appended = lines.length ? yield* appendNew(logged, lines, changesSheet) : new Map<string, number>();

    const now = nowIso();
    const updated = new Map<string, CompanyState>();
    for (const id of windowIds) {
      const p = plan.get(id)!;
      const a = avail.get(id) as Availability;
      const st = states.get(id) ?? null;
      if (deferred.has(id)) continue;
      if (p.credits === 0) {
        // Nothing can have changed: keep the result, move the watermark up to now
        // (availability dates the last change before the watermark's day).
        updated.set(id, { ...st!, wm: laterOf(st!.wm, now), lastChange: a.lastChangeDate ?? st!.lastChange, checkedAt: now, run: runId, newChanges: 0 });
        summary.unchanged++;
        progress = true;
        continue;
      }
      const prof = p.profile ? profiles.get(id) : undefined;
      const ch = p.changes ? changes.get(id) : undefined;
      const profErr = prof instanceof CompanyDataError ? prof : undefined;
      const chErr = ch instanceof CompanyDataError ? ch : undefined;
      const c = chErr ? undefined : (ch as ChangesResult | undefined);
      let wm = st ? st.wm : now;
      if (c) {
        for (const x of c.changes) wm = laterOf(wm, x.date);
        // getChanges pages to the end; only if it had to stop early does the watermark stay at the newest entry.
        if (c.complete) wm = laterOf(wm, c.until ?? now);
        // The plan priced one page per company: more than CHANGES_PAGE new changes cost a credit per extra page.
        summary.extraChangePages += c.pages - 1;
      }
      if (profErr || chErr) {
        settle(id, (profErr ?? chErr)!);
        // Keep what was paid for, so a continued run never pays for it twice.
        if (st && c && profErr) {
          // Changes logged, profile failed: the watermark moves, the profile is owed.
          updated.set(id, { ...st, wm, lastChange: a.lastChangeDate ?? st.lastChange, needProfile: true, newChanges: appended.get(id) ?? 0 });
          summary.newChanges += appended.get(id) ?? 0;
          progress = true;
        } else if (st && prof && !profErr && chErr) {
          // Profile fetched, changes failed: keep the new screening, the watermark stays; this run owes only the changes.
          updated.set(id, { ...stateFrom(prof as Company, p, a, st, st.wm, now, st.run, st.newChanges), profiledRun: runId });
          progress = true;
        }
        continue;
      }
      updated.set(id, stateFrom(prof as Company | undefined, p, a, st, wm, now, runId, appended.get(id) ?? 0));
      summary.checked++;
      summary.newChanges += appended.get(id) ?? 0;
      progress = true;
    }
    if (channels.length && updated.size) yield* noteNews(ctx, channels, { moves: movesOf(states, updated, new Set(newLines.map((l) => String(l.row[1])))) });
    if (updated.size) yield* saveStates(ctx, updated);
    for (const [id, s] of updated) states.set(id, s);

    // The window's result columns as one block (+ the ID column where it changed).
    const values: Cell[][] = [];
    const colours: string[][] = [];
    const idValues: Cell[][] = [];
    const kept: boolean[] = [];
    let idChanged = false;
    const dropdowns: string[][] = [];
    let anyDropdown = false;
    for (const row of windowRowsList) {
      const cells = table[row.r];
      const keep = (k: OutputKey) => cells[layout.out[k]] ?? "";
      const id = row.id;
      const isDeferred = id !== null && deferred.has(id);
      const a = id ? avail.get(id) : undefined;
      const shown: Row = id && pending.has(id) ? { ...row, kind: "pending" } : id && notFound.has(id) ? { ...row, kind: "not_found" } : row;
      const err = id ? pending.get(id) ?? failed.get(id) : undefined;
      let rc = isDeferred || row.kind === "empty"
        ? null
        : resultCells(lang, shown, id ? states.get(id) : null, a instanceof CompanyDataError ? undefined : a, err);
      // An id the row brought along is checked against the row's name with the name the profile gave (now or before).
      const serviceName = id && row.fromCell && row.name ? states.get(id)?.name ?? null : null;
      if (rc && serviceName && !namesAgree(row.name!, serviceName)) {
        rc = { cells: { group: ID_MISMATCH.group[lang], flag: ID_MISMATCH.flag(id!, serviceName, row.name!)[lang] }, colour: AMBIGUOUS_COLOUR };
      }
      values.push(outCols.map((k) => (rc ? (rc.cells[k] ?? "") : keep(k))));
      kept.push(!rc);
      colours.push(outCols.map((k) => (rc && (k === "group" || k === "flag") ? rc.colour : "")));
      idValues.push([row.writeId && id ? id : cells[layout.idCol] ?? ""]);
      if (row.writeId && id) idChanged = true;
      if (row.kind === "ambiguous") {
        dropdowns.push(row.candidates.map(candidateLabel));
        anyDropdown = true;
      } else {
        dropdowns.push([]);
        if (row.writeId) anyDropdown = true;
      }
    }
    // The rows where they are now; per run of rows that still follow each other: one block of values,
    // colours only for rows with a new result (deferred and empty rows keep theirs), ids, dropdowns.
    const cols = outCols.map((k) => layout.out[k]);
    const { pos, now: cellsNow } = yield* placeRows(sheetName, layout, keysThen, windowRowsList);
    // Cells the check keeps as they are (no new result, an id not rewritten) are written back as they are now.
    pos.forEach((p, k) => {
      if (p === null) return;
      const current = cellsNow[p - 1] ?? [];
      if (kept[k]) values[k] = outCols.map((key) => current[layout.out[key]] ?? "");
      if (!windowRowsList[k].writeId || !windowRowsList[k].id) idValues[k] = [current[layout.idCol] ?? ""];
    });
    for (const [start, end] of placedRuns(pos)) {
      const at = pos[start]!;
      yield* writeColumns(sheetName, at, cols, values.slice(start, end));
      const recolour = windowRowsList.slice(start, end).map((row) => !(row.kind === "empty" || (row.id !== null && deferred.has(row.id))));
      for (let k = 0; k < recolour.length; ) {
        if (!recolour[k]) { k++; continue; }
        let stop = k;
        while (stop < recolour.length && recolour[stop]) stop++;
        yield* colourColumns(sheetName, at + k, cols, colours.slice(start + k, start + stop));
        k = stop;
      }
      if (idChanged) yield* writeColumns(sheetName, at, [layout.idCol], idValues.slice(start, end));
      if (anyDropdown) yield* sheet({ op: "dropdowns", sheet: sheetName, row: at, col: layout.idCol + 1, options: dropdowns.slice(start, end) });
    }
    for (const row of windowRowsList) row.writeId = false;
  }

  // ---- 4. the summary: every entry is earlier, checked, unchanged, left, an error, not found or ambiguous
  for (const id of ids) {
    const st = states.get(id);
    if (st?.run === runId) summary.groups[st.result.group]++;
  }
  summary.spent = spent;
  summary.runSpent = spentBefore + spent;
  summary.requests = requests;
  countRows();
  const leftIds = todo.filter((id) => states.get(id)?.run !== runId && !failed.has(id) && !notFound.has(id));
  const pendingRows = rows.filter((r) => r.kind === "pending").length;
  summary.left = {
    companies: leftIds.length + pendingRows,
    // Priced again with what this call saved (a company whose profile is in owes only its changes).
    credits: leftIds.reduce((s, id) => {
      const a = avail.get(id);
      return s + (a && !(a instanceof CompanyDataError) ? planFor(id, a, states.get(id) ?? null, runId).credits : 0);
    }, 0),
    unpriced: leftIds.filter((id) => !(avail.get(id) && !(avail.get(id) instanceof CompanyDataError))).length + pendingRows,
  };
  if (stopped) summary.status = "stopped";
  else if (paused) summary.status = "paused";
  else if (deferred.size) summary.status = "budget";
  else if (summary.left.companies > 0) {
    // Only failed calls are left: continue with them (the next call, or the next tick), a bounded number of times.
    summary.status = "paused";
    run.stalls = progress ? 0 : (run.stalls ?? 0) + 1;
  }
  // A paused run carries what it spent so far into its next call.
  if (summary.status === "paused") yield* storePut({ [RUN_KEY(ctx)]: writeSaved(RUN_STATE, { ...run, spent: summary.runSpent }) });
  const firstError = summary.status === "paused" && !paused
    ? [...pending.values()][0] ?? rows.find((r) => r.kind === "pending")?.error ?? null
    : [...failed.values()][0] ?? rows.find((r) => r.kind === "error")?.error ?? null;
  summary.message = messageOf(summary, { stopped, budget, timeUp: paused, firstError });
  if (summary.status !== "paused") {
    summary.finishedAt = nowIso();
    yield* storePut({ [RUN_KEY(ctx)]: null, [LAST_RUN_KEY(ctx)]: writeSaved(LAST_RUN, summary) });
  }
  return summary;
}

/** A company's state after its paid calls; a profile not refetched keeps the stored screening. */
function stateFrom(profile: Company | undefined, p: PlanItem, a: Availability, st: CompanyState | null, wm: string, now: string, run: string, newChanges: number): CompanyState {
  let result: StoredResult;
  if (!profile) result = st!.result;
  else {
    const financials = p.financials ? profile.financials ?? [] : null;
    // Figures not refetched are the stored ones (same years as last time).
    const kf = st?.result.keyFigure;
    const years = a.financialYears ?? [];
    const screened = financials !== null || !st
      ? screen(profile, financials)
      : screen(profile, kf ? [{ year: kf.year, profit: kf.netIncome, revenue: kf.revenue }] : years.length ? [{ year: Math.max(...years), profit: null }] : null);
    result = { group: screened.group, code: screened.flag.code, text: screened.flag.text, keyFigure: screened.keyFigure };
  }
  return {
    v: 1, wm, lastChange: a.lastChangeDate ?? profile?.lastChangeDate ?? st?.lastChange ?? null,
    // Without a new profile the financial years stay those the stored screening is based on.
    finYears: profile ? [...(a.financialYears ?? [])].sort((x, y) => x - y) : st!.finYears,
    name: profile?.name ?? st?.name ?? null, result, checkedAt: now, run,
    newChanges,
  };
}

function messageOf(s: RunSummary, why: { stopped: CompanyDataError | null; budget: number | null; timeUp: boolean; firstError: CompanyDataError | null }): Bilingual {
  const { stopped, budget, timeUp, firstError } = why;
  const extra = s.extraChangePages;
  const base = {
    de: `${s.companies} ${s.companies === 1 ? "Firma" : "Firmen"} (${s.checked} abgefragt, ${s.unchanged} unverändert${s.earlier ? `, ${s.earlier} schon in früheren Schritten dieser Prüfung` : ""}): ${s.groups.risk} Risiko, ${s.groups.watch} beobachten, ${s.groups.none} ohne Auffälligkeiten; ${s.newChanges} ${s.newChanges === 1 ? "neue Änderung" : "neue Änderungen"}. ${s.runSpent} ${s.runSpent === 1 ? "Credit" : "Credits"}${extra ? ` (davon ${extra} für ${extra === 1 ? "eine weitere Seite" : "weitere Seiten"} von Änderungen, je 100 Änderungen einer Firma 1 Credit, über die Schätzung hinaus)` : ""}.`,
    en: `${s.companies} ${s.companies === 1 ? "company" : "companies"} (${s.checked} fetched, ${s.unchanged} unchanged${s.earlier ? `, ${s.earlier} in earlier steps of this check` : ""}): ${s.groups.risk} risk, ${s.groups.watch} watch, ${s.groups.none} no flags; ${s.newChanges} new ${s.newChanges === 1 ? "change" : "changes"}. ${s.runSpent} ${s.runSpent === 1 ? "credit" : "credits"}${extra ? ` (${extra} of them for ${extra === 1 ? "a further page" : "further pages"} of changes, 1 credit per 100 changes of a company, beyond the estimate)` : ""}.`,
  };
  // What did not end as a result: always said, never only counted.
  const tail = {
    de: [
      s.errors ? `${s.errors} Einträge mit Fehler${firstError ? ` (z. B. ${firstError.text("de")})` : ""}, siehe Spalte Hinweis.` : "",
      s.notFound ? `${s.notFound} nicht gefunden.` : "",
      s.ambiguous ? `${s.ambiguous} mehrdeutig (bitte in der ID-Spalte wählen).` : "",
    ].filter(Boolean).join(" "),
    en: [
      s.errors ? `${s.errors} entries with errors${firstError ? ` (e.g. ${firstError.text("en")})` : ""}, see the Flag column.` : "",
      s.notFound ? `${s.notFound} not found.` : "",
      s.ambiguous ? `${s.ambiguous} ambiguous (please pick in the ID column).` : "",
    ].filter(Boolean).join(" "),
  };
  const join = (a: string, b: string, c: string) => [a, b, c].filter(Boolean).join(" ");
  const left = s.left;
  const leftText = {
    de: `${left.companies} Firmen (${left.credits} Credits${left.unpriced ? `, ${left.unpriced} davon noch ohne Preis` : ""})`,
    en: `${left.companies} companies (${left.credits} credits${left.unpriced ? `, ${left.unpriced} of them not priced yet` : ""})`,
  };
  if (s.status === "stopped" && stopped)
    return { de: join(`Abgebrochen: ${stopped.text("de")} Offen: ${leftText.de}.`, base.de, tail.de), en: join(`Stopped: ${stopped.text("en")} Left to do: ${leftText.en}.`, base.en, tail.en) };
  if (s.status === "paused" && timeUp)
    return { de: join(`Zeitlimit erreicht, wird fortgesetzt: noch ${leftText.de}.`, base.de, tail.de), en: join(`Time limit reached, will continue: ${leftText.en} left.`, base.en, tail.en) };
  if (s.status === "paused") {
    const e = firstError;
    return {
      de: join(`Noch nicht alle geprüft${e ? ` (${e.text("de")})` : ""}, wird fortgesetzt: noch ${leftText.de}.`, base.de, tail.de),
      en: join(`Not all checked yet${e ? ` (${e.text("en")})` : ""}, will continue: ${leftText.en} left.`, base.en, tail.en),
    };
  }
  if (s.status === "budget")
    return {
      de: join(`Budget von ${budget} Credits je Lauf erreicht. Offen: ${leftText.de}, sie kommen im nächsten Lauf dran.`, base.de, tail.de),
      en: join(`Per-run budget of ${budget} credits reached. Left to do: ${leftText.en}, picked up by the next run.`, base.en, tail.en),
    };
  return { de: join(base.de, tail.de, ""), en: join(base.en, tail.en, "") };
}

/** A getter that throws becomes a value, so one company's failure never fails the window. */
function* catching<T>(op: Operation<T>): Operation<T | CompanyDataError> {
  try {
    return yield* op;
  } catch (e) {
    return e instanceof CompanyDataError ? e : new CompanyDataError("INTERNAL");
  }
}
