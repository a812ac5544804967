/**
 * `company-data search`: free text, filters (the one parser in
 * shared/operations/search-filters.ts), a place and radius, and lists past
 * one page. The first page (1 credit, like any search) tells the total; the
 * rest of `--limit` is priced from it (1 credit per further page of 100) and
 * asked for before it is paid (`--yes` for scripts). `--out FILE.csv` writes
 * the list with the enrich CSV conventions; `--exclude FILE.csv` leaves out
 * companies (by id, else by normalised name) already in another list;
 * `--append` adds only new companies to an existing `--out` list, with the
 * company id as merge key.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { runAsync } from "../shared/core/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import type { CompanySummary } from "../shared/api/index.ts";
import { COMPANY_ID_PATTERN } from "../shared/api/index.ts";
import { SEARCH_DEFAULTS } from "../shared/api/index.ts";
import { normaliseName } from "../shared/batch/index.ts";
import { detectColumns } from "../shared/enrich/index.ts";
import { companyRow, ROW_COLUMNS } from "../shared/app/index.ts";
import type { CompanyRow } from "../shared/app/index.ts";
import { countText, NOUNS, groupDigits } from "../shared/credits/index.ts";
import { buildFilters, nearOf, type FilterInput } from "../shared/operations/index.ts";
import {
  checkLimit,
  searchFirstPage,
  searchPages,
  searchPlan,
  SEARCH_PAGE_SIZE,
  type SearchCriteria,
} from "../shared/operations/index.ts";
import { CsvError, formatCell, formatRow, readCsv, type Delimiter } from "./csv.ts";
import { nodeDriver } from "../node/index.ts";
import { EXIT, SEARCH_HEADER, msg } from "./i18n.ts";
import { ExitError, type Io } from "./io.ts";

export interface SearchArgs {
  query: string;
  filters: FilterInput;
  near?: string;
  radiusKm?: number;
  /** Results wanted (1..10,100); pages of 100 beyond the first are priced and confirmed. */
  limit: number;
  out?: string;
  exclude?: string;
  append: boolean;
  yes: boolean;
  lang: Language;
}

const credits = (k: number, lang: Language) => countText(k, NOUNS.credit, lang);
const companies = (k: number, lang: Language) => countText(k, NOUNS.company, lang);

const T = {
  morePages: {
    en: (want: number, total: number, pages: number, toPay: number) =>
      `${groupDigits(want, "en")} of ${groupDigits(total, "en")} take ${pages} pages of ${SEARCH_PAGE_SIZE}: ${credits(toPay + 1, "en")} in all (1 spent for the first page, ${toPay} more).`,
    de: (want: number, total: number, pages: number, toPay: number) =>
      `${groupDigits(want, "de")} von ${groupDigits(total, "de")} brauchen ${pages} Seiten zu ${SEARCH_PAGE_SIZE}: insgesamt ${credits(toPay + 1, "de")} (1 für die erste Seite ausgegeben, ${toPay} weitere).`,
  },
  confirm: { en: "Fetch the remaining pages? [y/N] ", de: "Die übrigen Seiten abrufen? [j/N] " },
  notConfirmed: {
    en: "Not confirmed: only the first page is listed, nothing more spent. Add --yes to fetch all pages.",
    de: "Nicht bestätigt: nur die erste Seite ist aufgeführt, nichts weiter ausgegeben. Mit --yes werden alle Seiten abgerufen.",
  },
  beyondLimit: {
    en: (reach: number) =>
      `The service pages up to ${groupDigits(reach, "en")} results; narrow the search with filters to reach the rest.`,
    de: (reach: number) =>
      `Der Dienst liefert höchstens ${groupDigits(reach, "de")} Treffer; für den Rest die Suche mit Filtern eingrenzen.`,
  },
  done: {
    en: (n: number, excluded: number, spent: number, out: string | undefined) =>
      `${companies(n, "en")} listed${excluded ? `, ${groupDigits(excluded, "en")} left out (already in the list)` : ""}; ${credits(spent, "en")} spent${out ? `. Output: ${out}` : ""}.`,
    de: (n: number, excluded: number, spent: number, out: string | undefined) =>
      `${companies(n, "de")} aufgeführt${excluded ? `, ${groupDigits(excluded, "de")} ausgelassen (schon in der Liste)` : ""}; ${credits(spent, "de")} ausgegeben${out ? `. Ausgabe: ${out}` : ""}.`,
  },
  outExists: {
    en: (f: string) => `${f} exists. Use --append to add only new companies to it, or choose another file.`,
    de: (f: string) =>
      `${f} gibt es schon. Mit --append kommen nur neue Firmen hinzu, sonst bitte eine andere Datei wählen.`,
  },
  noKeyColumn: {
    en: (f: string) => `${f}: no company ID or name column to compare with.`,
    de: (f: string) => `${f}: keine Spalte mit Firmen-ID oder Firmenname zum Abgleich.`,
  },
  appendNeedsId: {
    en: (f: string) => `${f}: --append needs a company ID column (the merge key).`,
    de: (f: string) => `${f}: --append braucht eine Spalte mit Firmen-ID (der Schlüssel zum Zusammenführen).`,
  },
  missingFile: { en: (f: string) => `${f}: file not found.`, de: (f: string) => `${f}: Datei nicht gefunden.` },
} as const;

