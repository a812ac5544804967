/**
 * `company-data enrich` and `company-data estimate enrich`: argument
 * handling, the run's outer shell (the lock, the intent journal, the user's
 * yes between the job's plan and its run) and the file adapters handed to
 * the job. The job itself, every decision of it, is the core's streamed job
 * (shared/enrich/job-stream.ts): whether a run resumes (same input content,
 * a hash, never its mtime), starts over (the user fixed a row after Ctrl-C:
 * what it paid for is reused) or starts afresh; which earlier outputs are
 * reused; the estimate; which names are resolved ahead in full batch calls;
 * which rows are worked on; that a chunk's rows are appended and synced
 * before its checkpoint moves, and the journalled answers go only after
 * that; the counts; OUT.partial replacing OUT at the end. It gets its I/O as
 * effects: the CSV as its table (./csv-stream.ts over ./csv-table.ts) and
 * its document store as files (./enrich-files.ts). Answers paid for in an
 * unfinished chunk are journalled (OUT.journal.jsonl, ../node/driver.ts) and
 * replayed, so nothing is bought twice; every paid request is written down
 * before it is sent and its answer when it arrives (OUT.spent, ./ledger.ts),
 * so the summary's credits are the whole job's charge across an interrupted
 * run and its resume. OUT.lock keeps a second process off the same output.
 * The terminal (estimate, balance, question, progress, summary) is
 * ./enrich-terminal.ts.
 */
import { runAsync, type AsyncDriver } from "../shared/core/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import { noticingRefusals, type SeenRefusal } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { coreDeps, StreamJob, teamEstimate, teamPriceOf } from "../shared/enrich/index.ts";
import type { EnrichEstimate, OutcomeCounts, Rerun } from "../shared/enrich/index.ts";
import { csvExit, prepare, type Prepared } from "./csv-table.ts";
import { CsvTable } from "./csv-stream.ts";
import { acquireLock, DEFAULT_PARALLEL, diskFullIn, nodeDriver, riskCredits } from "../node/index.ts";
import type { Encoding } from "./encoding.ts";
import { checkInputIsNoOutput, EnrichStore, paths, type EnrichFiles } from "./enrich-files.ts";
import { ExitError, type Io } from "./io.ts";
import { SpendLedger } from "./ledger.ts";
import { EXIT, msg } from "./i18n.ts";
import { confirm, printEstimate, progressEvents, runStatus, sayColumns, sayDone } from "./enrich-terminal.ts";
import { setRunning, type RunState } from "./enrich-terminal.ts";

export { CHUNK_ROWS } from "./csv-table.ts";

export interface EnrichArgs {
  input: string;
  output?: string;
  fields: string[];
  mode: "batch" | "free";
  rerun: Rerun;
  yes: boolean;
  lang: Language;
  /** Requests in flight at once (node/driver.ts DEFAULT_PARALLEL when absent). */
  parallel?: number;
  /** The input's encoding; detected (./encoding.ts) when absent. */
  encoding?: Encoding;
}

const jobOf = (p: Prepared, args: EnrichArgs) =>
  new StreamJob({ ...p, fieldIds: args.fields, mode: args.mode, rerun: args.rerun, lang: args.lang });

/** Plan the job (the core decides how it starts and prices the rest); the CSV's errors said with the file. */
async function plan(job: StreamJob, csv: CsvTable, driver: AsyncDriver, args: EnrichArgs) {
  try {
    return await runAsync(job.plan(Date.now()), { ...driver, table: csv.request });
  } catch (e) {
    throw csvExit(e, args.input, args.lang);
  }
}

/**
 * Through a team server, the price of what `plan` priced against the team's shared answers
 * (shared/enrich/team-estimate.ts): what the team holds costs 0. Otherwise, or when the server
 * does not answer it, the job's own estimate.
 */
async function teamPriced(job: StreamJob, e: EnrichEstimate, args: EnrichArgs, ctx: OpContext | null) {
  const tasks = job.pricedTasks();
  if (!ctx || ctx.client.credential !== "serverToken" || !tasks) return e;
  const team = await runAsync(teamEstimate(ctx.client, tasks, { fields: args.fields, maxBatch: 100 }), nodeDriver());
  return team ? teamPriceOf(team, args.mode) : e;
}

/** `company-data estimate enrich`: spends nothing and needs no key (with a team server's token: the team's price). */
export async function estimateCommand(args: EnrichArgs, io: Io, ctx: OpContext | null = null): Promise<number> {
  const p = await prepare(args.input, args.fields, args.lang, args.encoding);
  const csv = new CsvTable(args.input, p, args.output, null);
  sayColumns(p, args.lang, io);
  try {
    const job = jobOf(p, args);
    const { estimate } = await plan(job, csv, nodeDriver(), args);
    printEstimate(await teamPriced(job, estimate, args, ctx), args.lang, (s) => io.out(s));
  } finally {
    await csv.close();
  }
  return EXIT.OK;
}

