/**
 * Matching by LEI (ISO 17442): the check digits (ISO 7064 MOD 97-10), the
 * column, the emulator's LEIs and its lookup by LEI (free), an enrichment of
 * a list with only an LEI column, and COMPANY_RESOLVE. A malformed LEI is the
 * row's error in German and English and is never sent.
 */
import { describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { leiOf, leiShare } from "../../emulator/data/lei.ts";
import { leiCheckDigits, leiChecksumOk, readLei } from "../../shared/api/lei.ts";
import { Company } from "../../shared/api/schemas.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { FUNCTIONS, invoke, isCellError, type FunctionContext } from "../../shared/functions/index.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { detectColumns, validateMapping } from "../../shared/enrich/columns.ts";
import { taskFromRow } from "../../shared/enrich/chunk.ts";
import { enrichRows } from "../support/enrich-rows.ts";
import { EnrichEstimator } from "../../shared/enrich/estimate.ts";
import { identifierIn, identifierQuery } from "../../shared/operations/identifiers.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import { caller } from "../emulator/helpers.ts";

/** Public LEIs: GLEIF's own, SAP SE's, and Siemens AG's (issued before the "00" structure). */
const GLEIF = "506700GE1G29325QX363";
const REAL = [GLEIF, "529900D6BF99LW9R2E68", "W38RGI023J3WT1HWRP32"];

const FAST = { capacity: 1_000_000, refillPerSecond: 1_000_000 };
const emulator = createEmulator({
  companies: 3000,
  seed: 7,
  startDate: "2026-01-15",
  rateLimits: { resolve: FAST, availability: FAST },
});

function setup(lang: "de" | "en" = "en") {
  const key = emulator.createKey(10_000);
  const d = emulatorDrivers(emulator);
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: lang,
      now: () => Date.UTC(2026, 0, 15),
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 3600,
    maxBatch: 100,
    scope: "lei",
    rateLimits: { resolve: { burst: 1000, perSecond: 1000 } },
  };
  const lookups = () =>
    d.requests
      .filter((r) => r.url.endsWith("/lookup"))
      .map((r) => JSON.parse(r.body ?? "{}") as Record<string, unknown>);
  return { key, ctx, d, lookups, run: <T>(op: Generator<unknown, T, unknown>) => runSync<T>(op as never, d.sync) };
}

/** The i-th item, which the test's setup guarantees (a clear failure, not a TypeError, when it does not). */
function nth<T>(xs: readonly T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`no item ${i} of ${xs.length}`);
  return x;
}

/** Synthetic companies that have an LEI, with it, from the n-th on. */
function withLei(n: number, from = 0) {
  const w = emulator.world;
  return w.companies
    .filter((c) => !c.reference && leiOf(c, w.seed))
    .slice(from, from + n)
    .flatMap((c) => {
      const lei = leiOf(c, w.seed);
      return lei ? [{ id: c.id, lei }] : [];
    });
}

/** A valid LEI no company of the emulator has. */
function unknownLei(): string {
  const base = "529900ZZZZZZZZZZZZ";
  return base + leiCheckDigits(base);
}

/** The same LEI with one character changed: the check digits no longer fit. */
const typo = (lei: string) => lei.slice(0, 10) + (lei[10] === "A" ? "B" : "A") + lei.slice(11);

