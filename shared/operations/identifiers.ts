/**
 * Matching companies by identifier instead of name: website/domain, VAT id
 * (USt-IdNr.), register number and LEI, through the free, rate-limited
 * `POST /lookup` of the older listing (spec 4.2, "Lookup"; 0 credits,
 * emulator/README "Rate limits": the resolve bucket). Known service facts:
 * the provider's lookup accepts website/domain, VAT id, LEI, register court +
 * type + number. The spec names none of the body's fields; the LEI goes as
 * `lei` (decision beside shared/api/schemas.ts LookupRequest), and only an
 * LEI whose ISO 17442 check digits fit is sent (shared/api/lei.ts): a typo
 * is the row's error, never a lookup.
 *
 * The answers take the shape of a resolve (ResolvedRow) so every caller keeps
 * its review rules: one company is a match, several are listed for review
 * (never guessed), none is "not found".
 */
import type { CallSpec } from "../api/index.ts";
import { CompanySummary, type CompanySummary as Summary } from "../api/index.ts";
import type { Operation } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { LEI_PATTERN, normaliseLei, readLei } from "../api/index.ts";
import { cachedCallMany } from "./cached.ts";
import type { OpContext } from "./context.ts";
import type { ResolvedRow } from "./resolve.ts";

/** One company to look up: at least one identifier. */
export interface IdentifierQuery {
  /** A domain ("sap.com"), taken from a website or e-mail address. */
  url?: string;
  /** A VAT id without spaces: "DE123456789". */
  vatId?: string;
  /** A register number as users type it: "HRB 6684 München", "Amtsgericht München HRB 6684". */
  register?: string;
  /** A Legal Entity Identifier in its normal form, check digits verified: "506700GE1G29325QX363". */
  lei?: string;
}

const NOT_A_VAT: Bilingual = { de: "keine USt-IdNr. (z. B. DE123456789)", en: "not a VAT id (e.g. DE123456789)" };
const NOT_A_DOMAIN: Bilingual = {
  de: "keine Website oder Domain (z. B. www.beispiel.de)",
  en: "not a website or domain (e.g. www.example.com)",
};
const NOT_AN_LEI: Bilingual = {
  de: "keine LEI (20 Buchstaben und Ziffern, z. B. 506700GE1G29325QX363)",
  en: "not an LEI (20 letters and digits, e.g. 506700GE1G29325QX363)",
};
const LEI_CHECK_DIGITS: Bilingual = {
  de: "LEI mit falschen Prüfziffern (Tippfehler?)",
  en: "LEI whose check digits do not fit (a typo?)",
};
const NOT_A_REGISTER: Bilingual = {
  de: "keine Registernummer (z. B. HRB 6684 München)",
  en: "not a register number (e.g. HRB 6684 München)",
};

/** EU VAT ids: two letters and 2–12 letters or digits; German ones DE + nine digits. */
export function vatIdOf(s: string): string | null {
  const t = s.replace(/[\s.\-/]/g, "").toUpperCase();
  if (/^DE/.test(t)) return /^DE\d{9}$/.test(t) ? t : null;
  return /^[A-Z]{2}[A-Z0-9]{2,12}$/.test(t) && /\d/.test(t) ? t : null;
}

/** The domain of a website, URL or e-mail address, lower case, without www.: null when there is none. */
export function domainOf(s: string): string | null {
  let t = s.trim().toLowerCase();
  if (!t || /\s/.test(t)) return null;
  const at = t.lastIndexOf("@");
  if (at >= 0) t = t.slice(at + 1);
  t = t
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "")
    .replace(/^www\d?\./, "")
    .replace(/\.$/, "");
  return /^(?=.{4,253}$)([a-z0-9äöüß](?:[a-z0-9äöüß-]{0,61}[a-z0-9äöüß])?\.)+[a-z]{2,63}$/.test(t) ? t : null;
}

/** A register number in any of the usual orders: type (HRA, HRB, GnR, PR, VR) and number, court optional. */
export function registerOf(s: string): string | null {
  const t = s.trim().replace(/\s+/g, " ");
  return /\b(HRA|HRB|GnR|PR|VR)\s*[-:.]?\s*\d{1,7}\b/i.test(t) && t.length <= 200 ? t : null;
}

/** An LEI as typed, checked: its normal form, or INVALID_INPUT on `field` saying whether the shape or the check digits are wrong. */
export function leiOrThrow(s: string, field = "lei"): string {
  const r = readLei(s);
  if (r.ok) return r.lei;
  const why = r.reason === "checksum" ? LEI_CHECK_DIGITS : NOT_AN_LEI;
  throw invalid(field, { de: `${why.de}: „${s.trim()}“`, en: `${why.en}: "${s.trim()}"` });
}

/**
 * What a single text identifies, when it is an identifier rather than a name
 * (COMPANY_RESOLVE's first argument): an LEI, a VAT id, a register number,
 * or a website. Null for anything that reads as a company name. Twenty
 * letters and digits ending in two digits are no name: an LEI whose check
 * digits do not fit is INVALID_INPUT, not a name to resolve.
 */
