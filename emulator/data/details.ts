/**
 * The heavy parts of a company, derived on demand from (seed, id) so nothing
 * but the core table is stored: its history before the start date, its
 * people's tenures, yearly financials, news and job ads. Deterministic: the
 * same company always gets the same details.
 */
import { Rng } from "../rng.ts";
import { sentence } from "./text.ts";
import { INDUSTRIES } from "./industries.ts";
import { STREETS } from "./places.ts";
import type { CompanyRec } from "./model.ts";
import { nth } from "../indexed.ts";

export type EventKind =
  "NEW_ENTRY" | "ADDRESS" | "MANAGEMENT" | "CAPITAL" | "PURPOSE" | "LIQUIDATION" | "INSOLVENCY" | "DELETION";

/** A dated register fact; announcements and changes are two views of it. */
export interface CompanyEvent {
  at: string; // ISO date-time, UTC
  kind: EventKind;
  oldValue?: string;
  newValue?: string;
  /** Person appointed (MANAGEMENT): number in the people index. */
  person?: number;
  /** Person who left office (MANAGEMENT). */
  leftPerson?: number;
}

export function purposeOf(c: CompanyRec): string {
  if (c.reference) return c.reference.summary;
  const ind = nth(INDUSTRIES, c.industry);
  return `${ind.purpose} sowie alle damit zusammenhängenden Geschäfte.`;
}

