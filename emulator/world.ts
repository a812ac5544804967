/**
 * The company world: the generated table, its indexes, the people network and
 * the clock's overlay, and the views every endpoint answers with (in DE or EN).
 */
import { CITIES } from "./data/places.ts";
import { generate, type Dataset } from "./data/generate.ts";
import { buildPeople, personId, personName, personNumber, type PeopleIndex, ROLES } from "./data/people.ts";
import {
  contactOf,
  financials,
  history,
  industryOf,
  jobs,
  news,
  newestDate,
  purposeOf,
  type CompanyEvent,
  type FinYear,
} from "./data/details.ts";
import type { CompanyRec, StatusCode } from "./data/model.ts";
import { leiOf } from "./data/lei.ts";
import { ANNOUNCEMENT_TYPE, CHANGE_FIELD, CHANGE_KIND } from "./data/event-views.ts";
import { Clock } from "./clock.ts";
import { sentence } from "./data/text.ts";
import { SearchIndex } from "./search/index.ts";
import {
  ANNOUNCEMENT_LABELS,
  CHANGE_LABELS,
  LEGAL_FORMS,
  ROLE_LABELS,
  SIZE_LABELS,
  STATUS_LABELS,
  label,
  type Lang,
} from "./i18n.ts";
import type { Include } from "../shared/api/index.ts";
import { nth } from "./indexed.ts";

export interface PersonEntry {
  person: number;
  role: number;
  since: string;
  until?: string;
}

export class World {
  readonly data: Dataset;
  readonly companies: readonly CompanyRec[];
  readonly index: SearchIndex;
  readonly people: PeopleIndex;
  readonly clock: Clock;

  constructor(
    readonly seed: number,
    count: number,
    readonly startDate: string,
  ) {
    this.data = generate(count, seed, startDate);
    this.companies = this.data.companies;
    this.index = new SearchIndex(this.companies);
    this.people = buildPeople(this.companies, seed, CITIES.length);
    this.clock = new Clock(startDate, seed, this.companies, this.people.count, (idx) => this.basePeople(idx));
  }

  byId(id: string): CompanyRec | undefined {
    const i = this.data.byId.get(id);
    return i === undefined ? undefined : this.companies[i];
  }

  today(): string {
    return this.clock.today();
  }

  status(c: CompanyRec): StatusCode {
    return this.clock.statusOf(c);
  }
  active(c: CompanyRec): boolean {
    return this.status(c) === "ACTIVE";
  }

  private basePeople(idx: number): { person: number; role: number }[] {
    const p = this.people,
      out: { person: number; role: number }[] = [];
    for (let k = nth(p.companyStart, idx); k < nth(p.companyStart, idx + 1); k++)
      out.push({ person: nth(p.person, k), role: nth(p.role, k) });
    return out;
  }

  private hist(c: CompanyRec) {
    const base = this.basePeople(c.idx);
    return {
      base,
      ...history(
        c,
        this.seed,
        this.startDate,
        base.length,
        base.map((b) => b.person),
      ),
    };
  }

  /** Current and former people, with tenure. */
  peopleEntries(c: CompanyRec): PersonEntry[] {
    const h = this.hist(c);
    const o = this.clock.overlay.get(c.idx);
    const out: PersonEntry[] = h.base.map((b, k) => ({
      person: b.person,
      role: b.role,
      since: nth(h.since, k),
      until: o?.left.get(b.person),
    }));
    for (const a of o?.appointed ?? [])
      out.push({ person: a.person, role: a.role, since: a.since, until: o?.left.get(a.person) });
    return out;
  }

  events(c: CompanyRec): CompanyEvent[] {
    const h = this.hist(c);
    const o = this.clock.overlay.get(c.idx);
    return o ? [...h.events, ...o.events] : h.events;
  }

  financials(c: CompanyRec): FinYear[] {
    return financials(c, this.seed, this.data.startYear);
  }

  /** The newest change or announcement, wherever the clock appended it. */
  lastChangeDate(c: CompanyRec): string | null {
    return newestDate(this.events(c));
  }

  /** Companies of a person (generated network plus clock appointments). */
  personCompanies(personIdOrNum: string): { person: number; companies: number[] } | null {
    const p = personNumber(this.seed, personIdOrNum);
    if (p < 0) return null;
    const out: number[] = [];
    if (p < this.people.count) {
      for (let k = nth(this.people.personStart, p); k < nth(this.people.personStart, p + 1); k++)
        out.push(nth(this.people.personCompany, k));
    } else {
      out.push(...(this.clock.appointedPeople.get(p) ?? []));
    }
    return out.length ? { person: p, companies: out } : null;
  }

  // ------------------------------------------------------------------ views

