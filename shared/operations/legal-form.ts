/**
 * German legal forms: the one table and the one parser.
 *
 * A company's legal form is part of its identity: "Rossi Partners GmbH" and
 * "Rossi Partners GmbH & Co. KG" are two legal persons with two register
 * entries (the GmbH is usually the KG's general partner), and a UG is not a
 * GmbH. Matching (operations/contradiction.ts), the search filter (mcp, CLI,
 * formula) and anything else that names a form read this table.
 *
 * The form is read from the END of a name only, as the law puts it there
 * (§ 4 GmbHG, § 4 AktG, § 19 HGB, § 3 GenG, § 2 PartGG require the form in the
 * firm's name, in practice as its suffix): "Leistungs GmbH" is a GmbH, "Verlag"
 * is not an AG ("ag" must be a word of its own), "Stiftung Warentest" has no
 * form read from it. The longest spelling that ends the name wins, so
 * "GmbH & Co. KG" beats "KG" and "gemeinnützige GmbH" beats "GmbH".
 * A trailing status ("i.L.", "in Liquidation", "i.G.") is skipped.
 *
 * `filter` is the value the API's `legalForm` search filter takes for the form
 * (shared/api/schemas.ts SearchFilters.legalForm). The spec names no values
 * (company-data-api.md §2.4: fields not shown), so this is a decision: the
 * codes the emulator answers in `legalForm.code` (emulator/i18n.ts), which the
 * client also sends. Forms the register does not distinguish share their
 * register form's code (a gGmbH is a GmbH with a tax status, a PartG mbB a
 * PartG with limited professional liability, § 8 (4) PartGG); forms the
 * service does not cover have null (registered associations are not
 * companies, company-data-api.md §1; foundations are in no commercial register).
 */
import { foldGerman, type Bilingual } from "../i18n/index.ts";

export interface LegalForm {
  /** Canonical code, unique per form: "GMBH_CO_KG". */
  code: string;
  /** The usual abbreviation, the same in both languages: "GmbH & Co. KG". */
  short: string;
  /** The form's full name. */
  label: Bilingual;
  /** The API's legalForm filter value, or null when the service does not list such companies. */
  filter: string | null;
  /** Spellings recognised at the end of a name (each also matched without dots, spaces or case). */
  spellings: readonly string[];
}

const GMBH = [
  "GmbH",
  "G.m.b.H.",
  "Gesellschaft mit beschränkter Haftung",
  "Gesellschaft mbH",
  "Ges. mbH",
  "GesmbH",
  "mbH",
  "mit beschränkter Haftung",
];
const AG = ["AG", "Aktiengesellschaft", "Aktien-Gesellschaft"];
const SE = ["SE", "Societas Europaea", "Europäische Gesellschaft"];
const UG = [
  "UG (haftungsbeschränkt)",
  "UG (haftungsbeschr.)",
  "UG (hb)",
  "UG",
  "Unternehmergesellschaft (haftungsbeschränkt)",
  "Unternehmergesellschaft",
];
const KG = ["KG", "Kommanditgesellschaft", "Kommandit-Gesellschaft"];
const KGAA = ["KGaA", "KG aA", "KG a.A.", "Kommanditgesellschaft auf Aktien"];
const STIFTUNG = ["Stiftung"];
/** "& Co.", "u. Co.", "und Co", "+ Co.", "& Cie.", "& Compagnie": connectors are dropped when reading, so only the "Co" word counts. */
const CO = ["Co.", "Cie.", "Compagnie"];

/** Every "<general partner> & Co. <KG|KGaA>" spelling. */
function compound(partner: readonly string[], kind: readonly string[]): string[] {
  return partner.flatMap((p) => CO.flatMap((c) => kind.map((k) => `${p} & ${c} ${k}`)));
}

const form = (
  code: string,
  short: string,
  de: string,
  en: string,
  filter: string | null,
  spellings: readonly string[],
): LegalForm => ({ code, short, label: { de, en }, filter, spellings });

