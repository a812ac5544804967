/** Lists about a company or a person: PEOPLE … JOBS, and the account's CREDITS. */
import type { CompanySummary } from "../api/index.ts";
import {
  getAccount,
  getAnnouncements,
  getChanges,
  getEvents,
  getJobs,
  getNearby,
  getPeers,
  getPeople,
  getPersonCompanies,
  getSimilar,
  MAX_SIMILAR_IDS,
} from "../operations/index.ts";
import type { Operation } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { cellsOf, isBlank, reader, single } from "./input.ts";
import { cell, labelText } from "./cells.ts";
import { h, headers, langOf, listPerInput, param, readSize, sizeParam } from "./common.ts";
import { priced } from "../credits/index.ts";
import type { CellOut, FunctionContext, FunctionDef, ParamDef } from "./types.ts";

const DEFAULT_SIZE = 10;
/** CHANGES without a date looks back this far. */
export const DEFAULT_CHANGES_DAYS = 30;

const idParam = param(
  "id",
  "id",
  "Firmen-ID oder ein Bereich von IDs (dann eine Tabelle mit der ID vorne)",
  "Company id, or a range of ids (then one table with the id in front)",
  { range: true },
);
const SIZE = sizeParam(h("Zeilen", "rows"), DEFAULT_SIZE);
const ID_HEADER = h("Firmen-ID", "Company ID");

/** A list function over company ids: parse, fetch per id, one header. */
function perCompanyList(
  fctx: FunctionContext,
  idArg: unknown,
  cols: Bilingual[],
  fetch: (id: string) => Operation<CellOut[][]>,
): Operation<CellOut[][]> {
  const lang = langOf(fctx);
  return listPerInput(
    fctx,
    idArg,
    (v, r) => r.id(v, "id"),
    (k) => k,
    fetch,
    headers(cols, lang),
    ID_HEADER[lang],
  );
}

const COMPANY_COLS = [
  h("Firmen-ID", "Company ID"),
  h("Name", "Name"),
  h("PLZ", "Postcode"),
  h("Ort", "City"),
  h("Branche", "Industry"),
];
const companyCells = (c: CompanySummary): CellOut[] => [
  c.id,
  cell(c.name),
  cell(c.zip),
  cell(c.city),
  cell(c.industry?.title ?? c.industry?.code),
];

function listDef(d: Omit<FunctionDef, "shape" | "spendsCredits"> & { spendsCredits?: boolean }): FunctionDef {
  return { shape: "list", spendsCredits: true, ...d };
}
const sinceParam = (de: string, en: string): ParamDef => param("since", "date", de, en, { optional: true });

export const PEOPLE = listDef({
  name: "PEOPLE",
  description: priced(
    h(
      "Personen (Management) einer Firma ({credits:peopleCall}).",
      "People (management) of a company ({credits:peopleCall}).",
    ),
  ),
  params: [idParam],
  returns: h(
    "Kopfzeile und je Person: Personen-ID, Name, Rolle, seit, bis, Ort",
    "Header and per person: person id, name, role, since, until, city",
  ),
  *run(fctx, [id]) {
    const cols = [
      h("Personen-ID", "Person ID"),
      h("Name", "Name"),
      h("Rolle", "Role"),
      h("Seit", "Since"),
      h("Bis", "Until"),
      h("Ort", "City"),
    ];
    return yield* perCompanyList(fctx, id, cols, function* (cid) {
      const res = yield* getPeople(fctx.ctx, cid);
      return res.people.map((p) => [
        p.personId,
        cell(p.name),
        labelText(p.role),
        cell(p.since),
        cell(p.until),
        cell(p.city),
      ]);
    });
  },
});

export const ANNOUNCEMENTS = listDef({
  name: "ANNOUNCEMENTS",
  description: priced(
    h(
      "Registerbekanntmachungen einer Firma ({credits:announcementsCall}).",
      "A company's register announcements ({credits:announcementsCall}).",
    ),
  ),
  params: [idParam, sinceParam("Nur ab diesem Datum", "Only from this date on")],
  returns: h(
    "Kopfzeile und je Bekanntmachung: Datum, Art, Text, Gericht",
    "Header and per announcement: date, type, text, court",
  ),
  *run(fctx, [id, since]) {
    const from = reader(langOf(fctx)).date(single(since), "since");
    const cols = [h("Datum", "Date"), h("Art", "Type"), h("Text", "Text"), h("Gericht", "Court")];
    return yield* perCompanyList(fctx, id, cols, function* (cid) {
      const res = yield* getAnnouncements(fctx.ctx, cid, from);
      return res.announcements.map((a) => [cell(a.date), labelText(a.type), cell(a.text), cell(a.court)]);
    });
  },
});