/** The list already there: its ids, its normalised names, and (for --append) its delimiter and header. */
interface Known {
  ids: Set<string>;
  names: Set<string>;
  delimiter: Delimiter;
  header: string[];
  /** The id column (0-based), if the list has one. */
  idCol: number | undefined;
}

async function readKnown(file: string, lang: Language): Promise<Known> {
  if (!existsSync(file)) throw new ExitError(EXIT.INPUT, T.missingFile[lang](file));
  const known: Known = { ids: new Set(), names: new Set(), delimiter: ",", header: [], idCol: undefined };
  let idCol: number | undefined;
  let nameCol: number | undefined;
  try {
    for await (const rec of readCsv(file, (d) => (known.delimiter = d))) {
      if (!known.header.length) {
        known.header = rec;
        const { mapping } = detectColumns(rec);
        idCol = mapping.id;
        nameCol = mapping.name;
        known.idCol = idCol;
        if (idCol === undefined && nameCol === undefined) throw new ExitError(EXIT.INPUT, T.noKeyColumn[lang](file));
        continue;
      }
      const id = idCol !== undefined ? (rec[idCol] ?? "").trim().toUpperCase() : "";
      const name = nameCol !== undefined ? (rec[nameCol] ?? "") : ""; // a short row has no name
      if (COMPANY_ID_PATTERN.test(id)) known.ids.add(id);
      // A name counts only for rows without an id: an id says exactly which company it is.
      else if (name.trim()) known.names.add(normaliseName(name));
    }
  } catch (e) {
    if (e instanceof CsvError) throw new ExitError(EXIT.INPUT, `${file}: ${e.message}`);
    throw e;
  }
  return known;
}

/** The search criteria from the command line, checked before anything is sent (no text, filter or place: the text is missing). */
export function criteriaOf(a: SearchArgs, now: number): SearchCriteria {
  const filters = buildFilters(a.filters, now);
  const near = nearOf(a.near, a.radiusKm, SEARCH_DEFAULTS.radiusKm);
  if (!a.query.trim() && !filters && !near)
    throw new ExitError(EXIT.USAGE, msg.missingOption[a.lang](msg.queryArg[a.lang]));
  return { query: a.query.trim(), ...(filters ? { filters } : {}), ...(near ? { near } : {}) };
}

const OUT_COLUMNS = ROW_COLUMNS.filter((c) => c.key !== "score" && c.key !== "distanceKm");

function csvLines(rows: CompanyRow[], header: string[] | null, delimiter: Delimiter): string {
  const lines = header ? [formatRow(header, delimiter)] : [];
  for (const r of rows)
    lines.push(
      formatRow(
        OUT_COLUMNS.map((c) => r[c.key] ?? ""),
        delimiter,
      ),
    );
  return lines.join("");
}

