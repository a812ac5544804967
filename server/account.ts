/**
 * GET /v2/account through the server answers for the user, not the key:
 * `credits` is what this user may still spend this month (the least of the
 * API's balance, the user's budget left and the team's budget left), and
 * `usage` is the user's own spend (month, and per endpoint from the ledger).
 * So every host's balance display shows the user's figures, and no user sees
 * another's spend.
 */
import type { CallSpec } from "../shared/api/index.ts";
import { AccountResponse } from "../shared/api/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { AuthUser } from "./auth/tokens.ts";
import type { Db } from "./db/db.ts";
import { serverNow } from "./clock.ts";
import { monthOf, remaining } from "./ledger/budget.ts";
import type { Answer, PurchaseContext } from "./purchase.ts";
import { answerFor } from "./purchase.ts";

export async function accountAnswer(
  ctx: PurchaseContext,
  user: AuthUser,
  spec: CallSpec,
  lang: Language,
): Promise<Answer> {
  const upstream = await answerFor(ctx, user, spec, lang);
  if (upstream.status !== 200) return upstream;
  const parsed = AccountResponse.safeParse(JSON.parse(upstream.body));
  if (!parsed.success) return upstream;
  const now = serverNow();
  const left = await remaining(ctx.db, user, now);
  const limits = [parsed.data.credits];
  if (left.user.budget !== null) limits.push(Math.max(0, left.user.budget - left.user.spent));
  if (left.team.budget !== null) limits.push(Math.max(0, left.team.budget - left.team.spent));
  const body = {
    credits: Math.min(...limits),
    usage: { month: left.user.spent, byEndpoint: await byEndpoint(ctx.db, user, monthOf(now)) },
    plan: parsed.data.plan ?? null,
    // Whose token this is, so a page can say who is connected (the playground's header).
    user: user.name,
    budget: { month: left.month, user: left.user.budget, userSpent: left.user.spent, team: left.team.budget },
  };
  return { status: 200, headers: upstream.headers, body: JSON.stringify(body) };
}

async function byEndpoint(db: Db, user: AuthUser, month: string): Promise<Record<string, number>> {
  const rows = await db.query<{ endpoint: string; credits: number }>(
    "select endpoint, sum(credits)::int as credits from ledger where month = $1 and user_id = $2 and status in ('settled', 'pending') group by endpoint order by endpoint",
    [month, user.id],
  );
  return Object.fromEntries(rows.map((r) => [r.endpoint, r.credits]));
}
