/**
 * The MCP server: the tools of ./tools.ts on the official SDK's McpServer,
 * run by the Node driver (node/driver.ts: fetch with a timeout, the bounded
 * answer cache) through the core's client (pacing, retries, the error
 * taxonomy).
 *
 * Budget: the core's budget (shared/credits/budget.ts) in the driver's
 * in-memory store, keyed by this server's scope, so it counts what this
 * server run spent (per UTC day, like the add-ons' formula budget: a server
 * left running past midnight UTC starts the day at zero). Each paid tool
 * names its price once known (after the free steps); before its next paid
 * request goes out the price is checked against what is left, and the call
 * is refused with the price if it does not fit (answers from the cache send
 * nothing paid, so they are never refused). The core's guard (withBudget)
 * then reserves every paid request as it goes out, which also bounds what no
 * price knew in advance. Tool calls run one at a time, so the check and the
 * reservation never race.
 *
 * Every answer carries `spent`: the credits the service charged for this
 * call, counted from its successful paid requests (cache hits are free).
 */
import * as z from "zod";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { creditsOf, intercept, runAsync, type AsyncDriver } from "../shared/core/index.ts";
import { CompanyDataError, toCompanyDataError } from "../shared/core/index.ts";
import { budgetStatus } from "../shared/credits/index.ts";
import { withBudget } from "../shared/functions/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { callContext } from "../node/index.ts";
import { serverScope, type McpConfig } from "./config.ts";
import { errorText, refusalDetail, spentText } from "./i18n.ts";
import { budgetFor, budgetViewText } from "./team-budget.ts";
import { parseArguments } from "./arguments.ts";
import { invalid } from "../shared/core/index.ts";
import { got, rule, type Language } from "../shared/i18n/index.ts";
import { FREE_TOOLS, TOOLS, type Bound, type ToolDef } from "./tools.ts";
import { Pacer } from "../shared/api/index.ts";
import { PACKAGE_VERSION } from "../node/index.ts";

export const SERVER_NAME = "company-data";
export const SERVER_VERSION = PACKAGE_VERSION;

/** What every session of one server process shares: configuration, driver (cache, budget store), the queue of calls. */
export interface McpHost {
  cfg: McpConfig;
  driver: AsyncDriver;
  /** Calls in order, one at a time (see the module comment). */
  queue: Promise<unknown>;
  /** The rate-limit bucket models every tool call of this process draws from. */
  pacer: Pacer;
  /** Where problems of the server itself are reported (stderr); never given the key. */
  log: (line: string) => void;
}

export function createHost(cfg: McpConfig, driver: AsyncDriver, log: (line: string) => void): McpHost {
  return { cfg, driver, queue: Promise.resolve(), log, pacer: new Pacer() };
}

/**
 * Run one tool call to its MCP result: structured content plus a short text;
 * errors as tool errors. `tool` undefined: a name no tool has, answered as
 * a tool error naming the tools. The arguments are checked against the
 * tool's input schema first, so a wrong type costs nothing either.
 */
