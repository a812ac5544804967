/**
 * Step 4 of the portfolio check: account for every entry and say it in both
 * languages. Every entry (a distinct company, or a row whose name did not
 * resolve to one) ends a call as exactly one of earlier, checked, unchanged,
 * left, errors, notFound, ambiguous (see RunSummary): the counts are read off
 * the rows and each company's state (check-progress.ts), so they add up to
 * `entries` by construction.
 */
import { CompanyDataError } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { pricedOf, type PortfolioProgress } from "./check-progress.ts";
import type { Row } from "./check-read.ts";
import { planFor } from "./check-plan.ts";
import type { RunSummary } from "./check-types.ts";
import { MAX_ENTRY_CREDITS, type PortfolioPlanned } from "./estimate.ts";
import type { CompanyState } from "./watermark.ts";

/** Rows that are entries of their own: a name that did not resolve to a company. */
const isNameEntry = (r: Row) =>
  r.kind === "ambiguous" || r.kind === "not_found" || r.kind === "error" || r.kind === "pending";

/** The summary at the start of a call, once the plan is known: nothing done yet. */
export function startSummary(s: {
  runId: string;
  startedAt: string;
  rows: readonly Row[];
  companies: number;
  progress: PortfolioProgress;
  withFinancials: number;
  estimate: number;
  planned: PortfolioPlanned;
  spentBefore: number;
}): RunSummary {
  return {
    runId: s.runId,
    status: "done",
    startedAt: s.startedAt,
    finishedAt: null,
    companies: s.companies,
    entries: s.companies + s.rows.filter(isNameEntry).length,
    earlier: s.progress.count("earlier"),
    withFinancials: s.withFinancials,
    rows: s.rows.filter((r) => r.kind !== "empty").length,
    checked: 0,
    unchanged: 0,
    ambiguous: 0,
    notFound: 0,
    errors: 0,
    groups: { risk: 0, watch: 0, none: 0 },
    newChanges: 0,
    extraChangePages: 0,
    estimate: s.estimate,
    plan: s.planned,
    spent: 0,
    runSpent: s.spentBefore,
    requests: 0,
    left: { companies: 0, credits: 0, unpriced: 0 },
    message: { de: "", en: "" },
  };
}

/** Entries that did not become a company: ambiguous and not-found names, errors of rows and of companies. */
function countEntries(summary: RunSummary, rows: readonly Row[], progress: PortfolioProgress): void {
  summary.ambiguous = rows.filter((r) => r.kind === "ambiguous").length;
  summary.notFound = rows.filter((r) => r.kind === "not_found").length + progress.count("notFound");
  summary.errors = rows.filter((r) => r.kind === "error").length + progress.count("failed");
}

/** The first error of a name row of this kind (rows whose resolve failed). */
const firstRowError = (rows: readonly Row[], kind: "pending" | "error") =>
  rows.find((r) => r.kind === kind)?.error ?? null;

/** A preview: the price of the run, with what could not be priced counted at the most an entry can cost. */
export function previewSummary(summary: RunSummary, rows: readonly Row[], progress: PortfolioProgress): RunSummary {
  countEntries(summary, rows, progress);
  const estimate = summary.estimate;
  const companies = summary.companies;
  const planned = progress.ids("todo").flatMap((id) => pricedOf(progress.get(id)) ?? []);
  const paid = planned.filter((p) => p.plan.credits > 0).length;
  const unpricedRows = rows.filter((r) => r.kind === "pending").length;
  summary.status = "preview";
  summary.unchanged = planned.length - paid;
  // What could not be priced counts at the most an entry can cost: the figure shown is a bound, never an undercount.
  const unpriced = progress.count("left") + unpricedRows;
  const bound = estimate + unpriced * MAX_ENTRY_CREDITS;
  summary.left = { companies: paid + unpriced, credits: bound, unpriced };
  // Something unpriced always has its error: a company left to do, or a name row whose resolve failed.
  const firstPending =
    progress.firstError("left") ?? firstRowError(rows, "pending") ?? new CompanyDataError("INTERNAL");
  summary.message = {
    de:
      (unpriced
        ? `Diese Prüfung kostet höchstens ${bound} Credits (${paid} von ${companies} Firmen brauchen kostenpflichtige Abfragen: ${estimate} Credits).`
        : `Diese Prüfung kostet ${estimate} Credits (${paid} von ${companies} Firmen brauchen kostenpflichtige Abfragen).`) +
      (unpriced
        ? ` ${unpriced} Einträge ließen sich gerade nicht prüfen (${firstPending.text("de")}); sie sind mit dem Höchstpreis von ${MAX_ENTRY_CREDITS} Credits je Eintrag eingerechnet, die Prüfung fragt sie erneut ab.`
        : "") +
      (summary.errors ? ` ${summary.errors} Einträge mit Fehler.` : "") +
      (summary.notFound ? ` ${summary.notFound} nicht gefunden.` : "") +
      (summary.ambiguous ? ` ${summary.ambiguous} mehrdeutig (bitte wählen).` : ""),
    en:
      (unpriced
        ? `This check costs at most ${bound} credits (${paid} of ${companies} companies need paid calls: ${estimate} credits).`
        : `This check costs ${estimate} credits (${paid} of ${companies} companies need paid calls).`) +
      (unpriced
        ? ` ${unpriced} entries could not be checked just now (${firstPending.text("en")}); they are counted at the most an entry can cost, ${MAX_ENTRY_CREDITS} credits each, and the check asks again.`
        : "") +
      (summary.errors ? ` ${summary.errors} entries with errors.` : "") +
      (summary.notFound ? ` ${summary.notFound} not found.` : "") +
      (summary.ambiguous ? ` ${summary.ambiguous} ambiguous (please pick).` : ""),
  };
  return summary;
}