/** `company-data enrich`. */
export async function enrichCommand(args: EnrichArgs, ctx: OpContext, io: Io, interactive: boolean): Promise<number> {
  const lang = args.lang;
  const out = args.output!;
  checkInputIsNoOutput(args.input, out, lang);
  const files = paths(out);
  let lock: ReturnType<typeof acquireLock>;
  try {
    lock = acquireLock(files.lock);
  } catch (e) {
    // The output's folder is missing or not writable: said before anything is read or spent.
    const code = (e as NodeJS.ErrnoException)?.code;
    if (code === "ENOENT" || code === "EACCES" || code === "EROFS" || code === "ENOTDIR")
      throw new ExitError(EXIT.USAGE, msg.cannotWrite[lang](out));
    throw e;
  }
  if (!lock.ok) throw new ExitError(EXIT.LOCKED, msg.locked[lang](out, lock.owner?.pid ?? null, files.lock));
  const progress = io.progressEveryMs
    ? setInterval(() => {
        const s = runStatus(lang);
        if (s) io.err(s);
      }, io.progressEveryMs)
    : null;
  progress?.unref();
  try {
    return await enrichLocked(args, ctx, io, interactive, files);
  } catch (e) {
    // A full disk: said with the file; what is on disk (journals, rows, checkpoint) stays for the rerun.
    const full = diskFullIn(e);
    if (full) throw new ExitError(EXIT.DISK_FULL, msg.diskFull[lang](full.file));
    throw e;
  } finally {
    if (progress) clearInterval(progress);
    setRunning(null);
    lock.release();
  }
}

async function enrichLocked(args: EnrichArgs, ctx: OpContext, io: Io, interactive: boolean, files: EnrichFiles) {
  const lang = args.lang;
  const p = await prepare(args.input, args.fields, lang, args.encoding);
  const store = new EnrichStore(files);
  const csv = new CsvTable(args.input, p, args.output, files);
  try {
    return await enrichWith(args, ctx, io, interactive, { p, files, store, csv });
  } finally {
    await csv.close();
  }
}

async function enrichWith(
  args: EnrichArgs,
  ctx: OpContext,
  io: Io,
  interactive: boolean,
  { p, files, store, csv }: { p: Prepared; files: EnrichFiles; store: EnrichStore; csv: CsvTable },
) {
  const lang = args.lang;
  const job = jobOf(p, args);
  const planned = await plan(job, csv, store.driver(nodeDriver()), args);
  const { start, rowsDone, inputRows } = planned;
  const e = await teamPriced(job, planned.estimate, args, ctx);
  sayColumns(p, lang, io);
  // The intent journal of the whole job: continued on a resume or restart, so its summary covers every run.
  const ledger = new SpendLedger(files.spent, start !== "fresh");
  const sofar = ledger.charge();
  if (start === "resume") io.err(msg.resuming[lang](rowsDone, sofar.answered + sofar.unanswered, sofar.unanswered));
  if (start === "restart") io.err(msg.restarting[lang](sofar.answered + sofar.unanswered, sofar.unanswered));
  // The estimate comes first (on a resume: of what is left), and nothing is spent before the answer.
  await confirm(e, args, ctx, io, interactive);

  const parallel = args.parallel ?? DEFAULT_PARALLEL;
  const answers = nodeDriver({
    journal: files.journal,
    parallel,
    riskCredits: riskCredits(e.credits),
    beforeSend: ledger.beforeSend,
    onAnswer: ledger.onAnswer,
    onKept: ledger.kept,
  });
  csv.hooks = {
    settled: (all) => answers.clearJournal(all),
    finishing: () => {
      ledger.close();
      answers.closeJournal();
    },
  };
  const state: RunState = { phase: "resolve", namesDone: 0, namesTotal: 0, rowsDone, rowsTotal: inputRows, ledger };
  setRunning(state);
  let counts: OutcomeCounts;
  // The refusal that stopped the run, as the service said it (a team server: the budget and what is left).
  const refused: SeenRefusal = {};
  try {
    const events = progressEvents(state, e.rows, lang, io);
    const run = noticingRefusals(ctx.client, job.run(coreDeps, ctx, parallel, events), refused);
    counts = await runAsync(run, { ...store.driver(answers), table: csv.request });
  } catch (err) {
    throw csvExit(err, args.input, lang);
  }
  return sayDone(counts, ledger.charge(), args.output!, lang, io, refused.error);
}
