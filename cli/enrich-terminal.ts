/**
 * What the user of `company-data enrich` reads and answers on the terminal
 * around the core's job: the estimate, the balance against it, the yes/no
 * question, the progress line (also after Ctrl-C) and the summary.
 */
import { createInterface } from "node:readline";
import { runAsync, toCompanyDataError, type CompanyDataError } from "../shared/core/index.ts";
import { getAccount, type OpContext } from "../shared/operations/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { EnrichEstimate, OutcomeCounts, StreamEvents } from "../shared/enrich/index.ts";
import { nodeDriver } from "../node/index.ts";
import { ExitError, type Io } from "./io.ts";
import type { Charge, SpendLedger } from "./ledger.ts";
import { collectGarbage } from "./memory.ts";
import { EXIT, ROLE_LABEL, msg, type Summary } from "./i18n.ts";
import { INPUT_ROLES } from "../shared/enrich/index.ts";
import type { Prepared } from "./csv-table.ts";

export function printEstimate(e: EnrichEstimate, lang: Language, line: (s: string) => void) {
  line(msg.estimate[lang](e.rows, e.credits, e.requests, e.paidRequests, e.freeRequests, e.seconds));
  for (const b of e.breakdown) line(msg.estimateLine[lang](b.label[lang], b.credits, b.requests));
}

export /** The state of the enrichment running in this process, for the progress line and the Ctrl-C summary. */
interface RunState {
  phase: "resolve" | "rows";
  namesDone: number;
  namesTotal: number;
  rowsDone: number;
  rowsTotal: number;
  ledger: SpendLedger;
}

let running: RunState | null = null;

/** The enrichment now running (null: none). */
export function setRunning(r: RunState | null): void {
  running = r;
}

/**
 * One line on where the running enrichment stands (rows done, credits so
 * far); null when none runs. The credits are counted at the moment of
 * charging: every paid request from the moment it is written down in the
 * intent journal, before it is sent (the service charges it when it arrives,
 * long before its answer is back), so the figure is never below what the
 * service has charged, and above it by at most the credits still in flight,
 * which the line names. `settled`: none is in flight any more (after Ctrl-C),
 * so paid requests without an answer are lost ones, named as such.
 */
export function runStatus(lang: Language, settled = false): string | null {
  const r = running;
  if (!r) return null;
  const c = r.ledger.charge();
  const spent = c.answered + c.unanswered;
  const inFlight = settled ? 0 : c.inFlight;
  const lost = c.unanswered - inFlight;
  return r.phase === "resolve"
    ? msg.progressNames[lang](r.namesDone, r.namesTotal, spent, lost, inFlight)
    : msg.progressRows[lang](r.rowsDone, r.rowsTotal, spent, lost, inFlight);
}

/**
 * The free balance against the estimate, before anything is spent. When it
 * does not cover the estimate, the user reads so, and how far it will get,
 * before the question (at a terminal) or before the spending (`--yes`).
 * Policy with `--yes` (decided, cli/README.md): the run goes ahead as far as
 * the balance goes, as a run that runs out midway always has (rows done kept,
 * the rest marked "not enriched: out of credits", finished after a top-up
 * without paying twice), but never silently: the shortfall is said first.
 * A balance that cannot be read is said too; a rejected key ends the run.
 */
export async function checkBalance(
  ctx: OpContext,
  e: EnrichEstimate,
  args: { lang: Language; yes: boolean },
  io: Io,
): Promise<void> {
  const lang = args.lang;
  let balance: number;
  try {
    balance = (await runAsync(getAccount(ctx), nodeDriver())).credits;
  } catch (err) {
    const c = toCompanyDataError(err);
    if (c.code === "MISSING_KEY" || c.code === "INVALID_KEY") throw c;
    io.err(msg.balanceUnknown[lang](c.text(lang).replace(/\.$/, "")));
    return;
  }
  if (balance >= e.credits) return;
  // Rows in proportion to the credits: a rough figure ("about"), as rows differ in what they cost.
  const far = Math.min(e.rows, Math.floor((e.rows * Math.max(0, balance)) / e.credits));
  // Through a team server the figure is what its budgets let this user spend: the admin's to raise, not a balance to top up.
  const short = ctx.client.credential === "serverToken" ? msg.teamBudgetShort : msg.balanceShort;
  io.err(short[lang](balance, e.credits, far, e.rows));
  if (args.yes) io.err(msg.balanceShortYes[lang]);
}

