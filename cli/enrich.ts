/**
 * `company-data enrich` and `company-data estimate enrich`: argument
 * handling, the terminal (estimate, question, progress, summary) and the
 * run's outer shell (the lock, the intent journal, the balance). The job
 * itself is the core's streamed job (shared/enrich/job-stream.ts), handed its
 * I/O as adapters: the CSV as its table (./csv-table.ts: lines read in
 * chunks of 1,000, each paired by row key with what an earlier output left)
 * and its document store as files (./enrich-files.ts: the checkpoint, the
 * resolve phase's answers). The job decides whether a run resumes (same
 * input content, a hash, never its mtime: a `touch` or a re-save resumes),
 * starts over (the user fixed a row after Ctrl-C: what it paid for is
 * reused) or starts afresh; which earlier outputs are reused; which names
 * are resolved ahead in full batch calls; which rows are worked on. Here each
 * chunk's output rows are appended to OUT.partial and synced, and only then
 * does the job move its checkpoint; a kill at any point resumes from the
 * last one (OUT.partial is cut back to it). Answers paid for in an unfinished
 * chunk are journalled (OUT.journal.jsonl, ./driver.ts) and replayed, so
 * nothing is bought twice; every paid request is written down before it is
 * sent and its answer when it arrives (OUT.spent, ./ledger.ts), so the
 * summary's credits are the whole job's charge across an interrupted run and
 * its resume, with what a crash may have cost named. When the run completes,
 * OUT.partial replaces OUT. OUT.lock keeps a second process off the same
 * output.
 */