export function identifierIn(text: string): IdentifierQuery | null {
  const t = text.trim();
  if (LEI_PATTERN.test(normaliseLei(t))) return { lei: leiOrThrow(t) };
  const vat = vatIdOf(t);
  if (vat && /^[A-Za-z]{2}[\s\d]/.test(t)) return { vatId: vat };
  // "HRB 6684 München" or "Amtsgericht München HRB 6684": a register number with at most a court around it.
  const reg = registerOf(t);
  if (
    reg &&
    reg
      .replace(/\b(HRA|HRB|GnR|PR|VR)\s*[-:.]?\s*\d{1,7}\b/i, "")
      .replace(/amtsgericht|registergericht/gi, "")
      .trim()
      .split(" ")
      .filter(Boolean).length <= 3
  )
    return { register: reg };
  if (/^(https?:\/\/|www\.)/i.test(t) || (/^[^\s@]+\.[a-z]{2,63}\/?$/i.test(t) && !/\s/.test(t))) {
    const d = domainOf(t);
    if (d) return { url: d };
  }
  return null;
}

/** An identifier query from the cells of a row, checked; INVALID_INPUT naming the column at fault. */
export function identifierQuery(cells: {
  website?: string;
  vatId?: string;
  register?: string;
  lei?: string;
}): IdentifierQuery | null {
  const q: IdentifierQuery = {};
  if (cells.lei?.trim()) q.lei = leiOrThrow(cells.lei);
  if (cells.vatId?.trim()) {
    const v = vatIdOf(cells.vatId);
    if (!v)
      throw invalid("vatId", {
        de: `${NOT_A_VAT.de}: „${cells.vatId.trim()}“`,
        en: `${NOT_A_VAT.en}: "${cells.vatId.trim()}"`,
      });
    q.vatId = v;
  }
  if (cells.website?.trim()) {
    const d = domainOf(cells.website);
    if (!d)
      throw invalid("website", {
        de: `${NOT_A_DOMAIN.de}: „${cells.website.trim()}“`,
        en: `${NOT_A_DOMAIN.en}: "${cells.website.trim()}"`,
      });
    q.url = d;
  }
  if (cells.register?.trim()) {
    const r = registerOf(cells.register);
    if (!r)
      throw invalid("register", {
        de: `${NOT_A_REGISTER.de}: „${cells.register.trim()}“`,
        en: `${NOT_A_REGISTER.en}: "${cells.register.trim()}"`,
      });
    q.register = r;
  }
  return Object.keys(q).length ? q : null;
}

/** The one identifier a lookup is asked with: the LEI and the VAT id are exact, then the register number, then the domain. */
function lookupBody(q: IdentifierQuery): IdentifierQuery {
  if (q.lei) return { lei: q.lei };
  if (q.vatId) return { vatId: q.vatId };
  if (q.register) return { register: q.register };
  return { url: q.url };
}

/** A company of the lookup's (older, v1) answer in the short form: the fields both forms share, industry and register mapped. */
function summaryOf(raw: Record<string, unknown>): Summary | null {
  const r = CompanySummary.safeParse(raw);
  if (!r.success) return null;
  const s = { ...r.data };
  const wz = (raw.industries as { wz2008?: { code?: unknown; title?: unknown }[] } | undefined)?.wz2008?.[0];
  if (!s.industry && wz && typeof wz.code === "string")
    s.industry = { code: wz.code, title: typeof wz.title === "string" ? wz.title : null };
  const hr = (raw.externalIds as { hr?: { court?: unknown; type?: unknown; number?: unknown } } | undefined)?.hr;
  if (!s.register && hr) {
    const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : null);
    s.register = { court: str(hr.court), type: str(hr.type), number: str(hr.number) };
  }
  return s;
}

/**
 * Look each query up (free; distinct queries once, answers cached). One
 * result per query, in order: matched (exactly one company, confidence 1),
 * ambiguous (several, listed as candidates), not_found, or error.
 */
export function* lookupMany(ctx: OpContext, queries: readonly IdentifierQuery[]): Operation<ResolvedRow[]> {
  const specs: CallSpec[] = queries.map((q) => ({ endpoint: "v1.lookup", body: lookupBody(q) }));
  const answers = yield* cachedCallMany<{ companies: Record<string, unknown>[] }>(ctx, specs);
  return answers.map((a): ResolvedRow => {
    if (!a.ok) {
      if (a.error.code === "NOT_FOUND") return { status: "not_found", match: null, confidence: null, candidates: [] };
      return { status: "error", match: null, confidence: null, candidates: [], error: a.error };
    }
    const found = (a.data.companies ?? []).map(summaryOf).filter((c): c is Summary => c !== null);
    const distinct = [...new Map(found.map((c) => [c.id, c])).values()];
    const [only] = distinct;
    if (!only) return { status: "not_found", match: null, confidence: null, candidates: [] };
    if (distinct.length === 1) return { status: "matched", match: only, confidence: 1, candidates: [] };
    return { status: "ambiguous", match: null, confidence: null, candidates: distinct.slice(0, 10) };
  });
}
