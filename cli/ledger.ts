/**
 * The intent journal (`OUT.spent`): what this output's job was charged, so
 * that the summary after any crash is the whole job's charge.
 *
 * Before a paid request goes out, a line `i ID CREDITS` is appended; when
 * its answer arrives, `a ID CREDITS` (the credits charged: the answer's
 * X-Credits-Charged, shared/core/http.ts `chargedOf`, which a team server
 * sets on every answer; without it the price for a 2xx answer, 0 for a
 * refusal: the specification does not say what an error
 * costs (section 7); this is the assumption shared/functions/guard.ts makes
 * when it gives a failed request's budget reservation back). A request
 * whose answer never arrived (the process was killed while it was in
 * flight, or it timed out) keeps an open intent: the service may or may not
 * have charged it, so it counts as "up to". A resumed run reads the journal
 * back and continues it, so its summary covers every run of the job. An
 * answer is kept (the answer journal, node/driver.ts) before its `a` line is
 * written; an intent whose answer was kept when a kill came between the two
 * is closed on resume (`kept`): it arrived, and is replayed, not bought again.
 *
 * The lines are appended with one write(2) each on a descriptor kept open
 * (a 100,000-row job writes 200,000 of them), without fsync: they survive
 * the process being killed (they are in the kernel's page cache), not a
 * power cut of the machine. A torn last line is skipped.
 */
import { closeSync, existsSync, readFileSync, writeSync } from "node:fs";
import { chargedOf, creditsOf, type HttpRequest, type HttpResponse } from "../shared/core/index.ts";
import { openPrivate, written } from "../node/index.ts";

export interface Charge {
  /** Credits of answers that arrived. */
  answered: number;
  /** Credits of paid requests sent whose answer never arrived: charged or not, the service knows. */
  unanswered: number;
  /** The part of `unanswered` still in flight in this process (its answer may yet come); the rest is lost. */
  inFlight: number;
}

export class SpendLedger {
  private answered = 0;
  private inFlight = 0;
  private open = new Map<string, number>();
  private sent = new Map<HttpRequest, string[]>();
  private next = 0;
  /** Distinguishes this process's ids from those of the runs it resumes. */
  private readonly run = `${process.pid.toString(36)}.${Date.now().toString(36)}`;
  /** Opened at the first line written: a run refused before it spends leaves no (empty) journal behind. */
  private fd = -1;
  private closed = false;
  private readonly torn: boolean;

  /** A fresh journal (`resume` false) or the one of the runs this run resumes. */
  constructor(
    private readonly file: string,
    private readonly resume: boolean,
  ) {
    this.torn = resume && existsSync(file) ? this.load(file) : false;
  }

  private write(line: string): void {
    written(this.file, () => {
      if (this.fd < 0 && !this.closed) {
        this.fd = openPrivate(this.file, this.resume ? "a" : "w");
        // A line torn by a kill is ended, so that it does not swallow the next one.
        if (this.torn) writeSync(this.fd, "\n");
      }
      writeSync(this.fd, line);
    });
  }

  /** Read the journal back; true when its last line is torn (no line break). */
  private load(file: string): boolean {
    const text = readFileSync(file, "utf8");
    for (const line of text.split("\n")) {
      const [, kind, id, digits] = /^([ia]) (\S+) (\d+)$/.exec(line) ?? [];
      if (id === undefined) continue;
      const credits = Number(digits);
      if (kind === "i") this.open.set(id, credits);
      else {
        this.open.delete(id);
        this.answered += credits;
      }
    }
    return text !== "" && !text.endsWith("\n");
  }

  /** Before a request is sent: a paid one is written down first. Returns its id (kept with its answer, see `kept`). */
  beforeSend = (req: HttpRequest): string | undefined => {
    const credits = creditsOf(req);
    if (credits <= 0) return undefined;
    const id = `${this.run}.${(this.next++).toString(36)}`;
    this.write(`i ${id} ${credits}\n`);
    this.open.set(id, credits);
    this.inFlight += credits;
    const ids = this.sent.get(req);
    if (ids) ids.push(id);
    else this.sent.set(req, [id]);
    return id;
  };

  /**
   * On resume: the answer to intent `id` is kept in the answer journal (node/driver.ts keeps an answer before
   * it is counted here). When a kill fell between the two, the intent is still open: it is closed now as
   * answered, since its answer arrived (charged) and is replayed, not bought again.
   */
  kept = (id: string): void => {
    const credits = this.open.get(id);
    if (credits === undefined) return;
    this.write(`a ${id} ${credits}\n`);
    this.open.delete(id);
    this.answered += credits;
  };

  /**
   * An answer from the network. Status 0 (timeout, connection lost) leaves the intent open: it may have been
   * charged; unless the driver knows the request never left (`unsent`: refused, no DNS): then it is closed at 0.
   */
  onAnswer = (req: HttpRequest, res: HttpResponse): void => {
    const ids = this.sent.get(req);
    const id = ids?.shift();
    if (ids && ids.length === 0) this.sent.delete(req);
    if (id === undefined) return;
    // In flight no more: answered, or lost (status 0 leaves the intent open: it may have been charged).
    this.inFlight -= this.open.get(id) ?? 0;
    if (res.status === 0 && !res.unsent) return;
    // What the answer says it cost (a team server's shared answer: 0), else its price for a 2xx, 0 for a refusal
    // or a request that never left.
    const credits = res.status === 0 ? 0 : chargedOf(req, res);
    this.write(`a ${id} ${credits}\n`);
    this.open.delete(id);
    this.answered += credits;
  };

  /** Done writing (the file may then be deleted). */
  close(): void {
    this.closed = true;
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }

  /** What the job was charged so far, over this run and the runs it resumed. */
  charge(): Charge {
    let unanswered = 0;
    for (const c of this.open.values()) unanswered += c;
    return { answered: this.answered, unanswered, inFlight: this.inFlight };
  }
}
