/**
 * Every message a user can read is wholly in their language: each error code
 * in both languages, and the INVALID_INPUT texts of a sample of real call
 * sites across shared/ (core checks, zod-derived rules, app methods,
 * enrichment, monitoring, function arguments). A German text holds no
 * English words and an English text no German ones; none holds a stack,
 * "undefined" or "[object".
 */
import { describe, expect, test } from "vitest";
import { CompanyDataError, ERROR_CODES, type ErrorDetails } from "../../shared/core/errors.ts";
import * as V from "../../shared/api/validate.ts";
import { checked, search } from "../../shared/operations/company.ts";
import * as S from "../../shared/api/schemas.ts";
import { endpoint, profileCost, type EndpointId, type Include } from "../../shared/api/endpoints.ts";
import { normaliseKey } from "../../shared/batch/normalise.ts";
import { planBatches } from "../../shared/batch/plan.ts";
import { estimate, type PlannedOperation } from "../../shared/app/estimate.ts";
import { rateLimitsOf } from "../../shared/api/pacing.ts";
import { selectFields } from "../../shared/enrich/fields.ts";
import { validateMapping } from "../../shared/enrich/columns.ts";
import { scheduleSettings } from "../../shared/monitor/schedule.ts";
import { layoutOf } from "../../shared/monitor/layout.ts";
import { num, oneOf, text, list, anyText } from "../../shared/app/input.ts";
import { readCompanyRow, readColumns } from "../../shared/app/rows.ts";
import { dispatch } from "../../shared/app/dispatch.ts";
import { searchMethod } from "../../shared/app/company-methods.ts";
import { reader } from "../../shared/functions/input.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import type { AppDeps, AppMethodName } from "../../shared/app/protocol.ts";
import type { Language } from "../../shared/i18n/language.ts";

// Words of prose, not identifiers or values a user types (batch, free, people…).
const ENGLISH = [
  "the",
  "expected",
  "must",
  "not",
  "with",
  "got",
  "invalid",
  "input",
  "of",
  "and",
  "between",
  "least",
  "most",
  "entries",
  "characters",
  "unknown",
  "missing",
  "required",
  "whole",
  "empty",
  "give",
  "select",
  "please",
  "is",
  "are",
  "no",
  "an",
  "number",
  "list",
  "company",
  "field",
  "value",
  "column",
  "row",
  "search",
  "place",
  "allowed",
  "integer",
  "from",
  "to",
  "nothing",
  "outside",
  "size",
  "query",
  "base",
  "job",
  "filters",
];
const GERMAN = [
  "der",
  "die",
  "das",
  "und",
  "oder",
  "nicht",
  "ungültig",
  "ungültige",
  "erwartet",
  "eine",
  "ein",
  "kein",
  "keine",
  "mindestens",
  "höchstens",
  "zwischen",
  "fehlt",
  "bitte",
  "eingabe",
  "zahl",
  "zeichen",
  "einträge",
  "firmen",
  "spalte",
  "zeile",
  "erhalten",
  "ist",
  "von",
  "bis",
  "für",
  "mit",
  "ganze",
  "liste",
  "leer",
  "suchtext",
  "ort",
  "anzahl",
  "treffer",
  "nichts",
];

const wordsOf = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}-]+/u)
    .filter(Boolean);

/** Quoted text is literal (the user's own input, a parameter name as the formula shows it): not prose. */
const unquoted = (s: string) => s.replace(/„[^“]*“/g, "").replace(/"[^"]*"/g, "");

function speaks(text: string, lang: Language): void {
  const foreign = lang === "de" ? ENGLISH : GERMAN;
  const hits = wordsOf(unquoted(text)).filter((w) => foreign.includes(w));
  expect(hits, `${lang}: ${text}`).toEqual([]);
  if (lang === "en") expect(text, text).not.toMatch(/[äöüßÄÖÜ„“]/);
  expect(text).not.toMatch(/undefined|\[object|NaN|\n\s+at /);
  expect(text.trim()).not.toBe("");
  expect(text).not.toMatch(/\.\.$/);
}

const DETAILS: ErrorDetails[] = [
  {},
  { field: "size", detail: { de: "eine ganze Zahl von 1 bis 100", en: "an integer from 1 to 100" } },
  { field: "rows[3].name", status: 400 },
  { retryAt: Date.UTC(2025, 0, 15, 12, 0, 0), status: 429 },
  { candidates: ["Alpha GmbH, Berlin", "Alpha AG, Köln"] },
  { status: 503, field: "companies[0].id" },
];

describe("every error code reads wholly in its language", () => {
  for (const code of ERROR_CODES)
    for (const d of DETAILS)
      test(`${code} ${JSON.stringify(d)}`, () => {
        const e = new CompanyDataError(code, d);
        // Candidates are company names (data, not prose): checked without them.
        const strip = (s: string) => (d.candidates ? s.replace(d.candidates.join("; "), "") : s);
        speaks(strip(e.text("de")), "de");
        speaks(strip(e.text("en")), "en");
      });
});

const ctx = {} as OpContext;
const deps = {} as AppDeps;
const thrown = (f: () => unknown): CompanyDataError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CompanyDataError);
    expect((e as CompanyDataError).code).toBe("INVALID_INPUT");
    return e as CompanyDataError;
  }
  throw new Error("expected INVALID_INPUT");
};

