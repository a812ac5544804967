/**
 * The emulator's "today" and what time does to the companies. Each day after
 * the start date draws register events from (seed, day) and applies those that
 * fit the company's state; the result is an overlay over the generated table.
 * Moving the clock back replays from the start, so a date always means the
 * same state for the same seed and schedule.
 */
import { Rng } from "./rng.ts";
import { STREETS } from "./data/places.ts";
import { addDays, daysBetween, type CompanyEvent, type EventKind } from "./data/details.ts";
import type { CompanyRec, StatusCode } from "./data/model.ts";
import { nth } from "./indexed.ts";

export type ScheduledKind =
  "ADDRESS" | "MANAGEMENT" | "CAPITAL" | "PURPOSE" | "LIQUIDATION" | "INSOLVENCY" | "DELETION";
export const SCHEDULABLE: readonly ScheduledKind[] = [
  "ADDRESS",
  "MANAGEMENT",
  "CAPITAL",
  "PURPOSE",
  "LIQUIDATION",
  "INSOLVENCY",
  "DELETION",
];

export interface Overlay {
  status?: StatusCode;
  liquidationDate?: string;
  insolvencyDate?: string;
  deletionDate?: string;
  street?: string;
  zip?: string;
  capital?: number;
  purposeNote?: string;
  events: CompanyEvent[];
  /** People appointed by the clock (person numbers beyond the generated pool). */
  appointed: { person: number; role: number; since: string }[];
  /** Person numbers (generated or appointed) who left, with the date. */
  left: Map<number, string>;
}

export interface AppliedEvent {
  day: number;
  date: string;
  id: string;
  kind: EventKind;
}

/** Events per simulated day: about one company in 2,000, at least two. */
export const eventsPerDay = (n: number) => Math.max(2, Math.round(n / 2000));

export class Clock {
  readonly startDate: string;
  private day = 0;
  overlay = new Map<number, Overlay>();
  /** Person number -> companies, for people the clock appointed. */
  appointedPeople = new Map<number, number[]>();
  private nextPerson: number;
  private scheduled = new Map<number, { idx: number; kind: ScheduledKind }[]>();
  log: AppliedEvent[] = [];

  constructor(
    startDate: string,
    private seed: number,
    private companies: readonly CompanyRec[],
    private basePeopleCount: number,
    private peopleOf: (idx: number) => { person: number; role: number }[],
  ) {
    this.startDate = startDate;
    this.nextPerson = basePeopleCount;
  }

  today(): string {
    return addDays(this.startDate, this.day);
  }
  dayNumber(): number {
    return this.day;
  }

  advance(days: number): AppliedEvent[] {
    if (!Number.isInteger(days) || days < 0) throw new RangeError("days must be a non-negative integer");
    const before = this.log.length;
    for (let k = 0; k < days; k++) this.applyDay(++this.day);
    return this.log.slice(before);
  }

  setDate(date: string): AppliedEvent[] {
    const target = daysBetween(this.startDate, date);
    if (target < 0) throw new RangeError(`date must not be before the start date ${this.startDate}`);
    if (target < this.day) {
      this.resetState();
      return this.advance(target);
    }
    return this.advance(target - this.day);
  }

  /** Make `kind` happen to company idx on day `day` (days after the start date). */
  schedule(idx: number, day: number, kind: ScheduledKind): void {
    if (day <= this.day) throw new RangeError(`day must be after the current day ${this.day}`);
    const l = this.scheduled.get(day) ?? [];
    l.push({ idx, kind });
    this.scheduled.set(day, l);
  }

  clearSchedule(): void {
    this.scheduled.clear();
  }

  private resetState(): void {
    this.day = 0;
    this.overlay.clear();
    this.appointedPeople.clear();
    this.nextPerson = this.basePeopleCount;
    this.log = [];
  }

  /** What `days` more days would bring, without changing anything (a replay on a copy). */
  preview(days: number): AppliedEvent[] {
    const copy = new Clock(this.startDate, this.seed, this.companies, this.basePeopleCount, this.peopleOf);
    copy.scheduled = new Map([...this.scheduled].map(([d, l]) => [d, [...l]]));
    return copy.advance(this.day + days).filter((e) => e.day > this.day);
  }

