/** Finding companies: SEARCH, SUGGEST, RESOLVE. */
import { doubtText, noteText } from "../operations/index.ts";
import type { CompanySummary, ResolveQuery, SearchRequest } from "../api/index.ts";
import { CompanyDataError } from "../core/index.ts";
import { candidateLabel } from "../enrich/index.ts";
import { SEARCH_DEFAULTS } from "../api/index.ts";
import { search, suggest } from "../operations/index.ts";
import { buildFilters, nearOf, parseFilterText } from "../operations/index.ts";
import { resolveMany, resolveOne, type ResolvedRow } from "../operations/index.ts";
import { identifierIn, lookupMany, type IdentifierQuery } from "../operations/index.ts";
import { cellsOf, isBlank, reader, single, zipOrRegister, type Reader } from "./input.ts";
import { cell, errorCell, labelText } from "./cells.ts";
import { h, headers, langOf, listPerInput, param, readSize, sizeParam } from "./common.ts";
import { priced } from "../credits/index.ts";
import type { CellOut, FunctionDef } from "./types.ts";

const { size: DEFAULT_SIZE, radiusKm: DEFAULT_RADIUS_KM } = SEARCH_DEFAULTS;

const COMPANY_COLS = [
  h("Firmen-ID", "Company ID"),
  h("Name", "Name"),
  h("Rechtsform", "Legal form"),
  h("PLZ", "Postcode"),
  h("Ort", "City"),
  h("Branche", "Industry"),
];
const summaryRow = (c: CompanySummary): CellOut[] => [
  c.id,
  cell(c.name),
  labelText(c.legalForm),
  cell(c.zip),
  cell(c.city),
  cell(c.industry?.title ?? c.industry?.code),
];

/** The proximity filter: the cell's place or "lat, lon" and radius, read as cells, checked by the one parser (nearOf). */
function parseNear(v: unknown, radius: unknown, r: Reader): SearchRequest["near"] {
  const radiusKm = r.positive(radius, "radius_km", 500);
  if (isBlank(v)) return nearOf(undefined, radiusKm, DEFAULT_RADIUS_KM);
  return nearOf(r.text(zipOrRegister(v), "near", 200), radiusKm, DEFAULT_RADIUS_KM);
}

export const SEARCH: FunctionDef = {
  name: "SEARCH",
  description: h(
    "Sucht Firmen per Freitext, optional im Umkreis eines Orts und gefiltert nach Branche, Bundesland, Größe, Rechtsform, Gründung.",
    "Searches companies by free text, optionally around a place and filtered by industry, state, size, legal form, founding.",
  ),
  params: [
    param(
      "query",
      "text",
      "Suchtext, z. B. Name, Branche oder Stichworte (ein Bereich liefert eine Tabelle je Suchtext)",
      "Search text such as a name, industry or keywords (a range gives one table per text)",
      { range: true },
    ),
    sizeParam(h("Treffer", "results"), DEFAULT_SIZE),
    param(
      "near",
      "text",
      'Ort, PLZ oder "Breite, Länge" für die Umkreissuche',
      'City, postcode or "lat, lon" for a proximity search',
      { optional: true },
    ),
    param(
      "radius_km",
      "number",
      `Umkreis in km (Standard ${DEFAULT_RADIUS_KM})`,
      `Radius in km (default ${DEFAULT_RADIUS_KM})`,
      { optional: true },
    ),
    param(
      "filters",
      "text",
      'Filter, z. B. "Branche=J62; Bundesland=BY; Größe=klein,mittel; Rechtsform=GmbH; gegründet_nach=2015; aktiv"',
      'Filters, e.g. "industry=J62; state=DE-BY; size=SMALL,MEDIUM; legal_form=GmbH; founded_after=2015; active"',
      { optional: true },
    ),
  ],
  returns: h(
    "Kopfzeile und eine Zeile je Treffer: ID, Name, Rechtsform, PLZ, Ort, Branche, Relevanz (und Entfernung)",
    "Header and one row per hit: id, name, legal form, postcode, city, industry, relevance (and distance)",
  ),
  shape: "list",
  spendsCredits: true,
  *run(fctx, [query, size, near, radius, filterText]) {
    const lang = langOf(fctx);
    const r = reader(lang);
    const n = readSize(r, size, DEFAULT_SIZE);
    const nearF = parseNear(single(near), single(radius), r);
    const ft = r.optText(single(filterText), "filters", 1000);
    const filters = ft ? buildFilters(parseFilterText(ft), fctx.ctx.client.now()) : undefined;
    const cols = [...COMPANY_COLS, h("Relevanz", "Score"), ...(nearF ? [h("Entfernung km", "Distance km")] : [])];
    // A place or filters alone are a valid search: an empty text then means "everything near / matching".
    const q = isBlank(single(query)) && (nearF || filters) && !Array.isArray(query) ? "" : query;
    if (q === "") {
      const res = yield* search(fctx.ctx, {
        query: "",
        size: n,
        ...(nearF ? { near: nearF } : {}),
        ...(filters ? { filters } : {}),
      });
      return [headers(cols, lang), ...res.companies.map((c) => rowOf(c))];
    }
    return yield* listPerInput(
      fctx,
      q,
      (v, rr) => rr.text(v, "query", 500),
      (t) => t,
      function* (text) {
        const res = yield* search(fctx.ctx, {
          query: text,
          size: n,
          ...(nearF ? { near: nearF } : {}),
          ...(filters ? { filters } : {}),
        });
        return res.companies.map((c) => rowOf(c));
      },
      headers(cols, lang),
      h("Suchtext", "Query")[lang],
    );

    function rowOf(c: CompanySummary): CellOut[] {
      return [...summaryRow(c), cell(c.score), ...(nearF ? [cell(c.distanceKm)] : [])];
    }
  },
};

