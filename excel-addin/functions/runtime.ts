/**
 * The custom functions of the Excel host, built from the host-neutral
 * registry. Each cell's call goes through a gatherer: calls Excel makes in
 * the same moment are asked once, and the per-row functions (RESOLVE,
 * PROFILE, AVAILABILITY, FINANCIALS with a metric, CARD) run ONCE over one
 * column made of all the waiting cells, so 1,000 RESOLVE cells become a few
 * batch resolves. Answers are cached in memory and OfficeRuntime.storage
 * (see host/storage.ts), so a recalculation after a reload sends nothing.
 * A network failure says why, as Test connection does (./network.ts).
 */
import { runAsync, type AsyncDriver } from "../../shared/core/index.ts";
import type { Operation } from "../../shared/core/index.ts";
import { CompanyDataError, toCompanyDataError, type ErrorCode } from "../../shared/core/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import { runFormula } from "../../shared/functions/index.ts";
import { isCellCard, isCellError, type CellOut, type FunctionDef } from "../../shared/functions/index.ts";
import { createGatherer, type Gatherer } from "./gather.ts";
import { entityOf, plainCardRow } from "./card.ts";
import { pageLock, serialiseBudget, type Acquire } from "./budget-lock.ts";
import type { NetworkExplainer } from "./network.ts";
import type { EndpointId } from "../../shared/api/index.ts";
import { Pacer } from "../../shared/api/index.ts";

/** The two Excel errors whose message Excel shows. */
export type ExcelErrorKind = "invalidValue" | "notAvailable";

/** #VALUE! for what the user typed; #N/A (with the message) for everything else. */
export const excelErrorKind = (code: ErrorCode): ExcelErrorKind =>
  code === "INVALID_INPUT" ? "invalidValue" : "notAvailable";

export interface FunctionsHost {
  driver: AsyncDriver;
  /** The workbook's id (keeps its budget, ledger and answers apart from other workbooks'). */
  documentId(): Promise<string>;
  now(): number;
  random(): number;
  /** Arrange a flush once the current burst of calls has arrived. */
  schedule(flush: () => void): void;
  /** new CustomFunctions.Error(kind, message) in Excel. */
  error(kind: ExcelErrorKind, message: string): unknown;
  /** Whether custom functions may answer entity values here (CustomFunctionsRuntime 1.4). */
  cardsSupported(): boolean;
  /** The language the card's property names are pinned to in this workbook (read only). */
  cardLanguage(): Promise<Language>;
  /** Language for messages before the settings could be read. */
  fallbackLanguage(): Language;
  onRequest?(endpoint: EndpointId): void;
  onSpend?(endpoint: EndpointId, credits: number): void;
  /** The lock of the budget's and spend log's read-modify-write; default the page's (shared with the task pane). */
  lock?: Acquire;
  /** Why the service could not be reached (LNA, CORS, down), for a NETWORK error's cell; absent: the generic message. */
  explainNetwork?: NetworkExplainer;
}

/** A single Excel argument as a scalar: a 1×1 range counts as its value, a bigger range does not. */
function scalarOf(arg: unknown): { ok: true; value: unknown } | { ok: false } {
  if (!Array.isArray(arg)) return { ok: true, value: arg };
  if (arg.length === 1 && Array.isArray(arg[0]) && arg[0].length === 1) return { ok: true, value: arg[0][0] };
  return { ok: false };
}

const omitted = (v: unknown) => v === null || v === undefined;

/**
 * Which parameters line up row by row with the output: the range-taking
 * ones that are not a list of options (PROFILE's fields are a list; RESOLVE's
 * city column is aligned with its names).
 */
export const alignedParams = (def: FunctionDef): boolean[] =>
  def.params.map((p, i) => i === 0 || (p.acceptsRange && p.kind !== "list"));

type Settled = { ok: true; cells: CellOut[][] } | { ok: false; error: CompanyDataError };

export interface CustomFunctionsRuntime {
  /** id → the function Excel calls (for CustomFunctions.associate). */
  functions: Record<string, (...args: unknown[]) => Promise<unknown>>;
  /** Gathered batches run so far, per function id. */
  batches(): Record<string, number>;
}

/** What the parts of one runtime share: the host, the language of messages, and one registry run. */
interface RuntimeContext {
  host: FunctionsHost;
  lang: () => Language;
  run: (def: FunctionDef, args: unknown[]) => Promise<CellOut[][]>;
}

type Call = { i: number; args: unknown[] };