export async function callTool(
  host: McpHost,
  tool: ToolDef | undefined,
  name: string,
  raw: unknown,
): Promise<CallToolResult> {
  const { cfg } = host;
  const lang = cfg.lang;
  const tally = { credits: 0, requests: 0 };
  const source = { ...cfg, scope: serverScope(cfg), pacer: host.pacer };
  const ctx = callContext(source, tally, lang);
  // Through a team server the user's server budget is the one shown (mcp/team-budget.ts); its account answer is free.
  const budgetOf = () =>
    budgetFor(
      ctx,
      callContext(source, { credits: 0, requests: 0 }, lang),
      cfg.budget,
      cfg.credential === "serverToken",
    );
  let refused: { price: number; bound: Bound } | undefined;
  // A tool names its price with `pay`; it is checked when the next paid request is about to go out.
  let armed: { price: number; bound: Bound } | undefined;
  const pay = function* (credits: number, bound: Bound): Operation<void> {
    armed = credits > 0 ? { price: credits, bound } : undefined;
  };
  /**
   * Refuse the armed price before the first request that costs credits, if
   * the budget cannot take it: nothing of it is sent. A call answered from
   * the cache sends nothing paid and is never refused.
   */
  const checked = <T>(inner: Operation<T>): Operation<T> =>
    intercept(inner, function* (effect) {
      if (armed && cfg.budget !== null && effect.kind === "http" && effect.requests.some((r) => creditsOf(r) > 0)) {
        const a = armed;
        armed = undefined;
        const b = yield* budgetStatus(ctx, cfg.budget);
        if (a.price > (b.remaining ?? Infinity)) {
          refused = a;
          throw new CompanyDataError("BUDGET_EXCEEDED", { detail: refusalDetail(a.price, a.bound, b) });
        }
      }
      return yield effect;
    });
  try {
    if (!tool) throw invalid("tool", got(rule.oneOf(TOOLS.map((t) => t.name)), name));
    const args = parseArguments(tool.input, raw);
    const op = checked(tool.run(ctx, args, pay));
    const guarded = FREE_TOOLS.has(tool.name) || cfg.budget === null ? op : withBudget(ctx, cfg.budget, op);
    const answer = await runAsync(guarded, host.driver);
    const budget = await runAsync(budgetOf(), host.driver);
    const spent = { credits: tally.credits, requests: tally.requests };
    const text = [
      answer.text(lang),
      FREE_TOOLS.has(name) && tally.credits === 0 ? "" : spentText(tally.credits, lang),
      FREE_TOOLS.has(name) ? budgetViewText(budget, lang) : "",
    ]
      .filter(Boolean)
      .join(" ");
    return {
      content: [{ type: "text", text }],
      structuredContent: { ...answer.data, spent, budget },
    };
  } catch (e) {
    const err = toCompanyDataError(e);
    if (!(e instanceof CompanyDataError))
      host.log(`${tool?.name ?? "?"}: internal error (${(e as Error)?.name ?? "unknown"})`);
    const budget = await runAsync(budgetOf(), host.driver).catch(() => null);
    return toolError(err, refused, { credits: tally.credits, requests: tally.requests }, budget, lang);
  }
}

/** A tool error: the code, both languages, the field, when to retry, the price a budget refused; what was spent. */
function toolError(
  err: CompanyDataError,
  refused: { price: number; bound: Bound } | undefined,
  spent: { credits: number; requests: number },
  budget: unknown,
  lang: Language,
): CallToolResult {
  const error: Record<string, unknown> = { code: err.code, de: errorText(err, "de"), en: errorText(err, "en") };
  if (err.details.field) error.field = err.details.field;
  if (err.details.retryAt) error.retryAt = new Date(err.details.retryAt).toISOString();
  if (err.code === "BUDGET_EXCEEDED" && refused) {
    error.price = refused.price;
    error.priceBound = refused.bound;
  }
  return {
    isError: true,
    content: [{ type: "text", text: `${errorText(err, lang)} ${spentText(spent.credits, lang)}` }],
    structuredContent: { error, spent, budget },
  };
}

/**
 * A tool as tools/list shows it: its input schema as JSON Schema (with the
 * oneOf/anyOf of required fields its checks enforce) and the hints of the
 * MCP specification's ToolAnnotations
 * (https://modelcontextprotocol.io/specification/2025-06-18/schema#toolannotations):
 * every tool only reads (readOnlyHint; spending credits changes no data),
 * so destructiveHint and idempotentHint, meaningful only for tools that
 * write, are left out; openWorldHint where the tool asks the service.
 */
export function listedTool(tool: ToolDef): Tool {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema as Tool["inputSchema"],
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: tool.openWorld },
  };
}

/** The tool list, computed once per process: every session lists the same tools. */
let listed: Tool[] | undefined;
const listing = () => (listed ??= TOOLS.map(listedTool));
/**
 * The SDK's JSON Schema validator (used only for elicitation, which these
 * tools never ask for), one per process: by default each server builds its
 * own Ajv, the largest part of what a session costs in time and memory.
 */
let validator: AjvJsonSchemaValidator | undefined;

/**
 * One MCP server (one per session over HTTP, one for stdio) with every
 * tool. The SDK's low-level Server rather than McpServer: McpServer answers
 * arguments that do not fit the schema with its own English -32602 text,
 * while here they are the server's tool errors like any other (callTool).
 */
export function createMcpServer(host: McpHost): Server {
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: {} },
      jsonSchemaValidator: (validator ??= new AjvJsonSchemaValidator()),
      instructions:
        "German company data (registers, people, financials, changes). Every paid tool states its price; estimate_credits prices a call without spending; ambiguous names answer candidates, never a guess; arguments the server cannot use are refused before anything is paid.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listing() }));
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const name = req.params.name;
    const run = host.queue.then(() =>
      callTool(
        host,
        TOOLS.find((t) => t.name === name),
        name,
        req.params.arguments,
      ),
    );
    host.queue = run.catch(() => undefined);
    return run;
  });
  return server;
}