/** A yes/no question on the terminal. */
export function askOnTerminal() {
  return (question: string) =>
    new Promise<boolean>((res) => {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      rl.question(question, (answer) => {
        rl.close();
        res(/^(y|yes|j|ja)$/i.test(answer.trim()));
      });
    });
}

/** "Firmenname=Firma, Ort=Ort": each recognised role in the user's language, then the column it was found in. */
function describeMapping(p: Prepared, lang: Language): string {
  return INPUT_ROLES.filter((r) => p.mapping[r] !== undefined)
    .map((r) => `${ROLE_LABEL[r][lang]}=${p.header[p.mapping[r]!]}`)
    .join(", ");
}

/** The columns recognised, and an encoding other than UTF-8, said before the estimate. */
export function sayColumns(p: Prepared, lang: Language, io: Io) {
  io.err(msg.columns[lang](describeMapping(p, lang)));
  if (p.encoding !== "utf-8") io.err(msg.encodingUsed[lang](p.encoding));
}

/** The estimate said, the balance checked, and the user's yes (or --yes) before anything is spent. */
export async function confirm(
  e: EnrichEstimate,
  args: { lang: Language; yes: boolean },
  ctx: OpContext,
  io: Io,
  interactive: boolean,
): Promise<void> {
  printEstimate(e, args.lang, (s) => io.err(s));
  collectGarbage();
  if (e.credits > 0) await checkBalance(ctx, e, args, io);
  if (e.credits > 0 && !args.yes) {
    const ok = interactive && io.ask ? await io.ask(msg.confirm[args.lang]) : false;
    if (!ok) throw new ExitError(EXIT.NOT_CONFIRMED, msg.notConfirmed[args.lang]);
  }
}

/** The job's progress onto the running state (the progress line, Ctrl-C) and the terminal's bar; `rows` the estimate's. */
export function progressEvents(state: RunState, rows: number, lang: Language, io: Io): StreamEvents {
  let total = rows;
  let done = 0;
  return {
    names: (d, t) => {
      state.namesDone = d;
      state.namesTotal = t;
      collectGarbage();
    },
    // The names are matched: the profiles' price is now exact (each company once, less what the run holds).
    matched: (after) => io.err(after.text[lang]),
    rows: (kept, worked) => {
      state.phase = "rows";
      state.rowsDone = kept;
      done += worked;
      total = Math.max(total, done);
      io.progress?.(done, total);
    },
  };
}

/** The summary: the output's rows by outcome (from the job) and the whole job's charge (the intent journal); the exit code. */
export function sayDone(
  counts: OutcomeCounts,
  charge: Charge,
  out: string,
  lang: Language,
  io: Io,
  refusal?: CompanyDataError,
): number {
  // A row without a status (other) or left unbought would be a bug; counted so the summary never hides it.
  const summary: Summary = {
    ...counts,
    other: counts.other + counts.unbought,
    credits: charge.answered + charge.unanswered,
    unanswered: charge.unanswered,
    out,
  };
  if (counts.outOfCredits > 0) {
    // Through a team server: what it refused by (the budget, what is left, the price) and its admin, never a top-up.
    if (refusal?.details.teamServer) io.err(msg.outOfTeamBudget[lang](summary, refusal.text(lang)));
    else io.err(msg.outOfCredits[lang](summary));
    return EXIT.OUT_OF_CREDITS;
  }
  io.err(msg.done[lang](summary));
  return EXIT.OK;
}