export function industryOf(c: CompanyRec): { code: string; title: string; en: string } {
  const ind = nth(INDUSTRIES, c.industry);
  return { code: ind.code, title: ind.de, en: ind.en };
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
export function addDays(date: string, days: number): string {
  const d = new Date(date.slice(0, 10) + "T00:00:00Z");
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
}
export function daysBetween(a: string, b: string): number {
  return Math.round(
    (Date.parse(b.slice(0, 10) + "T00:00:00Z") - Date.parse(a.slice(0, 10) + "T00:00:00Z")) / 86_400_000,
  );
}
function at(date: string, r: Rng): string {
  return `${date}T${String(r.int(6, 19)).padStart(2, "0")}:${String(r.int(0, 59)).padStart(2, "0")}:00Z`;
}

/**
 * Register history up to the start date, plus when each current person took office
 * (`since`, parallel to the company's people in the index).
 */
export function history(
  c: CompanyRec,
  seed: number,
  startDate: string,
  peopleCount: number,
  peopleNums: ArrayLike<number>,
): { events: CompanyEvent[]; since: string[] } {
  const r = Rng.for(seed, "hist:" + c.id);
  const events: CompanyEvent[] = [];
  const founding = c.foundingDate;
  events.push({ at: at(founding, r), kind: "NEW_ENTRY", newValue: c.name });
  const age = Math.max(0, daysBetween(founding, startDate));
  const lastStatusDay = c.statusDate ?? startDate;
  const span = Math.max(1, daysBetween(founding, lastStatusDay) - 1);
  // Register changes fall in the last RECENT_YEARS before the start (or the status date), as the
  // published register history does: an old, active company does not stop changing in 1937.
  const recentFrom = addDays(lastStatusDay, -Math.round(RECENT_YEARS * 365.25));
  const inWindow = (minDays: number): string => {
    const lo = laterOf(addDays(founding, Math.min(span, minDays)), recentFrom);
    const hi = laterOf(lo, addDays(founding, span));
    return addDays(lo, r.int(0, daysBetween(lo, hi)));
  };
  const since: string[] = [];
  for (let k = 0; k < peopleCount; k++) {
    if (k === 0 || age < 400 || !r.chance(0.5)) {
      since.push(founding);
    } else {
      const d = inWindow(200);
      since.push(d);
      events.push({ at: at(d, r), kind: "MANAGEMENT", person: peopleNums[k], oldValue: undefined });
    }
  }
  // An active company older than the window filed something within it (a real register shows at
  // least one change per decade for a living company), so its last change is never decades back.
  const mustChange = c.status === "ACTIVE" && age > RECENT_YEARS * 365;
  const extra = age > 365 ? Math.max(mustChange && since.every((d) => d === founding) ? 1 : 0, r.int(0, 4)) : 0;
  for (let k = 0; k < extra; k++) {
    const d = inWindow(30);
    const kind = r.weighted(["ADDRESS", "CAPITAL", "PURPOSE"] as EventKind[], [5, 3, 2]);
    if (kind === "ADDRESS")
      events.push({ at: at(d, r), kind, oldValue: `${r.pick(STREETS)} ${r.int(1, 99)}`, newValue: c.street });
    else if (kind === "CAPITAL")
      events.push({
        at: at(d, r),
        kind,
        oldValue: String(Math.max(1, Math.round(c.capital * 0.5))),
        newValue: String(c.capital),
      });
    else events.push({ at: at(d, r), kind, newValue: purposeOf(c) });
  }
  if (c.status !== "ACTIVE" && c.statusDate) {
    if (c.status === "IN_LIQUIDATION" || c.status === "INACTIVE")
      events.push({ at: at(c.statusDate, r), kind: "LIQUIDATION", oldValue: "ACTIVE", newValue: "IN_LIQUIDATION" });
    else if (c.status === "INSOLVENT")
      events.push({ at: at(c.statusDate, r), kind: "INSOLVENCY", oldValue: "ACTIVE", newValue: "INSOLVENT" });
    else if (c.status === "DELETED")
      events.push({ at: at(c.statusDate, r), kind: "DELETION", oldValue: "ACTIVE", newValue: "DELETED" });
  }
  events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { events, since };
}

/** How far back the generated register changes of a company reach. */
export const RECENT_YEARS = 12;
const laterOf = (a: string, b: string) => (a > b ? a : b);

/** The newest date among a company's changes and announcements, or null. */
export function newestDate(events: readonly CompanyEvent[]): string | null {
  let max: string | null = null;
  for (const e of events) if (max === null || e.at > max) max = e.at;
  return max === null ? null : max.slice(0, 10);
}

export interface FinYear {
  year: number;
  revenue: number | null;
  profit: number | null;
  equity: number | null;
  equityRatio: number | null;
  balanceSheetTotal: number | null;
  employees: number | null;
  reportType: string;
}

// Legal forms that must publish annual accounts (HGB §325); partnerships and merchants mostly need not.
const DISCLOSING = new Set(["GMBH", "UG", "AG", "SE", "KGAA", "GMBH_CO_KG", "EG"]);

export function financials(c: CompanyRec, seed: number, startYear: number): FinYear[] {
  const r = Rng.for(seed, "fin:" + c.id);
  const ref = c.reference;
  if (ref) {
    if (!ref.financials) return [];
    const f = ref.financials;
    const years: FinYear[] = [];
    // The published year as given, and earlier years walked back from it.
    let revenue = f.revenue ?? null,
      profit = f.profit ?? null,
      equity = f.equity ?? null,
      bst = f.balanceSheetTotal ?? (equity && f.equityRatio ? Math.round(equity / f.equityRatio) : null);
    for (let y = f.year; y > f.year - 4; y--) {
      years.push({
        year: y,
        revenue,
        profit,
        equity,
        balanceSheetTotal: bst,
        equityRatio: equity !== null && bst ? round4(equity / bst) : y === f.year ? (f.equityRatio ?? null) : null,
        employees: y === f.year ? c.employees : Math.round(c.employees * (0.9 + r.next() * 0.1)),
        reportType: f.reportType ?? "company",
      });
      const g = 0.9 + r.next() * 0.12;
      revenue = revenue === null ? null : Math.round(revenue * g);
      profit = profit === null ? null : Math.round(profit * (0.7 + r.next() * 0.5));
      equity = equity === null ? null : Math.round(equity * (0.93 + r.next() * 0.05));
      bst = bst === null ? null : Math.round(bst * (0.94 + r.next() * 0.05));
    }
    return years.sort((a, b) => a.year - b.year);
  }
  const disclosing = DISCLOSING.has(c.legalForm) ? r.chance(0.88) : r.chance(0.08);
  if (!disclosing) return [];
  const founded = Number(c.foundingDate.slice(0, 4));
  const last = startYear - (c.size === "LARGE" && r.chance(0.5) ? 1 : 2);
  const first = Math.max(founded + 1, last - 5);
  if (first > last) return [];
  const perHead = 60_000 + r.int(0, 250_000);
  let revenue = c.employees * perHead;
  const margin = -0.05 + r.next() * 0.15;
  const years: FinYear[] = [];
  for (let y = first; y <= last; y++) {
    revenue = Math.round(revenue * (0.92 + r.next() * 0.2));
    const profit = Math.round(revenue * (margin + (r.next() - 0.5) * 0.08));
    const bst = Math.round(revenue * (0.4 + r.next() * 0.5));
    const equity = Math.round(bst * Math.max(0.02, 0.1 + r.next() * 0.45) * (profit < 0 && r.chance(0.2) ? -0.2 : 1));
    // Small companies publish only a short balance sheet: no revenue, often no result.
    const full = c.size === "LARGE" || c.size === "MEDIUM";
    years.push({
      year: y,
      revenue: full ? revenue : null,
      profit: full || c.size === "SMALL" ? profit : null,
      equity,
      equityRatio: round4(equity / bst),
      balanceSheetTotal: bst,
      employees: full ? c.employees : null,
      reportType: c.size === "LARGE" && r.chance(0.4) ? "concern" : "company",
    });
  }
  return years;
}
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

export interface NewsItem {
  type: string;
  category: string;
  title: string;
  text: string;
  source: string;
  publisher: string;
  timestamp: string;
}
const NEWS_CATS = [
  "MANAGEMENT_AND_TEAM",
  "FINANCES_AND_CAPITAL",
  "PRODUCTS_AND_SERVICES",
  "LOCATIONS",
  "COOPERATIONS",
  "AWARDS",
] as const;
const NEWS_TITLES: Record<(typeof NEWS_CATS)[number], string[]> = {
  MANAGEMENT_AND_TEAM: ["{n} verstärkt die Geschäftsführung", "{n} baut das Team aus"],
  FINANCES_AND_CAPITAL: ["{n} schließt Finanzierungsrunde ab", "{n} meldet Umsatzplus"],
  PRODUCTS_AND_SERVICES: ["{n} stellt neues Angebot vor", "{n} erweitert das Produktportfolio"],
  LOCATIONS: ["{n} eröffnet neuen Standort in {c}", "{n} zieht in größere Räume"],
  COOPERATIONS: ["{n} vereinbart Partnerschaft", "{n} gewinnt Großkunden"],
  AWARDS: ["{n} ausgezeichnet", "{n} erhält Innovationspreis"],
};
const PUBLISHERS = [
  "Handelsblatt",
  "Wirtschaftswoche",
  "regionale Presse",
  "Unternehmensblog",
  "LinkedIn",
  "Presseportal",
];

export function news(c: CompanyRec, seed: number, today: string, city: string): NewsItem[] {
  const r = Rng.for(seed, "news:" + c.id);
  const n = c.size === "LARGE" ? r.int(3, 8) : c.size === "MEDIUM" ? r.int(1, 4) : r.int(0, 2);
  const out: NewsItem[] = [];
  for (let k = 0; k < n; k++) {
    const category = r.pick(NEWS_CATS);
    const type = r.weighted(["NEWS", "BLOG", "SOCIAL"], [6, 2, 2]);
    const publisher = type === "SOCIAL" ? "LinkedIn" : r.pick(PUBLISHERS);
    const title = r.pick(NEWS_TITLES[category]).replace("{n}", c.name).replace("{c}", city);
    const d = addDays(today, -r.int(1, 700));
    out.push({
      type,
      category,
      title,
      text: `${sentence(title)} (${publisher})`,
      source: `https://news.example/${c.id.toLowerCase()}/${k}`,
      publisher,
      timestamp: at(d, r),
    });
  }
  return out.sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1));
}