/** The legal forms, in the order they are listed to users. */
export const LEGAL_FORMS: readonly LegalForm[] = [
  form("GMBH", "GmbH", "Gesellschaft mit beschränkter Haftung", "Limited liability company", "GMBH", GMBH),
  form("GGMBH", "gGmbH", "Gemeinnützige GmbH", "Non-profit limited liability company", "GMBH", [
    "gGmbH",
    "gemeinnützige GmbH",
    "gemeinnützige Gesellschaft mit beschränkter Haftung",
    "gemeinnützige Gesellschaft mbH",
  ]),
  form(
    "UG",
    "UG (haftungsbeschränkt)",
    "Unternehmergesellschaft (haftungsbeschränkt)",
    "Entrepreneurial company (limited liability)",
    "UG",
    UG,
  ),
  form("AG", "AG", "Aktiengesellschaft", "Stock corporation", "AG", AG),
  form("SE", "SE", "Europäische Gesellschaft (SE)", "European company (SE)", "SE", SE),
  form("KGAA", "KGaA", "Kommanditgesellschaft auf Aktien", "Partnership limited by shares", "KGAA", KGAA),
  form("KG", "KG", "Kommanditgesellschaft", "Limited partnership", "KG", KG),
  form("OHG", "OHG", "Offene Handelsgesellschaft", "General partnership", "OHG", [
    "OHG",
    "oHG",
    "offene Handelsgesellschaft",
  ]),
  form(
    "GMBH_CO_KG",
    "GmbH & Co. KG",
    "GmbH & Co. KG",
    "Limited partnership with a GmbH as general partner",
    "GMBH_CO_KG",
    compound(GMBH, KG),
  ),
  form(
    "AG_CO_KG",
    "AG & Co. KG",
    "AG & Co. KG",
    "Limited partnership with an AG as general partner",
    "AG_CO_KG",
    compound(AG, KG),
  ),
  form(
    "SE_CO_KG",
    "SE & Co. KG",
    "SE & Co. KG",
    "Limited partnership with an SE as general partner",
    "SE_CO_KG",
    compound(SE, KG),
  ),
  form(
    "UG_CO_KG",
    "UG (haftungsbeschränkt) & Co. KG",
    "UG (haftungsbeschränkt) & Co. KG",
    "Limited partnership with a UG as general partner",
    "UG_CO_KG",
    compound(UG, KG),
  ),
  form(
    "STIFTUNG_CO_KG",
    "Stiftung & Co. KG",
    "Stiftung & Co. KG",
    "Limited partnership with a foundation as general partner",
    "STIFTUNG_CO_KG",
    compound(STIFTUNG, KG),
  ),
  form(
    "GMBH_CO_KGAA",
    "GmbH & Co. KGaA",
    "GmbH & Co. KGaA",
    "Partnership limited by shares with a GmbH as general partner",
    "GMBH_CO_KGAA",
    compound(GMBH, KGAA),
  ),
  form(
    "AG_CO_KGAA",
    "AG & Co. KGaA",
    "AG & Co. KGaA",
    "Partnership limited by shares with an AG as general partner",
    "AG_CO_KGAA",
    compound(AG, KGAA),
  ),
  form(
    "SE_CO_KGAA",
    "SE & Co. KGaA",
    "SE & Co. KGaA",
    "Partnership limited by shares with an SE as general partner",
    "SE_CO_KGAA",
    compound(SE, KGAA),
  ),
  form("EK", "e.K.", "Eingetragene(r) Kaufmann/Kauffrau", "Registered merchant", "EK", [
    "e.K.",
    "e.Kfm.",
    "e.Kfr.",
    "eK",
    "eKfm",
    "eKfr",
    "eingetragener Kaufmann",
    "eingetragene Kauffrau",
  ]),
  form("EG", "eG", "Eingetragene Genossenschaft", "Registered cooperative", "EG", [
    "eG",
    "e.G.",
    "eingetragene Genossenschaft",
  ]),
  form("PARTG", "PartG", "Partnerschaftsgesellschaft", "Partnership company", "PARTG", [
    "PartG",
    "Partnerschaftsgesellschaft",
    "Partnerschaft",
  ]),
  form(
    "PARTG_MBB",
    "PartG mbB",
    "Partnerschaftsgesellschaft mit beschränkter Berufshaftung",
    "Partnership company with limited professional liability",
    "PARTG",
    [
      "PartG mbB",
      "PartGmbB",
      "Partnerschaftsgesellschaft mbB",
      "Partnerschaft mbB",
      "Partnerschaftsgesellschaft mit beschränkter Berufshaftung",
      "mbB",
      "mit beschränkter Berufshaftung",
    ],
  ),
  form("STIFTUNG", "Stiftung", "Stiftung", "Foundation", null, [
    "Stiftung",
    "gemeinnützige Stiftung",
    "Stiftung bürgerlichen Rechts",
    "Stiftung des bürgerlichen Rechts",
  ]),
  form("EV", "e.V.", "Eingetragener Verein", "Registered association", null, ["e.V.", "eV", "eingetragener Verein"]),
];

/** Lower case, ä = ae, ß = ss, other accents dropped: one word as the parser compares it (the one folding). */
function foldWord(w: string): string {
  return foldGerman(w);
}

/** Words joining partner and "Co." ("&", "+", "u.", "und", "and"): not read, so every connector fits every spelling. */
const CONNECTORS = new Set(["&", "+", "u", "und", "and"]);

