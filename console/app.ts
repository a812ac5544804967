/**
 * The console's state and what every view uses: the signed-in token (kept
 * in this tab's sessionStorage only: never localStorage, never the address,
 * never the page's HTML), the API with that token as a bearer header (no
 * cookie, so no request can be forged by another site), texts in the
 * chosen language, numbers and dates with the user's own separators (Intl).
 */
import { lookup } from "../shared/ui/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { CONSOLE_TEXTS, type TextKey } from "./texts.ts";

const TOKEN_KEY = "cd-console-token";
const LANG_KEY = "cd-console-lang";

export interface Message {
  kind: "info" | "error" | "success";
  text: string;
}

export interface Console {
  lang: Language;
  token: string | null;
  who: { user: string; admin: boolean } | null;
  view: string;
  /** A view's data and drafts, by view id: kept while the page lives. */
  data: Record<string, unknown>;
  message: Message | null;
  busy: boolean;
  render(): void;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const storedToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const storeToken = (t: string | null) =>
  t === null ? sessionStorage.removeItem(TOKEN_KEY) : sessionStorage.setItem(TOKEN_KEY, t);
export const storedLang = (): Language | null => {
  const l = sessionStorage.getItem(LANG_KEY);
  return l === "de" || l === "en" ? l : null;
};
export const storeLang = (l: Language) => sessionStorage.setItem(LANG_KEY, l);

export function t(c: Console, key: TextKey, vars?: Record<string, string | number>): string {
  return lookup(CONSOLE_TEXTS, key, c.lang, vars);
}

/** The user's locale for numbers and dates (the browser's), whatever the texts' language. */
const locale = (): string => (typeof navigator !== "undefined" && navigator.language) || "de-DE";

export const num = (n: number): string => new Intl.NumberFormat(locale()).format(n);

export function when(iso: string | null): string {
  if (!iso) return "–";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return (
    new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(d) + " UTC"
  );
}

export const day = (iso: string): string =>
  new Intl.DateTimeFormat(locale(), { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(iso + "T00:00:00Z"),
  );

/** One call of the console's API with the signed-in token; the server's message on failure. */
export async function api<R>(c: Console, path: string, body?: unknown): Promise<R> {
  const res = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      Authorization: `Bearer ${c.token ?? ""}`,
      "Accept-Language": c.lang,
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  });
  if (!res.ok) {
    let text = `HTTP ${res.status}`;
    try {
      text = ((await res.json()) as { error?: { message?: string } }).error?.message ?? text;
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, text);
  }
  return (await res.json()) as R;
}

/** The same, for a file (the ledger's CSV): its text. */
export async function apiText(c: Console, path: string): Promise<string> {
  const res = await fetch(path, {
    headers: { Authorization: `Bearer ${c.token ?? ""}`, "Accept-Language": c.lang },
    cache: "no-store",
    credentials: "omit",
  });
  if (!res.ok) throw new ApiError(res.status, `HTTP ${res.status}`);
  return res.text();
}

/** Run an action with the page busy and its outcome as the message; re-renders after. */
export async function act(c: Console, f: () => Promise<string | void>): Promise<void> {
  c.busy = true;
  c.message = null;
  c.render();
  try {
    const done = await f();
    if (done) c.message = { kind: "success", text: done };
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      storeToken(null);
      c.token = null;
      c.who = null;
      c.message = { kind: "error", text: t(c, "badToken") };
    } else c.message = { kind: "error", text: e instanceof Error ? e.message : String(e) };
  } finally {
    c.busy = false;
    c.render();
  }
}

/** Load a view's data once (or again with `force`); the view renders "Loading …" meanwhile. */
export function load<D>(c: Console, key: string, f: () => Promise<D>, force = false): D | undefined {
  const have = c.data[key] as D | undefined | null;
  if (have !== undefined && !force) return have ?? undefined;
  c.data[key] = null;
  f().then(
    (d) => {
      c.data[key] = d;
      c.render();
    },
    (e: unknown) => {
      // Left at null (not asked again by itself): the message says why, Refresh asks again.
      c.message = { kind: "error", text: e instanceof Error ? e.message : String(e) };
      if (e instanceof ApiError && e.status === 401) {
        storeToken(null);
        c.token = null;
        c.who = null;
      }
      c.render();
    },
  );
  return undefined;
}