export function createCustomFunctions(defs: readonly FunctionDef[], host: FunctionsHost): CustomFunctionsRuntime {
  // The language the last run's settings named; messages use it from then on.
  let language: Language | undefined;
  const ctx: RuntimeContext = {
    host,
    lang: () => language ?? host.fallbackLanguage(),
    run: registryRunner(host, (l) => {
      language = l;
    }),
  };
  const gatherers = new Map<string, Gatherer<unknown[], Settled>>();
  const functions: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const def of defs) {
    const g = createGatherer<unknown[], Settled>({
      key: (args) => JSON.stringify(args.map((a) => a ?? null)),
      schedule: (flush) => host.schedule(flush),
      runBatch: (calls) => runBurst(ctx, def, calls),
      toError: (e) => excelError(ctx, e),
    });
    gatherers.set(def.name, g);
    functions[def.name] = excelFunction(ctx, def, g);
  }
  return {
    functions,
    batches: () => Object.fromEntries([...gatherers].map(([k, g]) => [k, g.batches])),
  };
}

/**
 * One registry run, with settings read fresh (a key saved in the task pane
 * counts at once) and spend recorded. The lock and the pacer are made once,
 * here, so every run of this runtime shares them.
 */
function registryRunner(
  host: FunctionsHost,
  onLanguage: (l: Language) => void,
): (def: FunctionDef, args: unknown[]) => Promise<CellOut[][]> {
  const acquire = host.lock ?? pageLock();
  /** runAsync over the host's driver, with the budget's read-modify-write serialised against other runs. */
  async function runSerial<T>(op: Operation<T>): Promise<T> {
    const driver = serialiseBudget(host.driver, acquire);
    try {
      return await runAsync(op, driver);
    } finally {
      driver.release();
    }
  }
  /** One pacer for the runtime's life: every formula's calls draw from the same bucket models. */
  const pacer = new Pacer();
  return async (def, args) =>
    runSerial(
      runFormula(def, args, {
        now: () => host.now(),
        random: () => host.random(),
        documentId: await host.documentId(),
        onSpend: (endpoint, credits) => host.onSpend?.(endpoint, credits),
        onRequest: (endpoint) => host.onRequest?.(endpoint),
        pacer,
        onLanguage,
      }),
    );
}

function excelError(ctx: RuntimeContext, e: unknown): unknown {
  const err = toCompanyDataError(e);
  return ctx.host.error(excelErrorKind(err.code), err.text(ctx.lang()));
}

/** A cell's error; a network failure with the reason when it could be told (`network`: explainedNetwork's answer). */
function cellErrorOf(ctx: RuntimeContext, c: { error: ErrorCode; message: string }, network?: string | null): unknown {
  return ctx.host.error(excelErrorKind(c.error), (c.error === "NETWORK" && network) || c.message);
}

/** Why the service could not be reached, when one of `codes` is a network failure; null otherwise or when untold. */
async function explainedNetwork(ctx: RuntimeContext, codes: readonly ErrorCode[]): Promise<string | null> {
  return codes.includes("NETWORK") && ctx.host.explainNetwork ? ctx.host.explainNetwork(ctx.lang()) : null;
}

/** The thrown error of a failed call, a network failure with its reason. */
async function thrownError(ctx: RuntimeContext, e: CompanyDataError): Promise<unknown> {
  const c = { error: e.code, message: e.text(ctx.lang()) };
  return cellErrorOf(ctx, c, await explainedNetwork(ctx, [c.error]));
}

/** The function Excel calls for `def`: the call joins the burst, and its answer comes back as Excel takes it. */
function excelFunction(
  ctx: RuntimeContext,
  def: FunctionDef,
  g: Gatherer<unknown[], Settled>,
): (...raw: unknown[]) => Promise<unknown> {
  return async (...raw: unknown[]) => {
    // Excel passes the invocation object last when asked for; the registry takes exactly its params.
    const args = def.params.map((_, i) => (omitted(raw[i]) ? undefined : raw[i]));
    let settled: Settled;
    try {
      settled = await g(args);
    } catch (e) {
      throw e instanceof CompanyDataError ? await thrownError(ctx, e) : e;
    }
    if (!settled.ok) throw await thrownError(ctx, settled.error);
    const lone = loneError(settled.cells);
    if (lone) throw cellErrorOf(ctx, lone, await explainedNetwork(ctx, [lone.error]));
    return await toExcel(ctx, settled.cells);
  };
}

/** Run the distinct calls of one burst: aligned ones as one column, the rest one by one (side by side). */
async function runBurst(ctx: RuntimeContext, def: FunctionDef, calls: unknown[][]): Promise<Settled[]> {
  const aligned = alignedParams(def);
  const out: Settled[] = new Array<Settled>(calls.length);
  const { groups, alone } = stackableGroups(def, aligned, calls);
  const jobs: Promise<void>[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) {
      alone.push(...members);
      continue;
    }
    jobs.push(runStack(ctx, def, aligned, members, out));
  }
  for (const { i, args } of alone) jobs.push((async () => void (out[i] = await settle(ctx, def, args)))());
  await Promise.all(jobs);
  return out;
}