/** How a call ended besides its counts. */
export interface CallEnd {
  runId: string;
  ids: readonly string[];
  rows: readonly Row[];
  progress: PortfolioProgress;
  states: ReadonlyMap<string, CompanyState | null>;
  spent: number;
  spentBefore: number;
  requests: number;
  newChanges: number;
  extraChangePages: number;
  budget: number | null;
  /** The deadline stopped the call before its last window. */
  timeUp: boolean;
}

/**
 * The counts, what is left, the status and the message of a finished call.
 * The caller stores the run (paused) or the last summary (otherwise).
 */
export function finishSummary(summary: RunSummary, end: CallEnd): RunSummary {
  const { progress, rows, states, runId } = end;
  for (const id of end.ids) {
    const st = states.get(id);
    if (st?.run === runId) summary.groups[st.result.group]++;
  }
  summary.checked = progress.count("checked");
  summary.unchanged = progress.count("unchanged");
  summary.newChanges = end.newChanges;
  summary.extraChangePages = end.extraChangePages;
  summary.spent = end.spent;
  summary.runSpent = end.spentBefore + end.spent;
  summary.requests = end.requests;
  countEntries(summary, rows, progress);
  // Left: not reached, deferred, or failed for a passing reason (a company whose paid work was partly kept too).
  const leftIds = progress.ids("todo", "deferred", "left").filter((id) => states.get(id)?.run !== runId);
  const pendingRows = rows.filter((r) => r.kind === "pending").length;
  const pricedLeft = leftIds.flatMap((id) => pricedOf(progress.get(id)) ?? []);
  summary.left = {
    companies: leftIds.length + pendingRows,
    // Priced again with what this call saved (a company whose profile is in owes only its changes).
    credits: pricedLeft.reduce(
      (s, p) => s + planFor(p.plan.id, p.avail, states.get(p.plan.id) ?? null, runId).credits,
      0,
    ),
    unpriced: leftIds.length - pricedLeft.length + pendingRows,
  };
  const stopped = progress.stopped;
  if (stopped) summary.status = "stopped";
  else if (end.timeUp) summary.status = "paused";
  else if (progress.count("deferred")) summary.status = "budget";
  // Only failed calls are left: continue with them (the next call, or the next tick), a bounded number of times.
  else if (summary.left.companies > 0) summary.status = "paused";
  const firstError =
    summary.status === "paused" && !end.timeUp
      ? (progress.firstError("left") ?? firstRowError(rows, "pending"))
      : (progress.firstError("failed") ?? firstRowError(rows, "error"));
  summary.message = messageOf(summary, { stopped, budget: end.budget, timeUp: end.timeUp, firstError });
  return summary;
}

interface StopReason {
  stopped: CompanyDataError | null;
  budget: number | null;
  timeUp: boolean;
  firstError: CompanyDataError | null;
}

