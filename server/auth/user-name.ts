/**
 * One rule for user names: `alice`, `Alice` and `ａｌｉｃｅ` (full-width) are
 * one user (compared after Unicode NFKC and case folding), and a name that
 * mixes scripts to look like another (Cyrillic `а` in `аlice`) or that only
 * looks like an existing user's in another script (all-Cyrillic `сора` beside `copa`) is
 * refused when a token is created. Existing rows stay as they were: a
 * lookup takes the exact name first, then the folded one.
 *
 * Folding: NFKC, then upper and lower case (ß → SS → ss, as full case
 * folding does), then NFKC again. Scripts: the letters' Unicode Script
 * property; Han with Hiragana/Katakana (Japanese) and Han with Hangul
 * (Korean) count as one.
 */
import { catalogue } from "../../shared/i18n/index.ts";
import type { Sql } from "../db/db.ts";

export const userNameKey = (name: string): string =>
  name.normalize("NFKC").toUpperCase().toLowerCase().normalize("NFKC");

const SCRIPTS = [
  "Latin",
  "Cyrillic",
  "Greek",
  "Armenian",
  "Georgian",
  "Hebrew",
  "Arabic",
  "Devanagari",
  "Thai",
  "Han",
  "Hiragana",
  "Katakana",
  "Hangul",
] as const;
const SCRIPT_RE = SCRIPTS.map((s) => [s, new RegExp(`\\p{Script=${s}}`, "u")] as const);
const CJK: ReadonlySet<string> = new Set(["Han", "Hiragana", "Katakana", "Hangul"]);

/** The scripts of a name's letters (digits, dot, dash, underscore, @ belong to none). */
export function scriptsOf(name: string): Set<string> {
  const found = new Set<string>();
  for (const ch of name) {
    if (!/\p{L}/u.test(ch)) continue;
    found.add(SCRIPT_RE.find(([, re]) => re.test(ch))?.[0] ?? "Other");
  }
  return found;
}

export const mixedScripts = (name: string): boolean => {
  const s = [...scriptsOf(name)];
  return s.length > 1 && !s.every((x) => CJK.has(x));
};

/**
 * Cyrillic and Greek letters drawn like Latin ones (after folding), for the
 * look-alike check across whole names (Unicode's confusables, the letters a
 * Latin user name can be spelt with).
 */
const LOOKS_LATIN: Record<string, string> = {
  а: "a",
  в: "b",
  е: "e",
  ё: "e",
  һ: "h",
  і: "i",
  ї: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ѕ: "s",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  ɡ: "g",
  α: "a",
  β: "b",
  ε: "e",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ζ: "z",
  η: "n",
};

/** What a name looks like: its folded form with look-alike letters read as Latin. */
export const skeleton = (name: string): string => [...userNameKey(name)].map((c) => LOOKS_LATIN[c] ?? c).join("");

export type NameVerdict =
  { ok: true; existing: { id: number; name: string } | null } | { ok: false; lookAlike: string | null };

/**
 * Which user `name` is: the one of the same name or the same folded name
 * (`existing`), a new one (`existing` null), or refused (a mix of scripts,
 * or a look-alike of `lookAlike`). Called inside the transaction that
 * creates the user, after `lockUserNames`.
 */
export async function checkUserName(tx: Sql, name: string): Promise<NameVerdict> {
  const users = await tx.query<{ id: number; name: string }>("select id, name from users order by id");
  const exact = users.find((u) => u.name === name);
  if (exact) return { ok: true, existing: exact };
  const key = userNameKey(name);
  const same = users.find((u) => userNameKey(u.name) === key);
  if (same) return { ok: true, existing: same };
  if (mixedScripts(name)) return { ok: false, lookAlike: null };
  const look = skeleton(name);
  const alike = users.find((u) => skeleton(u.name) === look);
  if (alike) return { ok: false, lookAlike: alike.name };
  return { ok: true, existing: null };
}

/** The id of the user `name` names (exact, else folded), or null: for the commands that name a user. */
export async function findUserId(db: Sql, name: string): Promise<number | null> {
  const users = await db.query<{ id: number; name: string }>("select id, name from users order by id");
  const key = userNameKey(name);
  return (users.find((u) => u.name === name) ?? users.find((u) => userNameKey(u.name) === key))?.id ?? null;
}

/** Any fixed number: the advisory lock that makes "is there such a user? then create" one step across processes. */
const USER_NAMES_LOCK = 8790_0036;

export async function lockUserNames(tx: Sql): Promise<void> {
  await tx.query("select pg_advisory_xact_lock($1)", [USER_NAMES_LOCK]);
}

export class UserNameRefused extends Error {
  constructor(
    readonly user: string,
    readonly lookAlike: string | null,
  ) {
    super(
      lookAlike
        ? `the user name ${user} looks like the existing user ${lookAlike}`
        : `the user name ${user} mixes scripts (e.g. Latin and Cyrillic letters)`,
    );
  }
}

export const userNameText = catalogue({
  refused: {
    de: (user: string, alike: string | null) =>
      alike
        ? `Der Benutzername ${user} sieht aus wie der des Benutzers ${alike} (andere Schrift, gleiches Bild) und wird nicht angelegt. Für ${alike}: genau diesen Namen verwenden; sonst einen unterscheidbaren Namen wählen.`
        : `Der Benutzername ${user} mischt Schriften (z. B. lateinische und kyrillische Buchstaben) und wird nicht angelegt: solche Namen sehen aus wie andere. Einen Namen in einer Schrift wählen.`,
    en: (user: string, alike: string | null) =>
      alike
        ? `The user name ${user} looks like that of the user ${alike} (another script, the same look) and is not created. For ${alike}, use exactly that name; otherwise choose a name that can be told apart.`
        : `The user name ${user} mixes scripts (e.g. Latin and Cyrillic letters) and is not created: such names look like others. Choose a name in one script.`,
  },
});