/** Stack calls whose aligned arguments are single values and whose other arguments agree; the rest run alone. */
function stackableGroups(
  def: FunctionDef,
  aligned: boolean[],
  calls: unknown[][],
): { groups: Map<string, Call[]>; alone: Call[] } {
  const canStack = def.shape === "perRow" && calls.length > 1;
  const groups = new Map<string, Call[]>();
  const alone: Call[] = [];
  calls.forEach((args, i) => {
    const scalars = args.map(scalarOf);
    if (!canStack || aligned.some((a, p) => a && !scalars[p]?.ok)) return void alone.push({ i, args });
    const rest = JSON.stringify(args.map((a, p) => (aligned[p] ? null : (a ?? null))));
    const g = groups.get(rest);
    if (g) g.push({ i, args });
    else groups.set(rest, [{ i, args }]);
  });
  return { groups, alone };
}

/** One run over a column made of the members' aligned arguments; its rows are the members' answers. */
async function runStack(
  ctx: RuntimeContext,
  def: FunctionDef,
  aligned: boolean[],
  members: Call[],
  out: Settled[],
): Promise<void> {
  const first = members[0]!;
  const columnArgs = def.params.map((_, p) => {
    if (!aligned[p]) return first.args[p] ?? undefined;
    const column = members.map(({ args }) => {
      const s = scalarOf(args[p]);
      return [s.ok && !omitted(s.value) ? s.value : ""];
    });
    return column.every(([v]) => v === "") && p > 0 ? undefined : column;
  });
  const cells = await ctx.run(def, columnArgs);
  if (cells.length === members.length) {
    members.forEach(({ i }, k) => (out[i] = { ok: true, cells: cells.slice(k, k + 1) }));
    return;
  }
  // A failure of the whole call (missing key, budget, …) is every member's answer.
  const whole = loneError(cells);
  if (whole && cells.length === 1) {
    members.forEach(({ i }) => (out[i] = { ok: true, cells }));
    return;
  }
  // Not one row per input (the function answered a list here): ask each on its own; the cache answers what was just fetched.
  await Promise.all(members.map(async ({ i, args }) => (out[i] = await settle(ctx, def, args))));
}

async function settle(ctx: RuntimeContext, def: FunctionDef, args: unknown[]): Promise<Settled> {
  try {
    return { ok: true, cells: await ctx.run(def, args) };
  } catch (e) {
    return { ok: false, error: toCompanyDataError(e) };
  }
}

/**
 * Cells as Excel takes them: error cells as CustomFunctions.Error, cards
 * as entity values (names in the workbook's pinned language), or as a row
 * of plain values where this Excel has no data types for custom functions.
 */
async function toExcel(ctx: RuntimeContext, cells: CellOut[][]): Promise<unknown[][]> {
  const network = await explainedNetwork(
    ctx,
    cells.flat().flatMap((c) => (isCellError(c) ? [c.error] : [])),
  );
  const cellError = (c: { error: ErrorCode; message: string }) => cellErrorOf(ctx, c, network);
  if (!cells.some((row) => row.some(isCellCard)))
    return cells.map((row) => row.map((c) => (isCellError(c) ? cellError(c) : c)));
  if (!ctx.host.cardsSupported()) {
    // Each card as a row of plain values; rows padded so the answer stays a rectangle (an error row beside cards).
    const rows = cells.map((row) =>
      row.flatMap((c) => (isCellCard(c) ? plainCardRow(c.card) : [isCellError(c) ? cellError(c) : c])),
    );
    const width = Math.max(...rows.map((r) => r.length));
    return rows.map((r) => (r.length < width ? [...r, ...new Array<unknown>(width - r.length).fill("")] : r));
  }
  const names = await ctx.host.cardLanguage();
  return cells.map((row) =>
    row.map((c) => (isCellError(c) ? cellError(c) : isCellCard(c) ? entityOf(c.card, ctx.lang(), names) : c)),
  );
}

/** A lone error (first cell an error, the rest empty) is thrown, so Excel shows its message in the cell. */
function loneError(cells: CellOut[][]): { error: ErrorCode; message: string } | undefined {
  const first = cells[0]?.[0];
  if (!isCellError(first)) return undefined;
  const rest = cells.flat().slice(1);
  return rest.every((c) => c === "") ? first : undefined;
}