export interface JobItem {
  title: string;
  text: string;
  source: string;
  publisher: string;
  timestamp: string;
  city: string;
}
const JOB_TITLES = [
  "Sachbearbeiter/in Buchhaltung (m/w/d)",
  "Vertriebsmitarbeiter/in (m/w/d)",
  "Projektleiter/in (m/w/d)",
  "Auszubildende/r Kaufmann/-frau für Büromanagement (m/w/d)",
  "Werkstudent/in (m/w/d)",
  "Teamleitung {w} (m/w/d)",
  "Fachkraft {w} (m/w/d)",
  "Softwareentwickler/in (m/w/d)",
];

export function jobs(c: CompanyRec, seed: number, today: string, city: string, active: boolean): JobItem[] {
  if (!active) return [];
  const r = Rng.for(seed, "jobs:" + c.id);
  const n =
    c.size === "LARGE"
      ? r.int(3, 10)
      : c.size === "MEDIUM"
        ? r.int(1, 6)
        : c.size === "SMALL"
          ? r.int(0, 3)
          : r.int(0, 1) * r.int(0, 1);
  const word = nth(nth(INDUSTRIES, c.industry).words, 0);
  const out: JobItem[] = [];
  for (let k = 0; k < n; k++) {
    const title = r.pick(JOB_TITLES).replace("{w}", word);
    out.push({
      title,
      text: sentence(`${c.name} sucht in ${city}: ${title}`),
      source: `https://jobs.example/${c.id.toLowerCase()}/${k}`,
      publisher: r.pick(["Karriereseite", "Jobbörse", "Arbeitsagentur"]),
      timestamp: at(addDays(today, -r.int(0, 60)), r),
      city,
    });
  }
  return out.sort((a, b) => (a.timestamp < b.timestamp ? 1 : -1));
}

export function contactOf(c: CompanyRec, seed: number): { phone: string; email: string; url: string; vatId: string } {
  const r = Rng.for(seed, "contact:" + c.id);
  const slug =
    c.name
      .toLowerCase()
      .replace(/ä/g, "ae")
      .replace(/ö/g, "oe")
      .replace(/ü/g, "ue")
      .replace(/ß/g, "ss")
      .replace(/\b(gmbh|ag|se|kg|ohg|ug|eg|e\.k\.|partg|mbb|co|haftungsbeschränkt)\b/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 30) || "firma";
  return {
    phone: `+49 ${r.int(30, 999)} ${r.int(100000, 9999999)}`,
    email: `info@${slug}.example`,
    url: `https://www.${slug}.example`,
    vatId: "DE" + String(r.int(100_000_000, 399_999_999)),
  };
}