  summary(c: CompanyRec, lang: Lang, extra: { score?: number; distanceKm?: number } = {}) {
    const o = this.clock.overlay.get(c.idx);
    const city = nth(CITIES, c.city);
    const ind = industryOf(c);
    const st = this.status(c);
    return {
      id: c.id,
      name: c.name,
      legalForm: label(LEGAL_FORMS, c.legalForm, lang),
      street: o?.street ?? c.street,
      zip: o?.zip ?? c.zip,
      city: city.name,
      state: c.reference?.federalState ?? city.state,
      active: st === "ACTIVE",
      status: label(STATUS_LABELS, st, lang),
      register: { court: `Amtsgericht ${city.court}`, type: c.registerType, number: c.registerNumber },
      industry: { code: ind.code, title: lang === "en" ? ind.en : ind.title },
      size: label(SIZE_LABELS, c.size, lang),
      geo: { lat: round(c.lat, 5), lon: round(c.lon, 5) },
      // The register keeps earlier firm names; resolve and lookup match them too (data/history.ts).
      historicalNames: c.formerNames?.map((f) => f.name) ?? [],
      ...(extra.score !== undefined ? { score: round(extra.score, 4) } : {}),
      ...(extra.distanceKm !== undefined ? { distanceKm: round(extra.distanceKm, 2) } : {}),
    };
  }

  profile(c: CompanyRec, lang: Lang, include: readonly Include[] = []) {
    const o = this.clock.overlay.get(c.idx);
    const contact = contactOf(c, this.seed);
    const st = this.status(c);
    const ind = industryOf(c);
    const fin = this.financials(c);
    const staticDate = (s: StatusCode) => (c.status === s ? c.statusDate : undefined);
    const liquidationDate = o?.liquidationDate ?? staticDate("IN_LIQUIDATION") ?? staticDate("INACTIVE") ?? null;
    const insolvencyDate = o?.insolvencyDate ?? staticDate("INSOLVENT") ?? null;
    const deletionDate = o?.deletionDate ?? staticDate("DELETED") ?? null;
    const purpose = purposeOf(c) + (o?.purposeNote ? " " + o.purposeNote : "");
    const city = nth(CITIES, c.city).name;
    const summaryText =
      c.reference?.summary ??
      (lang === "en"
        ? `${c.name} is a company in ${city} (${ind.en}), founded ${c.foundingDate.slice(0, 4)}, ${c.employees} employees.`
        : `${c.name} ist ein Unternehmen in ${city} (${ind.title}), gegründet ${c.foundingDate.slice(0, 4)}, ${c.employees} Beschäftigte.`);
    return {
      ...this.summary(c, lang),
      foundingDate: c.foundingDate,
      capital: { amount: o?.capital ?? c.capital, currency: "EUR" },
      purpose,
      summary: summaryText,
      ...contact,
      lei: leiOf(c, this.seed),
      employees: { count: c.employees, year: fin.at(-1)?.year ?? this.data.startYear - 1 },
      industries: [{ code: ind.code, title: lang === "en" ? ind.en : ind.title }],
      liquidationDate,
      insolvencyDate,
      deletionDate,
      warningExists: c.warning || st !== "ACTIVE",
      lastChangeDate: this.lastChangeDate(c),
      asOf: this.today(),
      ...(include.includes("people") ? { people: this.peopleView(c, lang) } : {}),
      ...(include.includes("announcements") ? { announcements: this.announcementsView(c, lang) } : {}),
      ...(include.includes("financials") ? { financials: fin } : {}),
    };
  }

  peopleView(c: CompanyRec, lang: Lang) {
    const city = nth(CITIES, c.city).name;
    return this.peopleEntries(c).map((e) => ({
      personId: personId(this.seed, e.person),
      name: personName(this.seed, e.person),
      role: label(ROLE_LABELS, nth(ROLES, e.role), lang),
      since: e.since,
      until: e.until ?? null,
      city,
    }));
  }

  announcementsView(c: CompanyRec, lang: Lang, sinceMs?: number) {
    const court = `Amtsgericht ${nth(CITIES, c.city).court}`;
    return this.events(c)
      .filter((e) => sinceMs === undefined || Date.parse(e.at) > sinceMs)
      .map((e, k) => ({
        id: `${c.id}-A${k + 1}-${e.at.slice(0, 10).replace(/-/g, "")}`,
        date: e.at.slice(0, 10),
        type: label(ANNOUNCEMENT_LABELS, ANNOUNCEMENT_TYPE[e.kind], lang),
        text: this.eventText(c, e, lang),
        court: e.kind === "INSOLVENCY" ? `${court} (Insolvenzgericht)` : court,
      }))
      .reverse();
  }