describe("LEI check digits (ISO 7064 MOD 97-10)", () => {
  it("real LEIs pass, one changed character or swapped check digits fail, the shape is checked apart", () => {
    for (const l of REAL) expect(readLei(l)).toEqual({ ok: true, lei: l });
    for (const l of REAL) expect(leiCheckDigits(l.slice(0, 18))).toBe(l.slice(18));
    for (const l of REAL) expect(readLei(typo(l))).toEqual({ ok: false, reason: "checksum" });
    expect(readLei(GLEIF.slice(0, 18) + "36")).toEqual({ ok: false, reason: "checksum" });
    expect(readLei("5067 00ge 1g29 325q x363")).toEqual({ ok: true, lei: GLEIF });
    expect(readLei(GLEIF.slice(0, 19))).toEqual({ ok: false, reason: "shape" });
    expect(readLei(GLEIF + "1")).toEqual({ ok: false, reason: "shape" });
    expect(readLei("506700GE1G29325QX3AB")).toEqual({ ok: false, reason: "shape" });
    expect(readLei("506700GE1G29325QX-63")).toEqual({ ok: false, reason: "shape" });
  });

  it("every typo that puts a letter for a letter or a digit for a digit is caught", () => {
    // A letter for a digit lengthens the number the check reads (A = 10), so MOD 97 cannot promise to catch that one.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (let i = 0; i < 20; i++) {
      for (const ch of alphabet) {
        if (ch === GLEIF[i] || /\d/.test(ch) !== /\d/.test(GLEIF.charAt(i))) continue;
        expect(leiChecksumOk(GLEIF.slice(0, i) + ch + GLEIF.slice(i + 1))).toBe(false);
      }
    }
  });
});

describe("LEI as users write it", () => {
  it("a cell or a formula argument that is an LEI is an identifier; a name is not", () => {
    expect(identifierIn(GLEIF)).toEqual({ lei: GLEIF });
    expect(identifierIn(" 5067 00ge 1g29 325q x363 ")).toEqual({ lei: GLEIF });
    expect(identifierIn("W38RGI023J3WT1HWRP32")).toEqual({ lei: "W38RGI023J3WT1HWRP32" });
    expect(identifierIn("Siemens Aktiengesellschaft")).toBeNull();
    expect(identifierQuery({ lei: GLEIF.toLowerCase() })).toEqual({ lei: GLEIF });
  });

  it("a malformed LEI is INVALID_INPUT naming the LEI, in German and English, saying whether shape or check digits are wrong", () => {
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as CompanyDataError;
      }
      throw new Error("no error");
    };
    const bad = err(() => identifierIn(typo(GLEIF)));
    expect(bad.code).toBe("INVALID_INPUT");
    expect(bad.text("de")).toBe(
      `Ungültige Eingabe (LEI): LEI mit falschen Prüfziffern (Tippfehler?): „${typo(GLEIF)}“.`,
    );
    expect(bad.text("en")).toBe(`Invalid input (LEI): LEI whose check digits do not fit (a typo?): "${typo(GLEIF)}".`);
    const short = err(() => identifierQuery({ lei: "5299 00D6" }));
    expect(short.text("de")).toContain("keine LEI (20 Buchstaben und Ziffern");
    expect(short.text("en")).toContain(`not an LEI (20 letters and digits, e.g. ${GLEIF}): "5299 00D6"`);
  });

  it("columns headed LEI or Legal Entity Identifier are recognised; words that merely contain 'lei' are not; a list with only an LEI is valid", () => {
    expect(detectColumns(["LEI"]).mapping).toEqual({ lei: 0 });
    expect(detectColumns(["Firma", "LEI-Code", "USt-IdNr."]).mapping).toEqual({ name: 0, lei: 1, vatId: 2 });
    expect(detectColumns(["Legal Entity Identifier (LEI)", "Company"]).mapping).toEqual({ lei: 0, name: 1 });
    expect(detectColumns(["Rechtsträgerkennung", "Ort"]).mapping).toEqual({ lei: 0, city: 1 });
    expect(detectColumns(["Firma", "Leistung", "Abteilungsleiter", "Leipzig"]).mapping).toEqual({ name: 0 });
    expect(validateMapping({ lei: 0 }, 1)).toEqual({ lei: 0 });
    // Beside a name the LEI decides (it is exact), as a VAT id does; a register number then is not asked.
    expect(taskFromRow(0, ["SAP SE", GLEIF, "HRB 719915"], { name: 0, lei: 1, register: 2 }).lookup).toEqual({
      lei: GLEIF,
    });
    const t = taskFromRow(0, [typo(GLEIF)], { lei: 0 });
    expect(t.lookup).toBeNull();
    expect(t.invalid?.code).toBe("INVALID_INPUT");
  });
});