  statusOf(c: CompanyRec): StatusCode {
    return this.overlay.get(c.idx)?.status ?? c.status;
  }

  private ov(idx: number): Overlay {
    let o = this.overlay.get(idx);
    if (!o) this.overlay.set(idx, (o = { events: [], appointed: [], left: new Map() }));
    return o;
  }

  private applyDay(day: number): void {
    const date = addDays(this.startDate, day);
    const r = Rng.for(this.seed, "day:" + day);
    const n = this.companies.length;
    for (const s of this.scheduled.get(day) ?? []) this.apply(s.idx, s.kind, day, date, r, true);
    const count = eventsPerDay(n);
    for (let k = 0; k < count; k++) {
      const idx = r.int(0, n - 1);
      const kind = r.weighted<ScheduledKind>(SCHEDULABLE, [22, 30, 10, 6, 5, 4, 3]);
      this.apply(idx, kind, day, date, r, false);
    }
  }

  private apply(idx: number, kind: ScheduledKind, day: number, date: string, r: Rng, forced: boolean): void {
    const c = nth(this.companies, idx);
    const status = this.statusOf(c);
    // Register facts only follow plausible paths: a deleted company stays deleted,
    // only a company in liquidation or insolvency gets deleted.
    if (status === "DELETED" || status === "INACTIVE") return;
    if (kind === "DELETION" && status === "ACTIVE" && !forced) return;
    if (status !== "ACTIVE" && (kind === "ADDRESS" || kind === "CAPITAL" || kind === "PURPOSE")) return;
    if (kind === "LIQUIDATION" && status !== "ACTIVE") return;
    if (kind === "INSOLVENCY" && status === "INSOLVENT") return;
    const o = this.ov(idx);
    const at = `${date}T${String(r.int(7, 18)).padStart(2, "0")}:${String(r.int(0, 59)).padStart(2, "0")}:00Z`;
    switch (kind) {
      case "ADDRESS": {
        const old = o.street ?? c.street;
        o.street = `${r.pick(STREETS)} ${r.int(1, 180)}`;
        o.events.push({ at, kind, oldValue: old, newValue: o.street });
        break;
      }
      case "CAPITAL": {
        const old = o.capital ?? c.capital;
        o.capital = Math.round(old * (1 + r.int(1, 10) / 10));
        o.events.push({ at, kind, oldValue: String(old), newValue: String(o.capital) });
        break;
      }
      case "PURPOSE":
        o.purposeNote = "Erweiterung um Beratung und Vertrieb im In- und Ausland.";
        o.events.push({ at, kind, newValue: o.purposeNote });
        break;
      case "MANAGEMENT": {
        const current = this.peopleOf(idx).filter((p) => !o.left.has(p.person));
        const leaving = current.length > 1 && r.chance(0.6) ? current[r.int(0, current.length - 1)] : undefined;
        const person = this.nextPerson++;
        const role = leaving ? leaving.role : 0;
        if (leaving) o.left.set(leaving.person, date);
        o.appointed.push({ person, role, since: date });
        const list = this.appointedPeople.get(person) ?? [];
        list.push(idx);
        this.appointedPeople.set(person, list);
        o.events.push({ at, kind, person, leftPerson: leaving?.person });
        break;
      }
      case "LIQUIDATION":
        o.status = "IN_LIQUIDATION";
        o.liquidationDate = date;
        o.events.push({ at, kind, oldValue: status, newValue: "IN_LIQUIDATION" });
        break;
      case "INSOLVENCY":
        o.status = "INSOLVENT";
        o.insolvencyDate = date;
        o.events.push({ at, kind, oldValue: status, newValue: "INSOLVENT" });
        break;
      case "DELETION":
        o.status = "DELETED";
        o.deletionDate = date;
        o.events.push({ at, kind, oldValue: status, newValue: "DELETED" });
        break;
    }
    this.log.push({ day, date, id: c.id, kind });
  }
}