export const SUGGEST: FunctionDef = {
  name: "SUGGEST",
  description: h("Vervollständigt Firmennamen (kostenlos).", "Autocompletes company names (free)."),
  params: [
    param("prefix", "text", "Anfang des Firmennamens", "Start of the company name", { range: true }),
    sizeParam(h("Vorschläge", "suggestions"), DEFAULT_SIZE),
  ],
  returns: h(
    "Kopfzeile und eine Zeile je Vorschlag: ID, Name, Ort",
    "Header and one row per suggestion: id, name, city",
  ),
  shape: "list",
  spendsCredits: false,
  *run(fctx, [prefix, size]) {
    const lang = langOf(fctx);
    const n = readSize(reader(lang), size, DEFAULT_SIZE);
    const cols = [h("Firmen-ID", "Company ID"), h("Name", "Name"), h("Ort", "City")];
    return yield* listPerInput(
      fctx,
      prefix,
      (v, r) => r.text(v, "prefix", 200),
      (t) => t,
      function* (p) {
        const res = yield* suggest(fctx.ctx, p, n);
        return res.suggestions.map((s) => [s.id, cell(s.name), cell(s.city)] as CellOut[]);
      },
      headers(cols, lang),
      h("Eingabe", "Prefix")[lang],
    );
  },
};

/** A resolve answer as a row, or the reason there is none. */
function resolvedCells(row: ResolvedRow, lang: "de" | "en"): CellOut[] {
  if (row.status === "matched" && row.match) {
    // Found under a former name ("SAP AG" → SAP SE): the name cell says so, the columns stay four.
    const name = row.note && row.match.name ? `${row.match.name} (${noteText(row.note, lang)})` : row.match.name;
    return [row.match.id, cell(name), cell(row.match.city), cell(row.confidence)];
  }
  if (row.status === "ambiguous") {
    const labels = row.candidates.slice(0, 5).map(candidateLabel);
    // A match that contradicts the given city/postcode/register/legal form, or rates below the floor, says why it was not taken.
    if (row.doubt && labels.length) labels[0] = `${labels[0]}: ${doubtText(row.doubt, lang)}`;
    return [errorCell(new CompanyDataError("AMBIGUOUS", { candidates: labels }), lang)];
  }
  if (row.status === "not_found") return [errorCell(new CompanyDataError("NOT_FOUND"), lang)];
  return [errorCell(row.error ?? new CompanyDataError("INTERNAL"), lang)];
}

/** The value of a hint column for row i: a range aligned with the names, or one value for all. */
function hintAt(arg: unknown, i: number): unknown {
  if (!Array.isArray(arg)) return arg;
  const { values } = cellsOf(arg);
  return values.length === 1 ? values[0] : values[i];
}

