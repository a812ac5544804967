/**
 * One company per row: PROFILE, AVAILABILITY, FINANCIALS, CARD.
 *
 * Over 400 lines: the four functions share their input reading, pricing and
 * column headers; apart, each would repeat them.
 */
import { INCLUDES, type Include } from "../api/index.ts";
import type { Availability, Company, FinancialYear } from "../api/index.ts";
import { CompanyDataError } from "../core/index.ts";
import { FIELDS, latestFinancials, type FieldDef } from "../enrich/index.ts";
import { getAvailability, getFinancials, getProfiles } from "../operations/index.ts";
import type { Language } from "../i18n/index.ts";
import { isBlank, reader, single, type Reader } from "./input.ts";
import { cell } from "./cells.ts";
import { allSettled, h, headers, langOf, listPerInput, param, perRow } from "./common.ts";
import { priced } from "../credits/index.ts";
import { all } from "../core/index.ts";
import type { CardData, CardProperty, CellOut, FunctionDef } from "./types.ts";

const idParam = param(
  "id",
  "id",
  "Firmen-ID (DE + 10 Zeichen) oder Spalte mit IDs",
  "Company id (DE + 10 characters) or a column of ids",
  { range: true },
);

// ------------------------------------------------------------------ PROFILE

/** Field columns shown when none are asked for. */
export const PROFILE_DEFAULT_FIELDS = [
  "name",
  "legalForm",
  "street",
  "zip",
  "city",
  "register",
  "status",
  "industryCode",
  "industryTitle",
  "url",
];
/** What an include adds when asked for by the include parameter. */
const INCLUDE_FIELDS: Record<Include, string[]> = {
  people: ["management"],
  announcements: ["lastAnnouncementDate", "lastAnnouncementType"],
  financials: ["financialYear", "revenue", "profit", "equity"],
};

const squash = (s: string) => s.toLowerCase().replace(/[\s_\-.()]/g, "");
let fieldIndex: Map<string, FieldDef> | undefined;
/** Field ids, snake_case spellings and the German and English column titles all name a field. */
function fieldByName(name: string): FieldDef | undefined {
  if (!fieldIndex) {
    fieldIndex = new Map();
    for (const f of FIELDS)
      for (const n of [f.id, f.header.de, f.header.en]) if (!fieldIndex.has(squash(n))) fieldIndex.set(squash(n), f);
  }
  return fieldIndex.get(squash(name));
}

const includeOf = (f: FieldDef): Include | undefined =>
  (INCLUDES as readonly string[]).includes(f.group) ? (f.group as Include) : undefined;

export function profileFields(
  fieldsArg: unknown,
  includeArg: unknown,
  r: Reader,
): { fields: FieldDef[]; include: Include[] } {
  const names = r.list(fieldsArg, "fields");
  const include = r.list(includeArg, "include").map((x) =>
    r.choice<Include>(x, "include", INCLUDES, {
      personen: "people",
      bekanntmachungen: "announcements",
      finanzen: "financials",
      finanzdaten: "financials",
    }),
  );
  const chosen: FieldDef[] = [];
  const add = (f: FieldDef) => {
    if (!chosen.includes(f)) chosen.push(f);
  };
  for (const n of names.length ? names : PROFILE_DEFAULT_FIELDS) {
    const group = FIELDS.filter((f) => f.group === n.toLowerCase());
    if (group.length) {
      group.forEach(add);
      continue;
    }
    if (n.toLowerCase() === "all" || n.toLowerCase() === "alle") {
      FIELDS.forEach(add);
      continue;
    }
    const f = fieldByName(n);
    if (!f)
      throw r.fail("fields", { de: `unbekanntes Feld "${n.slice(0, 40)}"`, en: `unknown field "${n.slice(0, 40)}"` });
    add(f);
  }
  for (const inc of include) for (const id of INCLUDE_FIELDS[inc]) add(fieldByName(id)!);
  const needed = new Set<Include>(include);
  for (const f of chosen) {
    const inc = includeOf(f);
    if (inc) needed.add(inc);
  }
  return { fields: chosen, include: INCLUDES.filter((i) => needed.has(i)) };
}