export const CHANGES = listDef({
  name: "CHANGES",
  description: priced(
    h(
      "Änderungen an einer Firma seit einem Datum ({credits:changes}).",
      "Changes to a company since a date ({credits:changes}).",
    ),
  ),
  params: [
    idParam,
    sinceParam(
      `Seit diesem Datum (Standard: vor ${DEFAULT_CHANGES_DAYS} Tagen)`,
      `Since this date (default: ${DEFAULT_CHANGES_DAYS} days ago)`,
    ),
  ],
  returns: h(
    "Kopfzeile und je Änderung: Datum, Art, Feld, alt, neu, Text",
    "Header and per change: date, kind, field, old, new, text",
  ),
  *run(fctx, [id, since]) {
    const given = reader(langOf(fctx)).date(single(since), "since");
    const from =
      given ?? new Date(fctx.ctx.client.now() - DEFAULT_CHANGES_DAYS * 86_400_000).toISOString().slice(0, 10);
    const cols = [
      h("Datum", "Date"),
      h("Art", "Kind"),
      h("Feld", "Field"),
      h("Alt", "Old"),
      h("Neu", "New"),
      h("Text", "Text"),
    ];
    return yield* perCompanyList(fctx, id, cols, function* (cid) {
      const res = yield* getChanges(fctx.ctx, cid, from);
      return res.changes.map((c) => [
        cell(c.date),
        labelText(c.kind),
        cell(c.field),
        cell(c.oldValue),
        cell(c.newValue),
        cell(c.text),
      ]);
    });
  },
});

export const NEARBY = listDef({
  name: "NEARBY",
  description: priced(
    h("Firmen in der Nähe einer Firma ({credits:nearby}).", "Companies near a company ({credits:nearby})."),
  ),
  params: [
    idParam,
    param("radius_km", "number", "Umkreis in km (Standard des Dienstes)", "Radius in km (the service's default)", {
      optional: true,
    }),
    SIZE,
  ],
  returns: h(
    "Kopfzeile und je Firma: ID, Name, PLZ, Ort, Branche, Entfernung km",
    "Header and per company: id, name, postcode, city, industry, distance km",
  ),
  *run(fctx, [id, radius, size]) {
    const r = reader(langOf(fctx));
    const km = r.positive(single(radius), "radius_km", 500);
    const n = readSize(r, size, DEFAULT_SIZE);
    return yield* perCompanyList(fctx, id, [...COMPANY_COLS, h("Entfernung km", "Distance km")], function* (cid) {
      const res = yield* getNearby(fctx.ctx, cid, km, n);
      return res.companies.map((c) => [...companyCells(c), cell(c.distanceKm)]);
    });
  },
});

export const PEERS = listDef({
  name: "PEERS",
  description: priced(h("Vergleichbare Firmen ({credits:peers}).", "Comparable companies ({credits:peers}).")),
  params: [idParam, SIZE],
  returns: h(
    "Kopfzeile und je Firma: ID, Name, PLZ, Ort, Branche, Ähnlichkeit",
    "Header and per company: id, name, postcode, city, industry, similarity",
  ),
  *run(fctx, [id, size]) {
    const n = readSize(reader(langOf(fctx)), size, DEFAULT_SIZE);
    return yield* perCompanyList(fctx, id, [...COMPANY_COLS, h("Ähnlichkeit", "Similarity")], function* (cid) {
      const res = yield* getPeers(fctx.ctx, cid, n);
      return res.companies.map((c) => [...companyCells(c), cell(c.score)]);
    });
  },
});

export const SIMILAR = listDef({
  name: "SIMILAR",
  description: priced(
    h(
      "Firmen, die den angegebenen ähneln ({credits:similar}).",
      "Companies similar to the given ones ({credits:similar}).",
    ),
  ),
  params: [
    param(
      "ids",
      "id",
      `Eine oder mehrere Firmen-IDs (Bereich, höchstens ${MAX_SIMILAR_IDS}) als Vorbild`,
      `One or more company ids (a range, at most ${MAX_SIMILAR_IDS}) as examples`,
      { range: true },
    ),
    SIZE,
  ],
  returns: h(
    "Kopfzeile und je Firma: ID, Name, PLZ, Ort, Branche, Ähnlichkeit",
    "Header and per company: id, name, postcode, city, industry, similarity",
  ),
  *run(fctx, [idsArg, size]) {
    const lang = langOf(fctx);
    const r = reader(lang);
    const n = readSize(r, size, DEFAULT_SIZE);
    const values = cellsOf(idsArg).values.filter((v) => !isBlank(v));
    if (values.length === 0) throw r.fail("ids", { de: "fehlt", en: "is required" });
    const ids = [...new Set(values.map((v) => r.id(v, "ids")))];
    if (ids.length > MAX_SIMILAR_IDS)
      throw r.fail("ids", { de: `höchstens ${MAX_SIMILAR_IDS} IDs`, en: `at most ${MAX_SIMILAR_IDS} ids` });
    const res = yield* getSimilar(fctx.ctx, ids, n);
    return [
      headers([...COMPANY_COLS, h("Ähnlichkeit", "Similarity")], lang),
      ...res.companies.map((c) => [...companyCells(c), cell(c.score)]),
    ];
  },
});

