/**
 * The host-neutral custom-function registry: what one function is, what it
 * takes and what it returns. Sheets (apps-script/) and Excel (excel-addin/)
 * generate their functions from these definitions; neither host adds logic.
 */
import type { Operation } from "../core/index.ts";
import type { ErrorCode } from "../core/index.ts";
import type { OpContext } from "../operations/index.ts";
import type { Bilingual } from "../i18n/index.ts";

/**
 * A cell-level error. Hosts map it: Sheets writes `message` into the cell,
 * Excel returns `CustomFunctions.Error` with the message. The message is
 * already in the user's language and never holds a stack or the key.
 */
export interface CellError {
  error: ErrorCode;
  message: string;
}

/** A labelled property of an entity card (Excel CARD). */
export interface CardProperty {
  key: string;
  label: string;
  value: string | number | boolean | null;
  /** Key figures belong to one financial year (shown beside them). */
  year?: number;
}

/** A labelled table on a card (the people): a header and rows of text. */
export interface CardTable {
  key: string;
  label: string;
  columns: string[];
  rows: string[][];
}

/** The data behind an Excel entity card: the Excel host turns it into an EntityCellValue. */
export interface CardData {
  id: string;
  /** What the cell shows (the company name). */
  title: string;
  properties: CardProperty[];
  /** The latest financial year's key figures, each with its year. */
  figures?: CardProperty[];
  tables?: CardTable[];
}

export interface CellCard {
  card: CardData;
}

export type CellScalar = string | number | boolean;
/** One output cell. "" is an empty cell. */
export type CellOut = CellScalar | CellError | CellCard;

export const isCellError = (v: unknown): v is CellError =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as CellError).error === "string" &&
  typeof (v as CellError).message === "string";
export const isCellCard = (v: unknown): v is CellCard => typeof v === "object" && v !== null && "card" in v;

/** Everything a function needs besides its arguments; built by the host per invocation. */
export interface FunctionContext {
  ctx: OpContext;
  /**
   * The document's daily credit budget for formulas; null means no limit.
   * Paid requests a formula would send beyond it fail with BUDGET_EXCEEDED.
   */
  dailyBudget: number | null;
}

export type ParamKind = "text" | "id" | "personId" | "number" | "integer" | "date" | "list";

export interface ParamDef {
  name: string;
  help: Bilingual;
  optional: boolean;
  /** Takes a range (a column of values) as well as a single value. */
  acceptsRange: boolean;
  kind: ParamKind;
}

/**
 * The shape of a function's answer, for docs and the hosts' metadata:
 * - "perRow": one output row per input row, aligned with the input, no header;
 * - "list": a header row plus rows; with several inputs the lists are stacked
 *   under one header whose first column is the input.
 */
export type Shape = "perRow" | "list";

export type Host = "sheets" | "excel";

export interface FunctionDef {
  /** Base name without prefix: SEARCH. Sheets shows COMPANY_SEARCH, Excel COMPANY.SEARCH. */
  name: string;
  /**
   * The Sheets name where it is not COMPANY_<name>: issue 4 names the person
   * lookup PERSON_COMPANIES in Sheets (Excel keeps COMPANY.PERSON_COMPANIES).
   */
  sheetsName?: string;
  description: Bilingual;
  params: ParamDef[];
  /** What the answer holds, for the @return help. */
  returns: Bilingual;
  shape: Shape;
  /** Whether a call may cost credits (free endpoints only: false). */
  spendsCredits: boolean;
  /** Hosts that offer this function (default both). */
  hosts?: Host[];
  /**
   * Compute the answer. Arguments arrive as the host passed them (a scalar, a
   * 2-D array for a range, undefined when omitted). The run may throw a
   * CompanyDataError for the whole call; `invoke` turns it into a cell.
   */
  run(fctx: FunctionContext, args: unknown[]): Operation<CellOut[][]>;
}