export const PROFILE: FunctionDef = {
  name: "PROFILE",
  description: priced(
    h(
      "Stammdaten einer Firma ({credits:profile}; Personen +{n:people}, Bekanntmachungen +{n:announcements}, Finanzdaten +{n:financials}).",
      "A company's profile ({credits:profile}; people +{n:people}, announcements +{n:announcements}, financials +{n:financials}).",
    ),
  ),
  params: [
    idParam,
    param(
      "fields",
      "list",
      'Felder, z. B. "name, city, revenue" oder ein Bereich mit Feldnamen (Standard: Name, Rechtsform, Anschrift, Register, Status, Branche, Website)',
      'Fields such as "name, city, revenue" or a range of field names (default: name, legal form, address, register, status, industry, website)',
      { optional: true, range: true },
    ),
    param(
      "include",
      "list",
      "Zusätzlich: people, announcements, financials (kostet extra)",
      "Also: people, announcements, financials (costs extra)",
      { optional: true },
    ),
  ],
  returns: h("Je ID eine Zeile mit den gewählten Feldern", "One row per id with the chosen fields"),
  shape: "perRow",
  spendsCredits: true,
  *run(fctx, [id, fieldsArg, includeArg]) {
    const lang = langOf(fctx);
    const { fields, include } = profileFields(fieldsArg, single(includeArg), reader(lang));
    return yield* perRow(
      fctx,
      id,
      fields.length,
      (v, r) => r.id(v, "id"),
      (k) => k,
      function* (ids) {
        const got = yield* getProfiles(fctx.ctx, ids, include);
        const out = new Map<string, CellOut[] | CompanyDataError>();
        for (const [k, v] of got)
          out.set(
            k,
            v instanceof CompanyDataError ? v : fields.map((f) => cell(f.extract({ summary: null, company: v, lang }))),
          );
        return out;
      },
    );
  },
};

// ------------------------------------------------------------- AVAILABILITY

export const AVAILABILITY: FunctionDef = {
  name: "AVAILABILITY",
  description: h("Welche Daten es zu einer Firma gibt (kostenlos).", "Which data exists for a company (free)."),
  params: [idParam],
  returns: h(
    "Je ID eine Zeile: Profil, Personen, Bekanntmachungen, Finanzdaten, Finanzjahre, Änderungen, News, Stellen, letzte Änderung",
    "One row per id: profile, people, announcements, financials, financial years, changes, news, jobs, last change",
  ),
  shape: "perRow",
  spendsCredits: false,
  *run(fctx, [id]) {
    return yield* perRow(
      fctx,
      id,
      9,
      (v, r) => r.id(v, "id"),
      (k) => k,
      function* (ids) {
        const got = yield* getAvailability(fctx.ctx, ids);
        const out = new Map<string, CellOut[] | CompanyDataError>();
        for (const [k, a] of got)
          out.set(
            k,
            a instanceof CompanyDataError
              ? a
              : [
                  cell(a.profile),
                  cell(a.people),
                  cell(a.announcements),
                  cell(a.financials),
                  (a.financialYears ?? []).join(", "),
                  cell(a.changes),
                  cell(a.events),
                  cell(a.jobs),
                  cell(a.lastChangeDate),
                ],
          );
        return out;
      },
    );
  },
};

// --------------------------------------------------------------- FINANCIALS

export const METRICS = ["revenue", "profit", "equity", "equityRatio", "balanceSheetTotal", "employees"] as const;
export type Metric = (typeof METRICS)[number];
const METRIC_ALIASES: Record<string, Metric> = {
  equity_ratio: "equityRatio",
  balance_sheet_total: "balanceSheetTotal",
  net_income: "profit",
  netincome: "profit",
  umsatz: "revenue",
  gewinn: "profit",
  jahresergebnis: "profit",
  eigenkapital: "equity",
  eigenkapitalquote: "equityRatio",
  ek_quote: "equityRatio",
  bilanzsumme: "balanceSheetTotal",
  mitarbeiter: "employees",
  beschäftigte: "employees",
};
const FIN_COLS = [
  h("Jahr", "Year"),
  h("Umsatz", "Revenue"),
  h("Jahresergebnis", "Net income"),
  h("Eigenkapital", "Equity"),
  h("Eigenkapitalquote", "Equity ratio"),
  h("Bilanzsumme", "Balance sheet total"),
  h("Mitarbeiter", "Employees"),
  h("Berichtsart", "Report type"),
];

