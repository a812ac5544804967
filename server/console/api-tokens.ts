/**
 * Tokens and users (admin): every user with their tokens (the last four
 * characters only), their spend this month and their budget; create a
 * token (answered once, never stored: server/auth/tokens.ts), rotate and
 * revoke, through the token functions of server/auth/ (the one path that
 * makes tokens).
 */
import { createToken, listUsers, revokeTokens, rotateTokens, TokenCapReached, UserNotFound } from "../auth/tokens.ts";
import { serverNow } from "../clock.ts";
import { budgetLines } from "../ledger/budget-admin.ts";
import { bodyOf, budgetOf, CONSOLE_TEXTS, fail, json, userOf, wholeNumber, type ConsoleRoute } from "./kit.ts";

export const tokenRoutes: ConsoleRoute[] = [
  {
    method: "GET",
    path: /^\/users$/,
    async handle(_req, res, ctx) {
      const [users, budgets] = await Promise.all([listUsers(ctx.db), budgetLines(ctx.db, serverNow())]);
      json(res, 200, {
        users: users.map((u) => {
          const b = budgets.find((x) => x.user === u.name);
          return { ...u, spent: b?.spent ?? 0, effectiveBudget: b?.effective ?? null };
        }),
      });
    },
  },
  {
    method: "POST",
    path: /^\/tokens$/,
    async handle(_req, res, ctx) {
      const b = bodyOf(ctx);
      const user = userOf(b.user);
      const budget = b.monthBudget === undefined ? undefined : budgetOf(b.monthBudget, "monthBudget");
      const days =
        b.expiresInDays === undefined || b.expiresInDays === ""
          ? undefined
          : wholeNumber(b.expiresInDays, "expiresInDays", 1, 3650);
      let token: string;
      try {
        token = await createToken(ctx.db, user, budget, {
          admin: b.admin === true,
          ...(days !== undefined ? { expiresInSeconds: days * 86_400 } : {}),
        });
      } catch (e) {
        if (e instanceof TokenCapReached)
          return fail(res, ctx, "INVALID_INPUT", CONSOLE_TEXTS.tokenCap[ctx.lang](user, e.max));
        throw e;
      }
      ctx.log.info("console.token.created", { by: ctx.user!.name, user, admin: b.admin === true });
      // Shown once, to this answer only (no-store): the page shows it with a copy button and forgets it.
      json(res, 200, { user, token });
    },
  },
  {
    method: "POST",
    path: /^\/tokens\/rotate$/,
    async handle(_req, res, ctx) {
      const b = bodyOf(ctx);
      const user = userOf(b.user);
      const graceSeconds =
        b.graceHours === undefined ? undefined : wholeNumber(b.graceHours, "graceHours", 0, 24 * 30) * 3600;
      try {
        // A new token; the old ones stay valid for the grace period, then end (server/auth/tokens.ts rotateTokens).
        const r = await rotateTokens(ctx.db, user, graceSeconds === undefined ? {} : { graceSeconds });
        ctx.log.info("console.token.rotated", { by: ctx.user!.name, user, rotated: r.rotated });
        json(res, 200, { user, token: r.token, rotated: r.rotated, graceUntil: r.graceUntil });
      } catch (e) {
        if (e instanceof UserNotFound) return fail(res, ctx, "NOT_FOUND", CONSOLE_TEXTS.noUser[ctx.lang](user));
        throw e;
      }
    },
  },
  {
    method: "POST",
    path: /^\/tokens\/revoke$/,
    async handle(_req, res, ctx) {
      const user = userOf(bodyOf(ctx).user);
      try {
        const n = await revokeTokens(ctx.db, user);
        ctx.log.info("console.token.revoked", { by: ctx.user!.name, user, tokens: n });
        json(res, 200, { user, revoked: n });
      } catch (e) {
        if (e instanceof UserNotFound) return fail(res, ctx, "NOT_FOUND", CONSOLE_TEXTS.noUser[ctx.lang](user));
        throw e;
      }
    },
  },
];