export const PERSON_COMPANIES = listDef({
  name: "PERSON_COMPANIES",
  // Issue 4 names it PERSON_COMPANIES in Sheets; Excel's is COMPANY.PERSON_COMPANIES (issue 5).
  sheetsName: "PERSON_COMPANIES",
  description: priced(
    h(
      "Alle Firmen, an denen eine Person beteiligt ist ({credits:personCompanies}).",
      "All companies a person is involved in ({credits:personCompanies}).",
    ),
  ),
  params: [
    param(
      "person_id",
      "personId",
      "Personen-ID (aus COMPANY_PEOPLE) oder ein Bereich davon",
      "Person id (from COMPANY_PEOPLE) or a range of them",
      { range: true },
    ),
  ],
  returns: h(
    "Kopfzeile und je Firma: ID, Name, PLZ, Ort, Branche, Rolle, aktiv",
    "Header and per company: id, name, postcode, city, industry, role, active",
  ),
  *run(fctx, [pid]) {
    const lang = langOf(fctx);
    const cols = [...COMPANY_COLS, h("Rolle", "Role"), h("Aktiv", "Active")];
    return yield* listPerInput(
      fctx,
      pid,
      (v, r) => r.personId(v, "person_id"),
      (k) => k,
      function* (p) {
        const res = yield* getPersonCompanies(fctx.ctx, p);
        return res.companies.map((c) => [...companyCells(c), labelText(c.role), cell(c.active)]);
      },
      headers(cols, lang),
      h("Personen-ID", "Person ID")[lang],
    );
  },
});

export const CREDITS: FunctionDef = {
  name: "CREDITS",
  description: h("Guthaben und Verbrauch des Kontos (kostenlos).", "The account's balance and usage (free)."),
  params: [],
  returns: h(
    "Kopfzeile und eine Zeile: Guthaben, heute, diesen Monat, Tarif",
    "Header and one row: balance, today, this month, plan",
  ),
  shape: "list",
  spendsCredits: false,
  *run(fctx) {
    const lang = langOf(fctx);
    const a = yield* getAccount(fctx.ctx);
    const cols = [
      h("Guthaben", "Credits"),
      h("Verbrauch heute", "Used today"),
      h("Verbrauch Monat", "Used this month"),
      h("Tarif", "Plan"),
    ];
    return [headers(cols, lang), [a.credits, cell(a.usage?.today), cell(a.usage?.month), cell(a.plan)]];
  },
};

export const EVENTS = listDef({
  name: "EVENTS",
  description: priced(
    h(
      "News und Social Media zu einer Firma (ältere Schnittstelle, {credits:events}).",
      "News and social media about a company (older listing, {credits:events}).",
    ),
  ),
  params: [idParam],
  returns: h(
    "Kopfzeile und je Meldung: Zeitpunkt, Art, Kategorie, Titel, Quelle, Herausgeber",
    "Header and per item: time, type, category, title, source, publisher",
  ),
  *run(fctx, [id]) {
    const cols = [
      h("Zeitpunkt", "Time"),
      h("Art", "Type"),
      h("Kategorie", "Category"),
      h("Titel", "Title"),
      h("Quelle", "Source"),
      h("Herausgeber", "Publisher"),
    ];
    return yield* perCompanyList(fctx, id, cols, function* (cid) {
      const res = yield* getEvents(fctx.ctx, cid);
      return res.events.map((e) => [
        cell(e.timestamp),
        cell(e.type),
        cell(e.category),
        cell(e.title),
        cell(e.source),
        cell(e.publisher),
      ]);
    });
  },
});

export const JOBS = listDef({
  name: "JOBS",
  description: priced(
    h(
      "Stellenanzeigen einer Firma (ältere Schnittstelle, {credits:jobs}).",
      "A company's job advertisements (older listing, {credits:jobs}).",
    ),
  ),
  params: [idParam],
  returns: h(
    "Kopfzeile und je Anzeige: Zeitpunkt, Titel, Ort, Quelle, Herausgeber",
    "Header and per ad: time, title, city, source, publisher",
  ),
  *run(fctx, [id]) {
    const cols = [
      h("Zeitpunkt", "Time"),
      h("Titel", "Title"),
      h("Ort", "City"),
      h("Quelle", "Source"),
      h("Herausgeber", "Publisher"),
    ];
    return yield* perCompanyList(fctx, id, cols, function* (cid) {
      const res = yield* getJobs(fctx.ctx, cid);
      return res.jobs.map((j) => [cell(j.timestamp), cell(j.title), cell(j.city), cell(j.source), cell(j.publisher)]);
    });
  },
});