/** What the run found and paid, in both languages. */
function foundText(s: RunSummary): Bilingual {
  const extra = s.extraChangePages;
  return {
    de: `${s.companies} ${s.companies === 1 ? "Firma" : "Firmen"} (${s.checked} abgefragt, ${s.unchanged} unverändert${s.earlier ? `, ${s.earlier} schon in früheren Schritten dieser Prüfung` : ""}): ${s.groups.risk} Risiko, ${s.groups.watch} beobachten, ${s.groups.none} ohne Auffälligkeiten; ${s.newChanges} ${s.newChanges === 1 ? "neue Änderung" : "neue Änderungen"}. ${s.runSpent} ${s.runSpent === 1 ? "Credit" : "Credits"}${extra ? ` (davon ${extra} für ${extra === 1 ? "eine weitere Seite" : "weitere Seiten"} von Änderungen, je 100 Änderungen einer Firma 1 Credit, über die Schätzung hinaus)` : ""}.`,
    en: `${s.companies} ${s.companies === 1 ? "company" : "companies"} (${s.checked} fetched, ${s.unchanged} unchanged${s.earlier ? `, ${s.earlier} in earlier steps of this check` : ""}): ${s.groups.risk} risk, ${s.groups.watch} watch, ${s.groups.none} no flags; ${s.newChanges} new ${s.newChanges === 1 ? "change" : "changes"}. ${s.runSpent} ${s.runSpent === 1 ? "credit" : "credits"}${extra ? ` (${extra} of them for ${extra === 1 ? "a further page" : "further pages"} of changes, 1 credit per 100 changes of a company, beyond the estimate)` : ""}.`,
  };
}

/** What did not end as a result: always said, never only counted. */
function unresolvedText(s: RunSummary, firstError: CompanyDataError | null): Bilingual {
  return {
    de: [
      s.errors
        ? `${s.errors} Einträge mit Fehler${firstError ? ` (z. B. ${firstError.text("de")})` : ""}, siehe Spalte Hinweis.`
        : "",
      s.notFound ? `${s.notFound} nicht gefunden.` : "",
      s.ambiguous ? `${s.ambiguous} mehrdeutig (bitte in der ID-Spalte wählen).` : "",
    ]
      .filter(Boolean)
      .join(" "),
    en: [
      s.errors
        ? `${s.errors} entries with errors${firstError ? ` (e.g. ${firstError.text("en")})` : ""}, see the Flag column.`
        : "",
      s.notFound ? `${s.notFound} not found.` : "",
      s.ambiguous ? `${s.ambiguous} ambiguous (please pick in the ID column).` : "",
    ]
      .filter(Boolean)
      .join(" "),
  };
}

function messageOf(s: RunSummary, why: StopReason): Bilingual {
  const { stopped, budget, timeUp, firstError } = why;
  const base = foundText(s);
  const tail = unresolvedText(s, firstError);
  const join = (a: string, b: string, c: string) => [a, b, c].filter(Boolean).join(" ");
  const left = s.left;
  const leftText = {
    de: `${left.companies} Firmen (${left.credits} Credits${left.unpriced ? `, ${left.unpriced} davon noch ohne Preis` : ""})`,
    en: `${left.companies} companies (${left.credits} credits${left.unpriced ? `, ${left.unpriced} of them not priced yet` : ""})`,
  };
  if (s.status === "stopped" && stopped)
    return {
      de: join(`Abgebrochen: ${stopped.text("de")} Offen: ${leftText.de}.`, base.de, tail.de),
      en: join(`Stopped: ${stopped.text("en")} Left to do: ${leftText.en}.`, base.en, tail.en),
    };
  if (s.status === "paused" && timeUp)
    return {
      de: join(`Zeitlimit erreicht, wird fortgesetzt: noch ${leftText.de}.`, base.de, tail.de),
      en: join(`Time limit reached, will continue: ${leftText.en} left.`, base.en, tail.en),
    };
  if (s.status === "paused") {
    const e = firstError;
    return {
      de: join(
        `Noch nicht alle geprüft${e ? ` (${e.text("de")})` : ""}, wird fortgesetzt: noch ${leftText.de}.`,
        base.de,
        tail.de,
      ),
      en: join(
        `Not all checked yet${e ? ` (${e.text("en")})` : ""}, will continue: ${leftText.en} left.`,
        base.en,
        tail.en,
      ),
    };
  }
  if (s.status === "budget")
    return {
      de: join(
        `Budget von ${budget} Credits je Lauf erreicht. Offen: ${leftText.de}, sie kommen im nächsten Lauf dran.`,
        base.de,
        tail.de,
      ),
      en: join(
        `Per-run budget of ${budget} credits reached. Left to do: ${leftText.en}, picked up by the next run.`,
        base.en,
        tail.en,
      ),
    };
  return { de: join(base.de, tail.de, ""), en: join(base.en, tail.en, "") };
}