const SITES: [string, () => unknown][] = [
  ["company id", () => V.companyId("hello")],
  ["company id not text", () => V.companyId(12)],
  ["person id", () => V.personId(null)],
  ["size", () => V.size(10 ** 9)],
  ["radius", () => V.radiusKm(501)],
  ["date", () => V.isoDate("2023-02-29")],
  ["empty name", () => V.nonEmpty("  ")],
  ["long text", () => V.optionalText("x".repeat(300), "city", 200)],
  ["batch", () => V.batch(new Array(101).fill(0), "ids")],
  ["maxBatch", () => V.maxBatch(15)],
  ["include", () => V.includes(["bogus"])],
  ["query", () => V.resolveQuery(7, "rows[2]")],
  ["zod too_big", () => checked(S.SearchRequest, { query: "x", size: 10 ** 9 }, "search")],
  ["zod too_small", () => checked(S.SearchRequest, { query: "x", near: { radiusKm: 0 } }, "search")],
  ["zod invalid_type", () => checked(S.SearchRequest, { query: 5 }, "search")],
  ["zod missing", () => checked(S.SearchRequest, {}, "search")],
  ["zod regex", () => checked(S.IdsRequest, { ids: ["nope"] }, "body")],
  ["zod enum", () => checked(S.SearchRequest, { query: "x", filters: { size: ["giant"] } }, "search")],
  ["zod unrecognized_keys", () => checked(S.SearchRequest, { query: "x", colour: "red" }, "search")],
  ["search without anything", () => search(ctx, { query: " " }).next()],
  ["search size via operation", () => search(ctx, { query: "x", size: 10 ** 9 }).next()],
  ["profileCost", () => profileCost(["bogus" as Include])],
  ["endpoint", () => endpoint("x" as EndpointId)],
  ["normaliseKey", () => normaliseKey(null as never)],
  ["normaliseKey hint", () => normaliseKey({ name: "A", city: {} } as never)],
  ["estimate", () => estimate({ kind: "nope" } as unknown as PlannedOperation)],
  ["estimate endpoint", () => estimate({ kind: "call", endpoint: "nope" } as unknown as PlannedOperation)],
  ["plan", () => planBatches("x" as never, 100)],
  ["pacing", () => rateLimitsOf({ bogus: { burst: 1, perSecond: 1 } } as never)],
  ["fields", () => selectFields(["bogus"])],
  ["columns", () => validateMapping({ city: 0 }, 2)],
  ["columns range", () => validateMapping({ name: 5 }, 2)],
  ["schedule", () => scheduleSettings({ frequency: "weekly" })],
  ["monitor layout", () => layoutOf(["x", "y"], "de")],
  ["app number", () => num({ size: "lots" }, "size", 1, 100, { integer: true })],
  ["app decimal", () => num({ radiusKm: 0.01 }, "radiusKm", 0.1, 500)],
  ["app choice", () => oneOf({ language: "fr" }, "language", ["de", "en"] as const)],
  ["app text", () => text({}, "jobId", { min: 1 })],
  ["app list", () => list({ ids: [] }, "ids", anyText(20), { min: 1, max: 10 })],
  ["app company row", () => readCompanyRow({ name: 5 }, "companies[0]")],
  ["app columns", () => readColumns(["bogus"], "columns")],
  ["app unknown method", () => dispatch(deps, "bogus" as AppMethodName, {}).next()],
  ["app search", () => searchMethod(deps, { query: "" }).next()],
  ["function size", () => reader("de").integer("viele", "size", 1, 100, 10)],
  ["function id", () => reader("en").id("hello", "ids")],
  ["function radius", () => reader("de").positive("-1", "radius_km", 500)],
];

describe("INVALID_INPUT from real call sites reads wholly in its language", () => {
  test.each(SITES)("%s", (_name, f) => {
    const e = thrown(f);
    expect(e.details.field, "names the field").toBeTruthy();
    // The function-argument path renders in one language only (the cell's); both must still be whole.
    speaks(e.text("de"), "de");
    speaks(e.text("en"), "en");
  });

  test("zod's own text never reaches the user; the limit does", () => {
    const e = thrown(() => checked(S.SearchRequest, { query: "x", size: 10 ** 9 }, "search"));
    expect(e.details.field).toBe("search.size");
    expect(e.text("de")).toBe("Ungültige Eingabe (Suche › Anzahl Treffer): eine ganze Zahl von 1 bis 100.");
    expect(e.text("en")).toBe("Invalid input (search › number of results): an integer from 1 to 100.");
    const k = thrown(() => checked(S.SearchRequest, { query: "x", colour: "red" }, "search"));
    expect(k.details.field).toBe("search.colour");
    expect(k.text("en")).toMatch(
      /unknown field; allowed: search text, number of results, offset, filters, place for the proximity search/,
    );
    expect(k.text("de")).toMatch(
      /unbekanntes Feld; erlaubt: Suchtext, Anzahl Treffer, Startposition, Filter, Ort für die Umkreissuche/,
    );
  });

  test("ids are labelled where a user sees them", () => {
    expect(thrown(() => text({}, "baseUrl")).text("de")).toMatch(/^Ungültige Eingabe \(Basis-URL\)/);
    expect(thrown(() => text({}, "jobId")).text("en")).toMatch(/^Invalid input \(enrichment run\)/);
    expect(thrown(() => reader("de").integer("x", "radius_km", 1, 500, 10)).text("de")).toMatch(
      /^Ungültige Eingabe \(Umkreis in km, Argument „radius_km“\)/,
    );
  });
});