/** Write the list: a new file, or the old one plus the new rows, replaced in one rename (never half written). */
function writeList(file: string, rows: CompanyRow[], lang: Language, known: Known | undefined) {
  const tmp = `${file}.partial`;
  if (known) {
    const before = readFileSync(file, "utf8");
    const sep = before === "" || before.endsWith("\n") ? "" : "\r\n";
    // Columns in the order of the existing header where it names them; new rows fill only those.
    const colOf = known.header.map((h, i) =>
      i === known.idCol
        ? OUT_COLUMNS[0]
        : OUT_COLUMNS.find((c) => c.header.de === h.trim() || c.header.en === h.trim()),
    );
    const lines = rows
      .map((r) =>
        formatRow(
          colOf.map((c) => (c ? (r[c.key] ?? "") : "")),
          known.delimiter,
        ),
      )
      .join("");
    writeFileSync(tmp, before + sep + lines);
  } else {
    writeFileSync(
      tmp,
      csvLines(
        rows,
        OUT_COLUMNS.map((c) => c.header[lang]),
        ",",
      ),
    );
  }
  renameSync(tmp, file);
}

export async function searchCommand(a: SearchArgs, ctx: OpContext, io: Io, interactive: boolean): Promise<number> {
  const lang = a.lang;
  checkLimit(a.limit, "--limit");
  const criteria = criteriaOf(a, ctx.client.now());
  if (a.out && existsSync(a.out) && !a.append) throw new ExitError(EXIT.USAGE, T.outExists[lang](a.out));
  const appendTo = a.out && a.append && existsSync(a.out) ? await readKnown(a.out, lang) : undefined;
  if (appendTo && appendTo.idCol === undefined) throw new ExitError(EXIT.INPUT, T.appendNeedsId[lang](a.out!));
  const exclude = a.exclude ? await readKnown(a.exclude, lang) : undefined;
  const skip = (c: CompanySummary) =>
    !!(
      appendTo?.ids.has(c.id) ||
      exclude?.ids.has(c.id) ||
      (exclude?.names.size && c.name && exclude.names.has(normaliseName(c.name)))
    );

  const driver = nodeDriver();
  const spent = { credits: 0 };
  const counting: OpContext = {
    ...ctx,
    client: {
      ...ctx.client,
      onSpend: (id, k) => {
        spent.credits += k;
        ctx.client.onSpend?.(id, k);
      },
    },
  };
  const first = await runAsync(searchFirstPage(counting, criteria), driver);
  const total = first.total ?? first.companies.length;
  io.err(msg.searchTotal[lang](total));

  let maxPages = 1;
  const plan = await runAsync(searchPlan(counting, criteria, total, a.limit), driver);
  if (plan.pages > 1) {
    io.err(T.morePages[lang](plan.results, total, plan.pages, plan.toPay));
    const ok = a.yes || (interactive && io.ask ? await io.ask(T.confirm[lang]) : false);
    if (ok) maxPages = plan.pages;
    else io.err(T.notConfirmed[lang]);
  }
  if (plan.results < Math.min(a.limit, total)) io.err(T.beyondLimit[lang](plan.results));
  const res = await runAsync(searchPages(counting, criteria, a.limit, { exclude: skip, maxPages }), driver);
  const rows = res.companies.map(companyRow);

  if (a.out) writeList(a.out, rows, lang, appendTo);
  else {
    io.out(
      Object.values(SEARCH_HEADER)
        .map((h) => h[lang])
        .join("\t"),
    );
    for (const c of rows) {
      io.out(
        [c.id, c.name, c.city, c.zip, c.legalForm, c.status]
          .map((v) => formatCell(v, "\t").replace(/[\t\r\n]+/g, " "))
          .join("\t"),
      );
    }
  }
  io.err(T.done[lang](rows.length, res.excluded, spent.credits, a.out));
  return plan.pages > 1 && maxPages === 1 ? EXIT.NOT_CONFIRMED : EXIT.OK;
}