  changesView(c: CompanyRec, lang: Lang, sinceMs: number) {
    return this.events(c)
      .filter((e) => Date.parse(e.at) > sinceMs)
      .map((e) => ({
        date: e.at,
        kind: label(CHANGE_LABELS, CHANGE_KIND[e.kind], lang),
        field: CHANGE_FIELD[e.kind],
        oldValue:
          e.kind === "MANAGEMENT"
            ? e.leftPerson !== undefined
              ? personName(this.seed, e.leftPerson)
              : null
            : (e.oldValue ?? null),
        newValue:
          e.kind === "MANAGEMENT"
            ? e.person !== undefined
              ? personName(this.seed, e.person)
              : null
            : (e.newValue ?? null),
        text: this.eventText(c, e, lang),
        source: "HANDELSREGISTER",
      }))
      .reverse();
  }

  private eventText(c: CompanyRec, e: CompanyEvent, lang: Lang): string {
    const de = lang === "de";
    const city = nth(CITIES, c.city).name;
    const who = e.person !== undefined ? personName(this.seed, e.person) : "";
    const left = e.leftPerson !== undefined ? personName(this.seed, e.leftPerson) : "";
    switch (e.kind) {
      case "NEW_ENTRY":
        return de
          ? `Neueintragung: ${c.name}, ${city}. Gegenstand: ${purposeOf(c)}`
          : `New entry: ${c.name}, ${city}. Purpose: ${purposeOf(c)}`;
      case "ADDRESS":
        return sentence(
          de
            ? `Geschäftsanschrift geändert: ${e.newValue}, ${city}`
            : `Business address changed: ${e.newValue}, ${city}`,
        );
      case "CAPITAL":
        return de
          ? `Kapital geändert von ${e.oldValue} EUR auf ${e.newValue} EUR.`
          : `Capital changed from ${e.oldValue} EUR to ${e.newValue} EUR.`;
      case "PURPOSE":
        return de ? `Gegenstand geändert: ${e.newValue}` : `Purpose changed: ${e.newValue}`;
      case "MANAGEMENT":
        return de
          ? `${sentence(`Bestellt: ${who}`)}${left ? ` ${sentence(`Ausgeschieden: ${left}`)}` : ""}`
          : `${sentence(`Appointed: ${who}`)}${left ? ` ${sentence(`Left: ${left}`)}` : ""}`;
      case "LIQUIDATION":
        return de ? `Die Gesellschaft ist aufgelöst (Liquidation).` : `The company has been dissolved (liquidation).`;
      case "INSOLVENCY":
        return sentence(
          de
            ? `Eröffnung des Insolvenzverfahrens über das Vermögen der ${c.name}`
            : `Insolvency proceedings opened over the assets of ${c.name}`,
        );
      case "DELETION":
        return de ? `Die Firma ist gelöscht.` : `The company has been deleted from the register.`;
    }
  }

  availability(c: CompanyRec) {
    const fin = this.financials(c);
    const ppl = this.peopleEntries(c);
    const ev = this.events(c);
    const city = nth(CITIES, c.city).name;
    return {
      id: c.id,
      profile: true,
      people: ppl.length > 0,
      announcements: ev.length > 0,
      financials: fin.length > 0,
      financialYears: fin.map((f) => f.year),
      changes: ev.length > 0,
      events: news(c, this.seed, this.today(), city).length > 0,
      jobs: jobs(c, this.seed, this.today(), city, this.active(c)).length > 0,
      lastChangeDate: this.lastChangeDate(c),
    };
  }

  news(c: CompanyRec) {
    return news(c, this.seed, this.startDate, nth(CITIES, c.city).name);
  }
  jobs(c: CompanyRec) {
    return jobs(c, this.seed, this.today(), nth(CITIES, c.city).name, this.active(c));
  }

  /** The older listing's company shape (v1 field names, known-service-facts). */
  v1Company(c: CompanyRec, lang: Lang) {
    const s = this.summary(c, lang);
    const p = this.profile(c, lang);
    const ind = industryOf(c);
    return {
      id: c.id,
      name: c.name,
      active: s.active,
      street: s.street,
      zip: s.zip,
      city: s.city,
      geo: s.geo,
      legalForm: s.legalForm,
      capital: p.capital?.amount,
      foundingDate: c.foundingDate,
      purpose: p.purpose,
      statutorySeat: s.city,
      historicalNames: s.historicalNames,
      phone: p.phone,
      email: p.email,
      url: p.url,
      socialMedia: [],
      profile: p.summary,
      snippets: [],
      timestamp: `${this.today()}T00:00:00Z`,
      employees: { count: c.employees },
      size: s.size,
      industries: { wz2008: [{ type: "PRIMARY", code: ind.code, title: lang === "en" ? ind.en : ind.title }] },
      externalIds: {
        hr: { court: s.register.court, type: c.registerType, number: c.registerNumber },
        vat: p.vatId,
        lei: p.lei,
      },
    };
  }
}

function round(x: number, d: number): number {
  const f = 10 ** d;
  return Math.round(x * f) / f;
}