/** Years newest first; for a year reported both ways the company's own report comes first. */
function sortedYears(years: FinancialYear[]): FinancialYear[] {
  return [...years].sort(
    (a, b) => b.year - a.year || (a.reportType === "concern" ? 1 : 0) - (b.reportType === "concern" ? 1 : 0),
  );
}

function noFigures(year?: number): CompanyDataError {
  const detail =
    year === undefined
      ? { de: "keine Finanzdaten", en: "no financial figures" }
      : { de: `keine Zahlen für ${year}`, en: `no figures for ${year}` };
  return new CompanyDataError("NOT_FOUND", { detail });
}

export const FINANCIALS: FunctionDef = {
  name: "FINANCIALS",
  description: priced(
    h(
      "Finanzkennzahlen ({credits:financialsCall} je Firma). Mit Kennzahl: ein Wert je ID; ohne: eine Tabelle der Jahre.",
      "Key financial figures ({credits:financialsCall} per company). With a metric: one value per id; without: a table of years.",
    ),
  ),
  params: [
    idParam,
    param(
      "metric",
      "text",
      "Kennzahl: revenue, profit, equity, equityRatio, balanceSheetTotal, employees (auch Umsatz, Gewinn, …)",
      "Metric: revenue, profit, equity, equityRatio, balanceSheetTotal, employees",
      { optional: true },
    ),
    param("year", "integer", "Geschäftsjahr (Standard: das neueste)", "Financial year (default: the latest)", {
      optional: true,
    }),
  ],
  returns: h(
    "Mit Kennzahl je ID ein Wert, sonst Kopfzeile und eine Zeile je Jahr",
    "With a metric one value per id, otherwise a header and one row per year",
  ),
  shape: "perRow",
  spendsCredits: true,
  *run(fctx, [id, metricArg, yearArg]) {
    const lang = langOf(fctx);
    const r = reader(lang);
    const year = isBlank(single(yearArg)) ? undefined : r.integer(single(yearArg), "year", 1900, 2100, 0);
    const metricText = r.optText(single(metricArg), "metric", 100);
    const metric = metricText === undefined ? undefined : r.choice(metricText, "metric", METRICS, METRIC_ALIASES);
    if (metric === undefined) {
      return yield* listPerInput(
        fctx,
        id,
        (v, rr) => rr.id(v, "id"),
        (k) => k,
        function* (cid) {
          const res = yield* getFinancials(fctx.ctx, cid);
          const years = sortedYears(res.years).filter((y) => year === undefined || y.year === year);
          if (years.length === 0) throw noFigures(year);
          return years.map((y) => [
            y.year,
            cell(y.revenue),
            cell(y.profit),
            cell(y.equity),
            cell(y.equityRatio),
            cell(y.balanceSheetTotal),
            cell(y.employees),
            cell(y.reportType),
          ]);
        },
        headers(FIN_COLS, lang),
        h("Firmen-ID", "Company ID")[lang],
      );
    }
    return yield* perRow(
      fctx,
      id,
      1,
      (v, rr) => rr.id(v, "id"),
      (k) => k,
      function* (ids) {
        const out = new Map<string, CellOut[] | CompanyDataError>();
        const settled = yield* allSettled(ids.map((cid) => getFinancials(fctx.ctx, cid)));
        ids.forEach((cid, i) => {
          const s = settled[i]!; // allSettled answers one result per operation, in order
          if (!s.ok)
            return out.set(cid, s.error instanceof CompanyDataError ? s.error : new CompanyDataError("INTERNAL"));
          const y = sortedYears(s.value.years).find((x) => year === undefined || x.year === year);
          const v = y?.[metric];
          out.set(cid, y && v !== null && v !== undefined ? [v] : noFigures(year));
        });
        return out;
      },
    );
  },
};

// --------------------------------------------------------------------- CARD

/** The fields an Excel entity card shows, in order. */
export const CARD_FIELDS = [
  "legalForm",
  "address",
  "register",
  "status",
  "industryTitle",
  "industryCode",
  "size",
  "foundingDate",
  "employees",
  "capital",
  "url",
  "phone",
  "email",
  "summary",
  "lastChangeDate",
];
/** The key figures a card shows, from the latest financial year (financials include). */
export const CARD_FIGURES = ["revenue", "profit", "equity", "equityRatio", "balanceSheetTotal"];
const PEOPLE_COLUMNS = [h("Name", "Name"), h("Funktion", "Role"), h("Seit", "Since"), h("Personen-ID", "Person ID")];