describe("the emulator's LEIs", () => {
  it("a realistic share has one, stock corporations and large companies far more often; all are valid, distinct and reproducible", () => {
    const w = emulator.world;
    const leis = w.companies.map((c) => leiOf(c, w.seed));
    const have = leis.filter((l): l is string => l !== null);
    expect(have.length / leis.length).toBeGreaterThan(0.04);
    expect(have.length / leis.length).toBeLessThan(0.12);
    const share = (pick: (i: number) => boolean) => {
      const idx = leis.map((_, i) => i).filter(pick);
      return idx.filter((i) => leis[i] !== null).length / idx.length;
    };
    const form = (i: number) => w.companies[i]?.legalForm;
    const size = (i: number) => w.companies[i]?.size;
    expect(share((i) => form(i) === "AG" || form(i) === "SE")).toBeGreaterThan(0.7);
    expect(share((i) => size(i) === "LARGE")).toBeGreaterThan(0.5);
    expect(share((i) => size(i) === "MICRO" && form(i) === "GMBH")).toBeLessThan(0.05);
    expect(leiShare("AG", "MICRO")).toBeGreaterThan(leiShare("GMBH", "LARGE"));
    for (const l of have) {
      expect(readLei(l)).toEqual({ ok: true, lei: l });
      expect(l.slice(4, 6)).toBe("00");
    }
    expect(new Set(have).size).toBe(have.length);
    const again = createEmulator({ companies: 3000, seed: 7, startDate: "2026-01-15" });
    expect(again.world.companies.map((c) => leiOf(c, again.world.seed))).toEqual(leis);
  });

  it("the profile carries the LEI (null without one), the older form in externalIds; POST /lookup finds by LEI for free, an unknown or malformed one finds nothing", () => {
    const key = emulator.createKey(5);
    const call = caller(emulator, key);
    const a = nth(withLei(1, 3), 0);
    const profile = Company.parse(call("GET", `/v2/companies/${a.id}`).json);
    expect(profile.lei).toBe(a.lei);
    const without = nth(
      emulator.world.companies.filter((c) => !leiOf(c, emulator.world.seed)),
      0,
    );
    expect(call("GET", `/v2/companies/${without.id}`).json.lei).toBeNull();
    const before = emulator.balance(key);
    const found = call("POST", "/lookup", { lei: a.lei });
    expect(found.status).toBe(200);
    expect(found.json.companies.map((c: { id: string }) => c.id)).toEqual([a.id]);
    expect(found.json.companies[0].externalIds.lei).toBe(a.lei);
    expect(found.headers["X-Credits-Charged"] ?? found.headers["x-credits-charged"]).toBe("0");
    expect(call("POST", "/lookup", { lei: a.lei.toLowerCase() }).json.companies.length).toBe(1);
    for (const l of [unknownLei(), typo(a.lei), "nonsense"]) {
      const r = call("POST", "/lookup", { lei: l });
      expect(r.status).toBe(200);
      expect(r.json.companies).toEqual([]);
    }
    expect(emulator.balance(key)).toBe(before);
  });
});

