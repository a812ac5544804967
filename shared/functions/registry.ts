/**
 * The registry: every custom function, in the order the hosts list them, and
 * `invoke`, the one way a host runs one. Whatever goes wrong, invoke answers
 * with cells: per-row errors stay in their rows, a failure of the whole call
 * is one error cell; never an exception, never a stack.
 */
import { missingKey } from "../api/index.ts";
import type { Operation } from "../core/index.ts";
import { errorCell, squared } from "./cells.ts";
import { withBudget } from "./guard.ts";
import { RESOLVE, SEARCH, SUGGEST } from "./lookup.ts";
import { AVAILABILITY, CARD, FINANCIALS, PROFILE } from "./company.ts";
import {
  ANNOUNCEMENTS,
  CHANGES,
  CREDITS,
  EVENTS,
  JOBS,
  NEARBY,
  PEERS,
  PEOPLE,
  PERSON_COMPANIES,
  SIMILAR,
} from "./lists.ts";
import { RISK } from "./risk.ts";
import type { CellOut, FunctionContext, FunctionDef, Host } from "./types.ts";

export const FUNCTIONS: readonly FunctionDef[] = [
  SEARCH,
  SUGGEST,
  RESOLVE,
  PROFILE,
  PEOPLE,
  ANNOUNCEMENTS,
  FINANCIALS,
  CHANGES,
  NEARBY,
  PEERS,
  SIMILAR,
  AVAILABILITY,
  PERSON_COMPANIES,
  CREDITS,
  EVENTS,
  JOBS,
  CARD,
  RISK,
];

/** The functions a host offers. */
export const functionsFor = (host: Host): FunctionDef[] => FUNCTIONS.filter((f) => !f.hosts || f.hosts.includes(host));

export function functionByName(name: string): FunctionDef | undefined {
  return FUNCTIONS.find((f) => f.name === name);
}

/**
 * The name a user types: COMPANY_SEARCH in Sheets, SEARCH in Excel's COMPANY
 * namespace (COMPANY.SEARCH). A definition may carry its own Sheets name
 * (PERSON_COMPANIES, as issue 4 lists it).
 */
export const hostName = (def: FunctionDef, host: Host) =>
  host === "sheets" ? (def.sheetsName ?? `COMPANY_${def.name}`) : def.name;

/** Run a function to its cells. Host arguments go in as they came; the answer is a rectangular, non-empty matrix. */
export function* invoke(def: FunctionDef, fctx: FunctionContext, args: unknown[]): Operation<CellOut[][]> {
  const lang = fctx.ctx.client.language;
  try {
    if (!fctx.ctx.client.apiKey) throw missingKey(fctx.ctx.client);
    const op = def.run(fctx, args);
    const guarded = def.spendsCredits && fctx.dailyBudget !== null ? withBudget(fctx.ctx, fctx.dailyBudget, op) : op;
    return squared(yield* guarded);
  } catch (e) {
    return [[errorCell(e, lang)]];
  }
}