/** What a card asks the profile to include, given the (free) availability: only what exists is paid for. */
export function cardIncludes(a: Availability): Include[] {
  return INCLUDES.filter((inc) => (inc === "financials" || inc === "people") && a[inc] === true);
}

export function cardOf(c: Company, lang: Language): CardData {
  const properties: CardProperty[] = [{ key: "id", label: lang === "de" ? "Firmen-ID" : "Company ID", value: c.id }];
  const src = { summary: null, company: c, lang };
  for (const id of CARD_FIELDS) {
    const f = fieldByName(id)!;
    const v = f.extract(src);
    if (v !== null && v !== "") properties.push({ key: f.id, label: f.header[lang], value: v });
  }
  const card: CardData = { id: c.id, title: c.name ?? c.id, properties };
  const latest = latestFinancials(c);
  if (latest) {
    const year = latest.year;
    card.figures = [{ key: "financialYear", label: fieldByName("financialYear")!.header[lang], value: year, year }];
    for (const id of CARD_FIGURES) {
      const f = fieldByName(id)!;
      const v = f.extract(src);
      if (v !== null && v !== "") card.figures.push({ key: f.id, label: f.header[lang], value: v, year });
    }
  }
  const people = (c.people ?? []).filter((p) => !p.until);
  if (people.length) {
    card.tables = [
      {
        key: "people",
        label: lang === "de" ? "Personen" : "People",
        columns: headers(PEOPLE_COLUMNS, lang),
        rows: people.map((p) => [p.name ?? "", p.role ? (p.role.name ?? p.role.code) : "", p.since ?? "", p.personId]),
      },
    ];
  }
  return card;
}

export const CARD: FunctionDef = {
  name: "CARD",
  description: priced(
    h(
      "Firma als Datenkarte: Stammdaten, Kennzahlen des letzten Geschäftsjahres, Personen. Bis {credits:card} je Firma (Profil {n:profile}, Finanzdaten +{n:financials}, Personen +{n:people}); vorher wird kostenlos geprüft, was es gibt, bezahlt wird nur das.",
      "A company as a data card: profile, the latest year's key figures, people. Up to {credits:card} per company (profile {n:profile}, financials +{n:financials}, people +{n:people}); a free check first, so only what exists is paid for.",
    ),
  ),
  params: [idParam],
  returns: h(
    "Je ID eine Karte: Name, Status, Anschrift, Register, Branche, Größe, Kennzahlen mit Jahr, Personen; Felder per =A2.Umsatz lesbar",
    "One card per id: name, status, address, register, industry, size, key figures with year, people; fields readable as =A2.Revenue",
  ),
  shape: "perRow",
  spendsCredits: true,
  hosts: ["excel"],
  *run(fctx, [id]) {
    const lang = langOf(fctx);
    return yield* perRow(
      fctx,
      id,
      1,
      (v, r) => r.id(v, "id"),
      (k) => k,
      function* (ids) {
        const out = new Map<string, CellOut[] | CompanyDataError>();
        // Free: which includes exist. A company the availability cannot answer for is not paid for.
        const avail = yield* getAvailability(fctx.ctx, ids);
        const groups = new Map<string, { include: Include[]; ids: string[] }>();
        for (const k of ids) {
          const a = avail.get(k);
          if (!a) out.set(k, new CompanyDataError("INTERNAL"));
          else if (a instanceof CompanyDataError) out.set(k, a);
          else {
            const include = cardIncludes(a);
            const g = groups.get(include.join(","));
            if (g) g.ids.push(k);
            else groups.set(include.join(","), { include, ids: [k] });
          }
        }
        // One profile per company with just its includes; the groups' requests go out together.
        const fetched = yield* all([...groups.values()].map((g) => getProfiles(fctx.ctx, g.ids, g.include)));
        for (const got of fetched)
          for (const [k, v] of got) out.set(k, v instanceof CompanyDataError ? v : [{ card: cardOf(v, lang) }]);
        return out;
      },
    );
  },
};
