/**
 * What every MCP tool is made of (./tools.ts lists them): its definition, the
 * price it names before it pays, its answer; and the pieces the tools' schemas
 * and texts share.
 */
import * as z from "zod";
import { type Include } from "../shared/api/index.ts";
import { schemas as S } from "../shared/api/index.ts";
import type { Operation } from "../shared/core/index.ts";
import type { Estimate } from "../shared/credits/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { OpContext } from "../shared/operations/index.ts";

/** How a price is meant: exactly this, at most this (less when data is missing or cached), or at least this. */
export type Bound = "exact" | "atMost" | "atLeast";
/**
 * Name the price of what the tool pays for next; before the next paid request
 * goes out the server checks it against the budget and refuses there.
 */
export type Pay = (credits: number, bound: Bound) => Operation<void>;

export interface ToolAnswer {
  /** The structured result (the server adds `spent` and `budget`). */
  data: Record<string, unknown>;
  /** A short summary for the model, in the server's language. */
  text: (lang: Language) => string;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** The arguments: a strict object schema (unknown fields are refused). */
  input: z.ZodObject;
  /** Talks to the company data service (false: answers from this server alone). */
  openWorld: boolean;
  /** The price before anything is sent (what estimate_credits answers); validates the arguments. */
  price?: (args: Record<string, unknown>) => { min: Estimate; max: Estimate };
  run: (ctx: OpContext, args: Record<string, unknown>, pay: Pay) => Operation<ToolAnswer>;
}

export const PROFILE_INCLUDE_DEFAULT: Include[] = ["people", "financials"];
/** Pages of changes recent_changes fetches at most unless asked otherwise (100 changes a page, 1 credit each). */
export const DEFAULT_CHANGE_PAGES = 3;
export const MAX_CHANGE_PAGES = 20;
/** portfolio_risk's largest list (the provider's own tool takes up to 100 entries per call). */
export const MAX_PORTFOLIO = 100;

/** JSON Schema for "exactly one of these fields" (the tool checks it too, naming both). */
export const EXACTLY_ONE = (a: string, b: string) => ({ oneOf: [{ required: [a] }, { required: [b] }] });
export const ID_TEXT = "Company id: DE + 10 letters or digits, e.g. DEJK7QV0PK24";
export const SIZE_TEXT = `Results wanted, 1–${S.MAX_SIZE}`;
/** A count of results: 1 to the API's page size. */
export const resultCount = () => z.int().min(1).max(S.MAX_SIZE);

export const same = (e: Estimate) => ({ min: e, max: e });
export const label = (c: { id: string; name?: string | null; city?: string | null }) =>
  `${c.name ?? "?"} (${c.id}${c.city ? ", " + c.city : ""})`;
export const listText = (cs: { id: string; name?: string | null; city?: string | null }[], max = 10) =>
  cs.length === 0 ? "–" : cs.slice(0, max).map(label).join("; ") + (cs.length > max ? "; …" : "");
export const T = (de: string, en: string) => (lang: Language) => (lang === "de" ? de : en);