describe("enrichment and COMPANY_RESOLVE by LEI against the emulator", () => {
  it("a list with only an LEI column: one answer per row, a malformed LEI is its row's error and never sent, an unknown one not found, nothing paid as estimated", () => {
    const { key, ctx, run, lookups } = setup("de");
    const cs = withLei(3, 10);
    const rows = [
      ["LEI"],
      [nth(cs, 0).lei],
      [
        nth(cs, 1)
          .lei.toLowerCase()
          .replace(/(.{4})/g, "$1 ")
          .trim(),
      ],
      [typo(nth(cs, 2).lei)],
      [""],
      [unknownLei()],
      ["5299"],
      [nth(cs, 2).lei],
      [nth(cs, 0).lei],
    ];
    const { mapping } = detectColumns(nth(rows, 0));
    expect(mapping).toEqual({ lei: 0 });
    const input = rows.slice(1);
    const est = new EnrichEstimator({ mapping, fields: ["name", "city"], mode: "batch", maxBatch: 100 });
    est.add(input.map((r, i) => taskFromRow(i, r, mapping)));
    const estimate = est.result();
    const before = emulator.balance(key);
    const res = run(enrichRows(ctx, "lei-job", { rows: input, mapping, fields: ["name", "city"] }));
    expect(res.results.length).toBe(input.length);
    expect(res.results.map((r) => r?.outcome)).toEqual([
      "matched",
      "matched",
      "error",
      "empty",
      "not_found",
      "error",
      "matched",
      "matched",
    ]);
    expect([0, 1, 6, 7].map((i) => nth(res.results, i)!.id)).toEqual([
      nth(cs, 0).id,
      nth(cs, 1).id,
      nth(cs, 2).id,
      nth(cs, 0).id,
    ]);
    expect(nth(res.results, 2)!.error!.text.de).toContain("LEI mit falschen Prüfziffern");
    expect(nth(res.results, 2)!.error!.text.en).toContain("LEI whose check digits do not fit");
    expect(nth(res.results, 5)!.error!.text.en).toContain("not an LEI");
    // Only well-formed LEIs went out, each once, in their normal form.
    const sent = lookups().map((b) => b.lei);
    expect(new Set(sent)).toEqual(new Set([nth(cs, 0).lei, nth(cs, 1).lei, nth(cs, 2).lei, unknownLei()]));
    expect(sent.length).toBe(4);
    // The price first counts the same free lookups (paced by the resolve bucket) and no credit.
    expect(estimate.freeRequests).toBe(sent.length);
    expect(estimate.credits).toBe(0);
    expect(before - emulator.balance(key)).toBe(0);
  });

  it("with the LEI and a profile field as output, each company is bought once and the estimate equals the spend", () => {
    const { key, ctx, run } = setup("en");
    const cs = withLei(2, 20);
    const rows = [[nth(cs, 0).lei], [nth(cs, 1).lei], [nth(cs, 0).lei]];
    const mapping = { lei: 0 };
    const est = new EnrichEstimator({ mapping, fields: ["name", "lei", "url"], mode: "batch", maxBatch: 100 });
    est.add(rows.map((r, i) => taskFromRow(i, r, mapping)));
    const estimate = est.result();
    const before = emulator.balance(key);
    const res = run(enrichRows(ctx, "lei-job-2", { rows, mapping, fields: ["name", "lei", "url"] }));
    expect(res.results.map((r) => r?.outcome)).toEqual(["matched", "matched", "matched"]);
    expect(res.results.map((r, i) => r!.values.includes(nth(nth(rows, i), 0)))).toEqual([true, true, true]);
    expect(before - emulator.balance(key)).toBe(2);
    expect(estimate.credits).toBe(2);
  });

  it("COMPANY_RESOLVE takes an LEI instead of a name, for free; a malformed LEI is an error cell and is not sent", () => {
    const { key, ctx, d, lookups } = setup("de");
    const cs = withLei(2, 30);
    const fctx: FunctionContext = { ctx, dailyBudget: null };
    const def = nth(
      FUNCTIONS.filter((f) => f.name === "RESOLVE"),
      0,
    );
    const before = emulator.balance(key);
    const out = runSync(
      invoke(def, fctx, [[[nth(cs, 0).lei], [nth(cs, 1).lei.toLowerCase()], [typo(nth(cs, 0).lei)], [unknownLei()]]]),
      d.sync,
    );
    expect(out.slice(0, 2).map((r) => r[0])).toEqual([nth(cs, 0).id, nth(cs, 1).id]);
    expect(isCellError(nth(nth(out, 2), 0))).toBe(true);
    expect(JSON.stringify(out[2])).toContain("Prüfziffern");
    expect(isCellError(nth(nth(out, 3), 0))).toBe(true);
    expect(lookups().map((b) => b.lei)).toEqual([nth(cs, 0).lei, nth(cs, 1).lei, unknownLei()]);
    expect(emulator.balance(key)).toBe(before);
    const one = runSync(invoke(def, fctx, [nth(cs, 1).lei]), d.sync);
    expect(nth(nth(one, 0), 0)).toBe(nth(cs, 1).id);
  });
});
