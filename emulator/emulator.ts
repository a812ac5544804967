/**
 * The emulator's public shape, apart from its construction (index.ts), so the
 * control routes (routes/control.ts) can name it without importing the module
 * that imports them.
 */
import type { HttpRequest } from "../shared/core/index.ts";
import type { World } from "./world.ts";
import type { Accounts, Usage } from "./billing.ts";
import type { RateLimits } from "./ratelimit.ts";
import type { FaultConfig } from "./faults.ts";
import type { EmulatorResponse } from "./respond.ts";
import type { AppliedEvent, ScheduledKind } from "./clock.ts";
import type { StatusCode } from "./data/model.ts";

export interface CompanyAccess {
  count: number;
  /** Every company id, reference companies first. */
  ids(): string[];
  /** Ids of companies whose normalised name equals the given one. */
  findByName(name: string): string[];
  /** Ids of companies currently in a status (as the clock left them). */
  withStatus(status: StatusCode): string[];
  /** Names held by more than one company (resolve answers "ambiguous" for them). */
  duplicateNames(limit?: number): { name: string; ids: string[] }[];
  /** What advancing the clock by `days` would bring, without moving it. */
  upcoming(days: number, kind?: ScheduledKind): AppliedEvent[];
  /** A person id from a company's management whose network spans several companies. */
  sharedPersonId(): string | null;
}

export interface Emulator {
  handle(req: HttpRequest): EmulatorResponse;
  readonly demoKey: string;
  createKey(credits?: number): string;
  balance(key: string): number;
  setBalance(key: string, n: number): void;
  /** Credits charged and successful requests per endpoint id, for one key. */
  ledger(key: string): Usage;
  clock: {
    readonly startDate: string;
    today(): string;
    day(): number;
    advance(days: number): AppliedEvent[];
    setDate(iso: string): AppliedEvent[];
    preview(days: number): AppliedEvent[];
  };
  faults: { get(): FaultConfig; set(patch: Partial<FaultConfig>): FaultConfig; reset(): FaultConfig };
  readonly rateLimits: RateLimits;
  resetRateLimits(key?: string): void;
  /** Make `kind` happen to a company on clock day `day` (1 = the day after the start) or on `date`; returns the day. */
  scheduleEvent(id: string, at: { day?: number; date?: string; kind: ScheduledKind }): number;
  companies: CompanyAccess;
  /** The OpenAPI 3 document served at /v2/openapi.json. */
  openapi(): unknown;
  readonly world: World;
  readonly accounts: Accounts;
}