function parseQuery(r: Reader, name: unknown, city: unknown, zipReg: unknown): ResolveQuery {
  const q: ResolveQuery = { name: r.text(name, "name", 500) };
  const c = r.optText(city, "city", 200);
  if (c) q.city = c;
  const z = r.optText(zipOrRegister(zipReg), "zip_or_register", 200);
  if (z) {
    if (/^\d{5}$/.test(z)) q.zip = z;
    else q.register = z;
  }
  return q;
}

export const RESOLVE: FunctionDef = {
  name: "RESOLVE",
  description: priced(
    h(
      "Findet die Firmen-ID zu einem Namen, einer USt-IdNr., Website, Registernummer oder LEI. Ein Bereich von Namen wird im Stapel ({credits:batchResolve} je {n:batchGroup} Namen) abgeglichen, ein einzelner Name kostenlos; USt-IdNr., Website, Registernummer und LEI immer kostenlos.",
      "Finds the company id for a name, VAT id, website, register number or LEI. A range of names is matched in batches ({credits:batchResolve} per {n:batchGroup} names), a single name for free; VAT ids, websites, register numbers and LEIs always for free.",
    ),
  ),
  params: [
    param(
      "name",
      "text",
      "Firmenname, USt-IdNr., Website, Registernummer oder LEI (oder eine Spalte davon)",
      "Company name, VAT id, website, register number or LEI (or a column of them)",
      { range: true },
    ),
    param("city", "text", "Ort (oder Spalte mit Orten) als Hinweis", "City (or a column of cities) as a hint", {
      optional: true,
      range: true,
    }),
    param(
      "zip_or_register",
      "text",
      'PLZ oder Registernummer wie "HRB 6684 München" (oder eine Spalte davon)',
      'Postcode or register number such as "HRB 6684 München" (or a column of them)',
      { optional: true, range: true },
    ),
  ],
  returns: h(
    "Je Name eine Zeile: ID, gefundener Name, Ort, Trefferqualität 0–1",
    "One row per name: id, matched name, city, confidence 0–1",
  ),
  shape: "perRow",
  spendsCredits: true,
  *run(fctx, [name, city, zipReg]) {
    const lang = langOf(fctx);
    const r = reader(lang);
    const { values, range } = cellsOf(name);
    const rows: ({ blank: true } | { error: unknown } | { q: ResolveQuery } | { id: IdentifierQuery })[] = values.map(
      (v, i) => {
        if (range && isBlank(v)) return { blank: true };
        try {
          // A VAT id, a website, a register number or an LEI instead of a name: the free lookup answers it (an LEI with wrong check digits throws).
          const ident = typeof v === "string" ? identifierIn(v) : null;
          if (ident) return { id: ident };
          return { q: parseQuery(r, v, hintAt(city, i), hintAt(zipReg, i)) };
        } catch (error) {
          return { error };
        }
      },
    );
    const queries = rows.flatMap((x) => ("q" in x ? [x.q] : []));
    const distinct = new Set(queries.map((q) => JSON.stringify(q)));
    // One distinct question goes to the free endpoint; more go in paid batches of ten.
    const answers =
      distinct.size === 0
        ? []
        : distinct.size === 1
          ? queries.map(() => undefined as ResolvedRow | undefined)
          : yield* resolveMany(fctx.ctx, queries, { mode: "batch" });
    if (distinct.size === 1) {
      const one = yield* resolveOne(fctx.ctx, queries[0]!); // distinct.size === 1: there is one
      answers.fill(one);
    }
    const idQueries = rows.flatMap((x) => ("id" in x ? [x.id] : []));
    const looked = idQueries.length ? yield* lookupMany(fctx.ctx, idQueries) : [];
    let k = 0,
      l = 0;
    return rows.map((x) => {
      if ("blank" in x) return ["", "", "", ""];
      if ("error" in x) return [errorCell(x.error, lang)];
      // One lookup answer per id row and one resolve answer per query row, in row order.
      if ("id" in x) return resolvedCells(looked[l++]!, lang);
      return resolvedCells(answers[k++]!, lang);
    });
  },
};
