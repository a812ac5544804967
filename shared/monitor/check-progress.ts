/**
 * Where each company of the portfolio stands in one call of a check: one
 * discriminated union per company instead of parallel maps and sets, so a
 * company is in exactly one state and the summary counts states.
 *
 *   earlier    finished by an earlier call of the same (continued) run
 *   todo       priced by availability, not reached by this call (yet)
 *   deferred   priced, its paid calls held back by the budget or a stop
 *   unchanged  availability showed nothing new (free)
 *   checked    paid for in this call
 *   left       a free or paid call failed for a reason a later call can get past
 *   failed     a call failed for good (or kept failing): an error row
 *   notFound   the service does not know the id
 *
 * A company whose paid call failed keeps its availability and plan (`priced`):
 * its row still shows the last change date, and what is left is priced again.
 */
import { CompanyDataError } from "../core/index.ts";
import type { Availability } from "../operations/index.ts";
import type { PlanItem } from "./check-types.ts";

/** Failures a later call can get past: the company is left to do (the run pauses and continues), not an error. */
const RETRYABLE: ReadonlySet<string> = new Set(["RATE_LIMITED", "NETWORK", "SERVER_ERROR", "TIMEOUT"]);
/** Failures after which nothing more can be paid for: the run stops, the company is left to do. */
const STOPPING: ReadonlySet<string> = new Set(["OUT_OF_CREDITS", "INVALID_KEY", "MISSING_KEY"]);

type Outcome = "left" | "error" | "notFound" | "stop";
/** What a failed call makes of a company. On the last allowed call a retryable failure is an error. */
export function outcomeOf(e: CompanyDataError, final: boolean): Outcome {
  if (e.code === "NOT_FOUND") return "notFound";
  if (STOPPING.has(e.code)) return "stop";
  if (RETRYABLE.has(e.code)) return final ? "error" : "left";
  return "error";
}

/** What the free availability call said and what it makes the company cost. */
export interface Priced {
  avail: Availability;
  plan: PlanItem;
}

export type CompanyProgress =
  | { kind: "earlier" }
  | ({ kind: "todo" | "deferred" | "unchanged" | "checked" } & Priced)
  | { kind: "left" | "failed"; error: CompanyDataError; priced: Priced | null }
  | { kind: "notFound"; priced: Priced | null };

export type ProgressKind = CompanyProgress["kind"];

/** The availability answer a company has in this call, if any. */
export function availabilityOf(p: CompanyProgress | undefined): Availability | undefined {
  if (!p || p.kind === "earlier") return undefined;
  return "priced" in p ? p.priced?.avail : p.avail;
}

/** The priced plan of a company, if availability answered for it. */
export function pricedOf(p: CompanyProgress | undefined): Priced | null {
  if (!p || p.kind === "earlier") return null;
  return "priced" in p ? p.priced : { avail: p.avail, plan: p.plan };
}

/** Every company of one call, each in one state (in the order the call first met them: table order within each step). */
export class PortfolioProgress {
  private readonly byId = new Map<string, CompanyProgress>();
  /** The failure that stopped all paid work (out of credits, a bad key): the first one. */
  stopped: CompanyDataError | null = null;

  /** @param final the run's last allowed call: a retryable failure is an error now. */
  constructor(private readonly final: boolean) {}

  get(id: string): CompanyProgress | undefined {
    return this.byId.get(id);
  }

  set(id: string, p: CompanyProgress): void {
    this.byId.set(id, p);
  }

  /** A failed call: left to do, an error, or not found; a stopping failure also stops the run. */
  settle(id: string, e: CompanyDataError): void {
    const priced = pricedOf(this.byId.get(id));
    const o = outcomeOf(e, this.final);
    if (o === "notFound") this.byId.set(id, { kind: "notFound", priced });
    else if (o === "error") this.byId.set(id, { kind: "failed", error: e, priced });
    else {
      this.byId.set(id, { kind: "left", error: e, priced });
      if (o === "stop") this.stopped ??= e;
    }
  }

  is(id: string, ...kinds: ProgressKind[]): boolean {
    const p = this.byId.get(id);
    return p !== undefined && kinds.includes(p.kind);
  }

  /** The companies in one of these states, in the order the call first met them. */
  ids(...kinds: ProgressKind[]): string[] {
    return [...this.byId].filter(([, p]) => kinds.includes(p.kind)).map(([id]) => id);
  }

  count(...kinds: ProgressKind[]): number {
    return this.ids(...kinds).length;
  }

  /** The company priced but not yet reached by this call. */
  todo(id: string): Priced | null {
    const p = this.byId.get(id);
    return p?.kind === "todo" ? p : null;
  }

  /**
   * The error of the first company in this state, for the message's "e.g.":
   * a failed availability call (no price) comes before a failed paid call,
   * which is the order in which a call meets them.
   */
  firstError(kind: "left" | "failed"): CompanyDataError | null {
    const errs = [...this.byId.values()].flatMap((p) => (p.kind === kind ? [p] : []));
    return (errs.find((p) => p.priced === null) ?? errs[0])?.error ?? null;
  }

  /** The error that made a company left to do or an error row, if it is one of those. */
  errorOf(id: string): CompanyDataError | undefined {
    const p = this.byId.get(id);
    return p?.kind === "left" || p?.kind === "failed" ? p.error : undefined;
  }
}
