import type { World } from "../world.ts";
import type { Lang } from "../i18n.ts";
import type { CostInput, Endpoint } from "../../shared/api/index.ts";
import type { CompanyRec } from "../data/model.ts";
import { checkCompanyId } from "../validate.ts";
import { notFound } from "../respond.ts";

export interface Ctx {
  world: World;
  lang: Lang;
  key: string;
  ep: Endpoint;
  params: Record<string, string>;
  query: URLSearchParams;
  body?: string;
}
export interface Result {
  body: unknown;
  /** What the catalogue's cost() needs (include, count). */
  cost?: CostInput;
}
export type Handler = (ctx: Ctx) => Result;

/** The company a path or body id names: 400 for a malformed id, 404 for an unknown one. */
export function company(ctx: Ctx, id: string, field = "id"): CompanyRec {
  checkCompanyId(id, field);
  const c = ctx.world.byId(id);
  if (!c) throw notFound(id, field);
  return c;
}

/** A path parameter of the matched route; its absence is a bug in the route table, not bad input. */
export function param(ctx: Ctx, name: string): string {
  const v = ctx.params[name];
  if (v === undefined) throw new Error(`route ${ctx.ep.id} has no path parameter ${name}`);
  return v;
}
