/**
 * Accounts, balances and the ledger. Prices never live here: the caller
 * passes what the catalogue's `endpoint.cost(...)` says.
 */
import { makeId } from "./rng.ts";

/** Spec 8.1: signup includes 100 credits. */
export const SIGNUP_CREDITS = 100;
export const DEMO_CREDITS = 1_000_000;

export interface Usage {
  /** Credits charged per endpoint id. */
  credits: Record<string, number>;
  /** Successful (2xx) requests per endpoint id. */
  requests: Record<string, number>;
  /** Credits charged per day (ISO date of the emulator clock). */
  byDay: Record<string, number>;
  total: number;
}

interface Account {
  key: string;
  credits: number;
  usage: Usage;
  createdAt: string;
}

export class Accounts {
  private accounts = new Map<string, Account>();
  private counter = 0;
  constructor(private seed: number) {}

  create(credits = SIGNUP_CREDITS, key?: string, createdAt = ""): string {
    const k = key ?? makeId("emu_", this.seed, "key:" + this.counter++ + ":" + this.accounts.size, 24).toLowerCase();
    this.accounts.set(k, { key: k, credits, usage: { credits: {}, requests: {}, byDay: {}, total: 0 }, createdAt });
    return k;
  }
  has(key: string): boolean {
    return this.accounts.has(key);
  }
  balance(key: string): number {
    const a = this.accounts.get(key);
    if (!a) throw new Error("unknown key");
    return a.credits;
  }
  setBalance(key: string, n: number): void {
    const a = this.accounts.get(key);
    if (!a) throw new Error("unknown key");
    a.credits = n;
  }
  /** Record a successful call; `credits` may be 0 (rate-limited endpoints are counted too). */
  charge(key: string, endpointId: string, credits: number, day: string): void {
    const a = this.accounts.get(key)!;
    a.credits -= credits;
    const u = a.usage;
    u.credits[endpointId] = (u.credits[endpointId] ?? 0) + credits;
    u.requests[endpointId] = (u.requests[endpointId] ?? 0) + 1;
    u.byDay[day] = (u.byDay[day] ?? 0) + credits;
    u.total += credits;
  }
  usage(key: string): Usage {
    const a = this.accounts.get(key);
    if (!a) throw new Error("unknown key");
    return structuredClone(a.usage);
  }
}
