/**
 * Budgets (admin): the team's and each user's monthly budget, a soft limit
 * per budget (percent, webhooks and e-mail recipients, checked as a
 * schedule's alert channels are), temporary increases with an end date, and
 * the history of changes with who and when (server/ledger/budget-admin.ts).
 */
import { CompanyDataError, toCompanyDataError } from "../../shared/core/index.ts";
import { alertSettings, checkWebhookUrl } from "../../shared/monitor/index.ts";
import { serverNow } from "../clock.ts";
import { registrationRefusal, STRICT_OUTBOUND } from "../net/outbound.ts";
import { errorAnswer, send } from "../errors.ts";
import {
  budgetHistory,
  budgetLines,
  grantIncrease,
  NoSuchUser,
  revokeIncrease,
  setBudget,
  setSoftLimit,
  type BudgetScope,
} from "../ledger/budget-admin.ts";
import type { ServerContext } from "../routes.ts";
import {
  BadField,
  bodyOf,
  budgetOf,
  CONSOLE_TEXTS,
  fail,
  json,
  userOf,
  wholeNumber,
  type ConsoleRoute,
} from "./kit.ts";

const MAX_WEBHOOKS = 5;

/** `user: null` (or absent) is the team. */
const scopeOf = (v: unknown): BudgetScope =>
  v === null || v === undefined || v === "" ? { team: true } : { user: userOf(v) };

const by = (ctx: ServerContext) => ctx.user!.name;

/** An end date: YYYY-MM-DD (the end of that day, UTC) or an ISO instant, after the server's now. */
function endOf(v: unknown): number {
  const s = typeof v === "string" ? v.trim() : "";
  const t = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T23:59:59.999Z`) : Date.parse(s);
  if (!Number.isFinite(t) || t <= serverNow()) throw new BadField("endsAt", CONSOLE_TEXTS.date);
  return t;
}

function list(v: unknown, field: string): string[] {
  if (v === undefined || v === null || v === "") return [];
  const xs = Array.isArray(v) ? v : String(v).split(/[\n,;]/);
  if (!xs.every((x) => typeof x === "string")) throw new BadField(field, { de: "erwartet Text", en: "expected text" });
  return [...new Set(xs.map((x: string) => x.trim()).filter(Boolean))];
}

async function withUser(res: Parameters<ConsoleRoute["handle"]>[1], ctx: ServerContext, f: () => Promise<void>) {
  try {
    await f();
  } catch (e) {
    if (e instanceof NoSuchUser) return fail(res, ctx, "NOT_FOUND", CONSOLE_TEXTS.noUser[ctx.lang](e.user));
    if (e instanceof CompanyDataError || (e as { code?: string })?.code === "INVALID_INPUT") {
      const err = toCompanyDataError(e);
      return send(
        res,
        errorAnswer(
          "INVALID_INPUT",
          err.text(ctx.lang),
          err.details.field !== undefined ? { field: String(err.details.field) } : {},
        ),
      );
    }
    throw e;
  }
}

export const budgetRoutes: ConsoleRoute[] = [
  {
    method: "GET",
    path: /^\/budgets$/,
    async handle(_req, res, ctx) {
      const now = serverNow();
      json(res, 200, {
        now: new Date(now).toISOString(),
        budgets: await budgetLines(ctx.db, now),
        history: await budgetHistory(ctx.db, 100),
      });
    },
  },
  {
    method: "POST",
    path: /^\/budgets$/,
    async handle(_req, res, ctx) {
      const b = bodyOf(ctx);
      const scope = scopeOf(b.user);
      const budget = budgetOf(b.budget, "budget");
      await withUser(res, ctx, async () => {
        await setBudget(ctx.db, scope, budget, by(ctx));
        ctx.log.info("console.budget", { by: by(ctx), budget: "team" in scope ? "team" : scope.user, value: budget });
        json(res, 200, { ok: true });
      });
    },
  },
  {
    method: "POST",
    path: /^\/soft-limit$/,
    async handle(_req, res, ctx) {
      const b = bodyOf(ctx);
      const scope = scopeOf(b.user);
      await withUser(res, ctx, async () => {
        if (b.remove === true) {
          await setSoftLimit(ctx.db, scope, null, by(ctx));
          return json(res, 200, { ok: true });
        }
        const percent = wholeNumber(b.percent, "percent", 1, 100);
        const webhooks = list(b.webhooks, "webhooks").map((w) => checkWebhookUrl(w));
        // As a schedule's webhooks: an address that leads inside is refused here, and checked again at send.
        for (const [i, w] of webhooks.entries()) {
          const refusal = registrationRefusal(ctx.outbound ?? STRICT_OUTBOUND, w, `webhooks[${i}]`);
          if (refusal) throw refusal;
        }
        if (webhooks.length > MAX_WEBHOOKS)
          throw new BadField("webhooks", {
            de: CONSOLE_TEXTS.wholeNumber.de(0, MAX_WEBHOOKS),
            en: CONSOLE_TEXTS.wholeNumber.en(0, MAX_WEBHOOKS),
          });
        // The recipients as a schedule's (at most MAX_RECIPIENTS, each an address).
        const { email: emails } = alertSettings(
          { email: list(b.emails, "emails") },
          { email: [], webhook: null },
          "team-server",
        );
        if (!webhooks.length && !emails.length)
          return fail(res, ctx, "INVALID_INPUT", CONSOLE_TEXTS.noChannel[ctx.lang]);
        const language = b.language === "en" || b.language === "de" ? b.language : ctx.lang;
        await setSoftLimit(ctx.db, scope, { percent, webhooks, emails, language }, by(ctx));
        ctx.log.info("console.soft-limit", { by: by(ctx), budget: "team" in scope ? "team" : scope.user, percent });
        json(res, 200, { ok: true });
      });
    },
  },
  {
    method: "POST",
    path: /^\/increases$/,
    async handle(_req, res, ctx) {
      const b = bodyOf(ctx);
      const scope = scopeOf(b.user);
      const credits = wholeNumber(b.credits, "credits", 1, 1_000_000_000);
      const endsAt = endOf(b.endsAt);
      await withUser(res, ctx, async () => {
        const id = await grantIncrease(ctx.db, scope, credits, endsAt, by(ctx));
        ctx.log.info("console.increase", { by: by(ctx), budget: "team" in scope ? "team" : scope.user, credits });
        json(res, 200, { id, endsAt: new Date(endsAt).toISOString() });
      });
    },
  },
  {
    method: "POST",
    path: /^\/increases\/(\d{1,9})\/revoke$/,
    async handle(_req, res, ctx, m) {
      if (!(await revokeIncrease(ctx.db, Number(m[1]), by(ctx))))
        return fail(res, ctx, "NOT_FOUND", ctx.lang === "de" ? "Keine solche Erhöhung." : "No such increase.");
      json(res, 200, { ok: true });
    },
  },
];
