/**
 * What the console's routes share: JSON answers (never cached: they carry a
 * team's figures), the body read as an object, and the validation of the
 * few kinds of field they take, each error INVALID_INPUT naming its field
 * in the user's language.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { catalogue, type Language } from "../../shared/i18n/index.ts";
import { errorAnswer, send, type ServerErrorCode } from "../errors.ts";
import { msg } from "../i18n.ts";
import type { ServerContext } from "../routes.ts";
import { USER_NAME } from "../auth/tokens.ts";

export const CONSOLE_TEXTS = catalogue({
  field: {
    de: (field: string, rule: string) => `„${field}“: ${rule}`,
    en: (field: string, rule: string) => `“${field}”: ${rule}`,
  },
  wholeNumber: {
    de: (min: number, max: number) => `erwartet eine ganze Zahl von ${min} bis ${max}`,
    en: (min: number, max: number) => `expected a whole number from ${min} to ${max}`,
  },
  userName: { de: "erwartet einen Benutzernamen", en: "expected a user name" },
  month: { de: "erwartet einen Monat JJJJ-MM", en: "expected a month YYYY-MM" },
  date: { de: "erwartet ein Datum JJJJ-MM-TT in der Zukunft", en: "expected a date YYYY-MM-DD in the future" },
  noUser: { de: (u: string) => `Den Benutzer ${u} gibt es nicht.`, en: (u: string) => `There is no user ${u}.` },
  noSchedule: { de: "Diesen Zeitplan gibt es nicht.", en: "There is no such schedule." },
  nameTaken: {
    de: "Der Benutzer hat schon einen Zeitplan dieses Namens; nichts übertragen.",
    en: "The user already has a schedule of that name; nothing transferred.",
  },
  noChannel: {
    de: "Eine Warnschwelle braucht einen Webhook oder eine E-Mail-Adresse.",
    en: "A soft limit needs a webhook or an e-mail address.",
  },
  priceChanged: {
    de: (n: number) => `Der Preis hat sich geändert (jetzt ${n} Credits); bitte erneut bestätigen.`,
    en: (n: number) => `The price has changed (now ${n} credits); please confirm again.`,
  },
  tokenCap: {
    de: (u: string, n: number) => `${u} hat schon ${n} gültige Tokens; erst einen widerrufen.`,
    en: (u: string, n: number) => `${u} already holds ${n} valid tokens; revoke one first.`,
  },
  adminOnly: {
    de: "Diese Seite ist nur mit einem Admin-Token erreichbar.",
    en: "This page needs an admin token.",
  },
});

export class BadField extends Error {
  constructor(
    readonly field: string,
    readonly rule: { de: string; en: string },
  ) {
    super(field);
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })
    .end(JSON.stringify(body));
}

export function fail(res: ServerResponse, _ctx: ServerContext, code: ServerErrorCode, message: string): void {
  send(res, errorAnswer(code, message));
}

/** The request body as an object; {} when empty. */
export function bodyOf(ctx: ServerContext): Record<string, unknown> {
  if (ctx.body.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(ctx.body);
  } catch {
    throw new BadField("body", { de: msg.badJson.de, en: msg.badJson.en });
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new BadField("body", { de: "erwartet ein Objekt", en: "expected an object" });
  return v as Record<string, unknown>;
}

export function wholeNumber(v: unknown, field: string, min: number, max: number): number {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max)
    throw new BadField(field, {
      de: CONSOLE_TEXTS.wholeNumber.de(min, max),
      en: CONSOLE_TEXTS.wholeNumber.en(min, max),
    });
  return n;
}

/** null, "" or "none" = no budget. */
export function budgetOf(v: unknown, field: string): number | null {
  if (v === null || v === undefined || v === "" || v === "none") return null;
  return wholeNumber(v, field, 0, 1_000_000_000);
}

export function userOf(v: unknown, field = "user"): string {
  if (typeof v !== "string" || !USER_NAME.test(v)) throw new BadField(field, CONSOLE_TEXTS.userName);
  return v;
}

export function monthOfParam(v: string | null, fallback: string): string {
  const m = v ?? fallback;
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(m)) throw new BadField("month", CONSOLE_TEXTS.month);
  return m;
}

/** The answer for a BadField (or rethrow anything else). */
export function badFieldAnswer(res: ServerResponse, e: unknown, lang: Language): void {
  if (!(e instanceof BadField)) throw e;
  send(res, errorAnswer("INVALID_INPUT", CONSOLE_TEXTS.field[lang](e.field, e.rule[lang]), { field: e.field }));
}

/** One route of the console's API: a method and a path below its prefix. */
export interface ConsoleRoute {
  method: "GET" | "POST";
  path: RegExp;
  handle(req: IncomingMessage, res: ServerResponse, ctx: ServerContext, m: RegExpExecArray): Promise<void>;
}

/** Find and run the route of a request below `prefix`; a 404 or 405 otherwise. */
export async function dispatch(
  routes: ConsoleRoute[],
  prefix: string,
  req: IncomingMessage,
  res: ServerResponse,
  ctx: ServerContext,
): Promise<void> {
  const rest = ctx.url.pathname.slice(prefix.length) || "/";
  const method = (req.method ?? "GET").toUpperCase();
  const matching = routes.map((r) => [r, r.path.exec(rest)] as const).filter(([, m]) => m !== null);
  if (!matching.length) return fail(res, ctx, "NOT_FOUND", msg.notFound[ctx.lang]);
  const hit = matching.find(([r]) => r.method === method);
  if (!hit) return fail(res, ctx, "METHOD_NOT_ALLOWED", msg.methodNotAllowed[ctx.lang]);
  try {
    await hit[0].handle(req, res, ctx, hit[1]!);
  } catch (e) {
    badFieldAnswer(res, e, ctx.lang);
  }
}