interface Word {
  text: string;
  start: number;
}

/** The name's words with where each starts; connectors dropped. */
function words(name: string): Word[] {
  const out: Word[] = [];
  // exec in a loop, not matchAll: the Apps Script and Office bundles target ES2019.
  const re = /[\p{L}\p{N}]+|[&+]/gu;
  for (let m = re.exec(name); m; m = re.exec(name)) {
    const text = foldWord(m[0]);
    if (!CONNECTORS.has(text)) out.push({ text, start: m.index });
  }
  return out;
}

const spellingWords = (s: string) => words(s).map((w) => w.text);

/** A status after the form ("Müller GmbH i.L."): skipped, it is not part of the form. */
const TRAILING_STATUS: readonly string[][] = [
  "i.L.",
  "in Liquidation",
  "i. Liqu.",
  "i.Liq.",
  "in Abwicklung",
  "i.A.",
  "i.G.",
  "in Gründung",
  "i.Gr.",
  "in Insolvenz",
  "i.I.",
].map(spellingWords);

/** Spellings by their last word, longest first: the parser looks at few of them per name. */
const BY_LAST_WORD: Map<string, { form: LegalForm; words: string[] }[]> = (() => {
  const map = new Map<string, { form: LegalForm; words: string[] }[]>();
  for (const f of LEGAL_FORMS) {
    const seen = new Set<string>();
    for (const s of f.spellings) {
      // The spelling as written, and written without its dots and spaces ("GmbH&Co.KG" = "gmbhcokg" word by word anyway).
      for (const ws of [spellingWords(s), [spellingWords(s).join("")]]) {
        const key = ws.join(" ");
        const last = ws[ws.length - 1];
        if (!last || seen.has(key)) continue;
        seen.add(key);
        const list = map.get(last) ?? [];
        list.push({ form: f, words: ws });
        map.set(last, list);
      }
    }
  }
  for (const list of map.values()) list.sort((a, b) => b.words.length - a.words.length);
  return map;
})();

const endsWith = (ws: Word[], end: number, tail: string[]) =>
  tail.length <= end && tail.every((t, k) => ws[end - tail.length + k]!.text === t);

export interface ParsedName {
  /** The form the name ends with, or null when it ends with none. */
  form: LegalForm | null;
  /** The name without its form (and without a trailing status): "Siemens" for "Siemens AG". */
  rest: string;
}

/** The legal form a company name ends with, and the name without it. */
export function parseLegalForm(name: string): ParsedName {
  const text = typeof name === "string" ? name : "";
  const ws = words(text);
  let end = ws.length;
  const status = TRAILING_STATUS.find((t) => t.length < end && endsWith(ws, end, t));
  if (status) end -= status.length;
  const last = ws[end - 1];
  const hit = last ? BY_LAST_WORD.get(last.text)?.find((s) => endsWith(ws, end, s.words)) : undefined;
  if (!hit) return { form: null, rest: text.trim() };
  const cut = ws[end - hit.words.length]!.start;
  // "Müller, GmbH" / "Müller & Co. GmbH": separators before the form go with it.
  const rest = text
    .slice(0, cut)
    .replace(/[\s,;&+(-]+$/u, "")
    .trim();
  return { form: hit.form, rest };
}

/** The form a code names: a canonical code ("GMBH_CO_KG") or an API filter value; null for none. */
export function legalFormByCode(code: string | null | undefined): LegalForm | null {
  if (!code) return null;
  const c = code.trim().toUpperCase();
  return LEGAL_FORMS.find((f) => f.code === c) ?? LEGAL_FORMS.find((f) => f.filter === c) ?? null;
}

/**
 * The form a user names in a filter or a column ("GmbH", "gmbh & co kg",
 * "Aktiengesellschaft", "GMBH_CO_KG"): a code, or a spelling that is the whole text.
 */
export function legalFormOf(text: string): LegalForm | null {
  const t = typeof text === "string" ? text.trim() : "";
  if (!t) return null;
  const byCode = /^[A-Za-z_]+$/.test(t) ? LEGAL_FORMS.find((f) => f.code === t.toUpperCase()) : undefined;
  if (byCode) return byCode;
  const p = parseLegalForm(t);
  return p.form && p.rest === "" ? p.form : null;
}

/**
 * Whether two forms name the same legal form. Where one side is known only by
 * the API's coarser filter code (a candidate without a form in its name), the
 * comparison is at that level: a "PARTG" answer fits a given "PartG mbB".
 */
export function sameLegalForm(a: LegalForm, b: LegalForm, coarse = false): boolean {
  if (a.code === b.code) return true;
  return coarse && a.filter !== null && a.filter === b.filter;
}
