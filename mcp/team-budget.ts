/**
 * One budget through a team server (issue 37, item 6). The user's budget on
 * the team server (its admin sets it; GET /v2/account there answers the
 * user's figures, server/account.ts) is the budget this MCP server shows and
 * answers by. Its own `--budget` / COMPANY_DATA_BUDGET (none by default in
 * server mode, mcp/config.ts) may only make it lower: while what it leaves
 * is below what the server leaves, it is the budget shown, and it says that
 * it is this process's own, lower limit; a higher one changes nothing and
 * the text says so. Directly against the API the process's own budget
 * (shared/credits/budget.ts) is the only one, as before.
 */
import type { BudgetStatus } from "../shared/credits/index.ts";
import { countText, NOUNS } from "../shared/credits/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { AccountResponse } from "../shared/api/index.ts";
import { budgetStatus } from "../shared/credits/index.ts";
import { getAccount, type OpContext } from "../shared/operations/index.ts";
import type { Operation } from "../shared/core/index.ts";
import { budgetText } from "../node/index.ts";

/** The budget a tool result carries: this process's (direct), or the user's on the team server. */
export interface BudgetView {
  /** "server": the user's budget on the team server; "mcp": this process's own (lower) limit; absent: direct mode. */
  source?: "server" | "mcp";
  limit: number | null;
  spent: number;
  remaining: number | null;
  /** Server mode with an own limit: that limit, and whether it is the lower one (so the one that applies). */
  ownLimit?: number | null;
}

/** The one budget in server mode, from the server's account answer and this process's own status. */
export function teamBudgetView(account: AccountResponse, own: BudgetStatus): BudgetView {
  const server: BudgetView = {
    source: "server",
    limit: account.budget?.user ?? null,
    spent: account.budget?.userSpent ?? account.usage?.month ?? 0,
    // What the server lets this user spend: the least of the API's balance and the budgets left.
    remaining: account.credits,
  };
  if (own.limit === null) return server;
  if (own.remaining !== null && own.remaining < (server.remaining ?? Infinity))
    return { source: "mcp", limit: own.limit, spent: own.spent, remaining: own.remaining, ownLimit: own.limit };
  return { ...server, ownLimit: own.limit };
}

const left = (n: number | null, lang: Language) => (n === null ? "" : countText(n, NOUNS.credit, lang));

/** The budget as one sentence. */
export function budgetViewText(b: BudgetView, lang: Language): string {
  if (!b.source) return budgetText(b, lang);
  const de = lang === "de";
  if (b.source === "mcp")
    return de
      ? `Budget: das eigene Limit dieses MCP-Servers (--budget ${b.limit}, niedriger als Ihr Budget auf dem Team-Server): ${b.spent} verbraucht, ${left(b.remaining, lang)} übrig.`
      : `Budget: this MCP server's own limit (--budget ${b.limit}, lower than your team server budget): ${b.spent} spent, ${left(b.remaining, lang)} left.`;
  const higher =
    b.ownLimit !== undefined && b.ownLimit !== null
      ? de
        ? ` (--budget ${b.ownLimit} liegt darüber und ändert nichts.)`
        : ` (--budget ${b.ownLimit} is above it and changes nothing.)`
      : "";
  const limit = b.limit === null ? (de ? "ohne eigenes Limit" : "no limit of your own") : `${b.limit}`;
  return de
    ? `Budget (Ihres auf dem Team-Server, diesen Monat): ${b.spent} verbraucht, ${limit}, ${left(b.remaining, lang)} übrig.${higher}`
    : `Budget (yours on the team server, this month): ${b.spent} spent, ${limit}, ${left(b.remaining, lang)} left.${higher}`;
}

/** The start-up line's budget in server mode, before any figure is known. */
export function serverBudgetNote(own: number | null, lang: Language): string {
  if (own === null)
    return lang === "de"
      ? "Budget: Ihr Budget auf dem Team-Server (vom Admin Ihres Teams festgelegt)."
      : "Budget: your budget on the team server (set by your team's admin).";
  return lang === "de"
    ? `Budget: Ihr Budget auf dem Team-Server; das eigene Limit dieses MCP-Servers von ${own} gilt, wo es niedriger ist (ein eigenes Limit kann es nur senken).`
    : `Budget: your budget on the team server; this MCP server's own limit of ${own} applies where it is lower (an own limit can only lower it).`;
}

/**
 * The budget a result shows: this process's own (direct), or the one budget
 * through a team server, read from its account answer (free) with `quiet`, a
 * context that counts nothing towards the call's requests. When the server
 * does not answer, this process's own status stands.
 */
export function* budgetFor(
  ctx: OpContext,
  quiet: OpContext,
  limit: number | null,
  serverMode: boolean,
): Operation<BudgetView> {
  const own = yield* budgetStatus(ctx, limit);
  if (!serverMode) return own;
  try {
    return teamBudgetView(yield* getAccount(quiet), own);
  } catch {
    return { ...own, source: own.limit === null ? "server" : "mcp" };
  }
}