import { existsSync, fstatSync, fsyncSync, openSync, closeSync, renameSync, statSync } from "node:fs";
import { truncateSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { runAsync } from "../shared/core/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { coreDeps, StreamJob, type Rerun } from "../shared/enrich/index.ts";
import { formatRow } from "./csv.ts";
import { csvExit, countOutcomes, loadEarlier, prepare, readLines, rememberWritten } from "./csv-table.ts";
import { usablePrevious, type Earlier, type Prepared } from "./csv-table.ts";
import { DEFAULT_PARALLEL, nodeDriver } from "./driver.ts";
import type { Encoding } from "./encoding.ts";
import { checkInputIsNoOutput, contentHash, EnrichStore, paths, type EnrichFiles } from "./enrich-files.ts";
import { ExitError, type Io } from "./io.ts";
import { SpendLedger } from "./ledger.ts";
import { acquireLock } from "./lock.ts";
import { diskFullIn, written } from "./disk.ts";
import { collectGarbage } from "./memory.ts";
import { EXIT, msg, type Summary } from "./i18n.ts";
import { checkBalance, printEstimate, runStatus, sayColumns, setRunning, type RunState } from "./enrich-terminal.ts";

export { CHUNK_ROWS } from "./csv-table.ts";

export interface EnrichArgs {
  input: string;
  output?: string;
  fields: string[];
  mode: "batch" | "free";
  rerun: Rerun;
  yes: boolean;
  lang: Language;
  /** Requests in flight at once (cli/driver.ts DEFAULT_PARALLEL when absent). */
  parallel?: number;
  /** The input's encoding; detected (./encoding.ts) when absent. */
  encoding?: Encoding;
}

const jobOf = (p: Prepared, args: EnrichArgs) =>
  new StreamJob({ ...p, fieldIds: args.fields, mode: args.mode, rerun: args.rerun, lang: args.lang });

/** The estimate pass: the input read once, from the first row the job has not kept. */
async function estimatePass(args: EnrichArgs, p: Prepared, earlier: Earlier | null, job: StreamJob) {
  try {
    for await (const lines of readLines(args.input, p, earlier, job.rowsDone)) {
      job.estimateLines(lines, Date.now());
      collectGarbage();
    }
  } catch (e) {
    throw csvExit(e, args.input, args.lang);
  }
  return job.estimate();
}

/** `company-data estimate enrich`: spends nothing and needs no key. */
export async function estimateCommand(args: EnrichArgs, io: Io): Promise<number> {
  const p = await prepare(args.input, args.fields, args.lang, args.encoding);
  let earlier: Earlier | null = null;
  try {
    earlier =
      args.output && (await usablePrevious(args.output, p)) ? await loadEarlier([args.output], args.input, p) : null;
  } catch (e) {
    throw csvExit(e, args.input, args.lang);
  }
  sayColumns(p, args.lang, io);
  const { estimate } = await estimatePass(args, p, earlier, jobOf(p, args));
  printEstimate(estimate, args.lang, (s) => io.out(s));
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

/** The job opened on this input and its files; the unfinished output cut back and the earlier outputs read. */
async function openJob(args: EnrichArgs, p: Prepared, files: EnrichFiles, store: EnrichStore) {
  const out = args.output!;
  const job = jobOf(p, args);
  const start = await runAsync(
    job.open({
      input: resolvePath(args.input),
      content: await contentHash(args.input),
      encoding: p.encoding,
      unfinishedSize: existsSync(files.partial) ? statSync(files.partial).size : null,
      unfinishedUsable: await usablePrevious(files.partial, p),
      finishedUsable: await usablePrevious(out, p),
    }),
    store.driver(nodeDriver()),
  );
  if (job.cut !== null) truncateSync(files.partial, job.cut);
  let earlier: Earlier | null = null;
  try {
    const sources = job.earlier.map((s) => (s === "unfinished" ? files.partial : out));
    earlier = sources.length ? await loadEarlier(sources, args.input, p) : null;
    if (start === "resume") await rememberWritten(args.input, p, files.partial, job);
  } catch (e) {
    throw csvExit(e, args.input, args.lang);
  }
  return { job, start, earlier };
}

async function enrichLocked(args: EnrichArgs, ctx: OpContext, io: Io, interactive: boolean, files: EnrichFiles) {
  const lang = args.lang;
  const out = args.output!;
  const p = await prepare(args.input, args.fields, lang, args.encoding);
  const store = new EnrichStore(files);
  const { job, start, earlier } = await openJob(args, p, files, store);
  sayColumns(p, lang, io);
  // The intent journal of the whole job: continued on a resume or restart, so its summary covers every run.
  const ledger = new SpendLedger(files.spent, start !== "fresh");
  const sofar = ledger.charge();
  if (start === "resume") io.err(msg.resuming[lang](job.rowsDone, sofar.answered + sofar.unanswered, sofar.unanswered));
  if (start === "restart") io.err(msg.restarting[lang](sofar.answered + sofar.unanswered, sofar.unanswered));

  // The estimate comes first (on a resume: of what is left), and nothing is spent before the answer.
  const { estimate: e, inputRows } = await estimatePass(args, p, earlier, job);
  printEstimate(e, lang, (s) => io.err(s));
  collectGarbage();
  if (e.credits > 0) await checkBalance(ctx, e, args, io);
  if (e.credits > 0 && !args.yes) {
    const ok = interactive && io.ask ? await io.ask(msg.confirm[lang]) : false;
    if (!ok) throw new ExitError(EXIT.NOT_CONFIRMED, msg.notConfirmed[lang]);
  }

  const parallel = args.parallel ?? DEFAULT_PARALLEL;
  const answers = nodeDriver({
    journal: files.journal,
    parallel,
    beforeSend: ledger.beforeSend,
    onAnswer: ledger.onAnswer,
    onKept: ledger.kept,
  });
  const driver = store.driver(answers);
  const state: RunState = {
    phase: "resolve",
    namesDone: 0,
    namesTotal: 0,
    rowsDone: job.rowsDone,
    rowsTotal: inputRows,
    ledger,
  };
  setRunning(state);

  if (start !== "resume") {
    const header = (p.bom ? "\ufeff" : "") + formatRow(job.headerRow(), p.delimiter, p.header.length);
    written(files.partial, () => writeFileSync(files.partial, header));
    await runAsync(job.begun(statSync(files.partial).size), driver);
    // A restart keeps the journalled answers: they answer the same questions again.
    if (start === "fresh") answers.clearJournal(true);
  }
  if (job.resolvePending) {
    const after = await runAsync(
      job.resolveAhead(coreDeps, ctx, parallel, (done, total) => {
        state.namesDone = done;
        state.namesTotal = total;
        collectGarbage();
      }),
      driver,
    );
    answers.clearJournal();
    // The names are matched: the profiles' price is now exact (each company once, less what the run holds).
    if (after) io.err(after.text[lang]);
  }
  state.phase = "rows";

  const fd = openSync(files.partial, "a");
  let total = e.rows;
  let done = 0;
  try {
    for await (const lines of readLines(args.input, p, earlier, job.rowsDone)) {
      const { rows, worked } = await runAsync(job.chunk(coreDeps, ctx, lines), driver);
      const text = rows.map((r) => formatRow(r, p.delimiter, p.header.length)).join("");
      // Output first, then the checkpoint: a kill in between only repeats this chunk, from the journal.
      written(files.partial, () => writeSync(fd, text));
      fsyncSync(fd);
      await runAsync(job.kept(fstatSync(fd).size), driver);
      answers.clearJournal();
      state.rowsDone = job.rowsDone;
      done += worked;
      total = Math.max(total, done);
      io.progress?.(done, total);
      collectGarbage();
    }
  } catch (err) {
    throw csvExit(err, args.input, lang);
  } finally {
    closeSync(fd);
  }
  // Counted from the file: rows done before a resume are in it too.
  const counts = await countOutcomes(files.partial, p.header.length, p.fields.length);
  const charge = ledger.charge();
  ledger.close();
  renameSync(files.partial, out);
  for (const f of [files.checkpoint, files.journal, files.resolved, files.spent]) if (existsSync(f)) unlinkSync(f);
  const summary: Summary = {
    ...counts,
    credits: charge.answered + charge.unanswered,
    unanswered: charge.unanswered,
    out,
  };
  if (counts.outOfCredits > 0) {
    io.err(msg.outOfCredits[lang](summary));
    return EXIT.OUT_OF_CREDITS;
  }
  io.err(msg.done[lang](summary));
  return EXIT.OK;
}
