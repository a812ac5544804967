/**
 * A match that contradicts the city, postcode or register the user gave is
 * never taken silently (issue: "Müller Bäckerei GmbH; Hamburg" matched a
 * company in Hannover at confidence 0.7): it becomes a review with the reason,
 * in the enrichment's status, COMPANY_RESOLVE's message and for the emulator.
 */
import { describe, expect, test } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { resolveMany } from "../../shared/operations/resolve.ts";
import {
  contradiction,
  doubtText,
  judgeMatch,
  noteText,
  parseMatchFloor,
} from "../../shared/operations/contradiction.ts";
import { LEGAL_FORMS, parseLegalForm } from "../../shared/operations/legal-form.ts";
import fc from "fast-check";
import { reviewReason, statusText } from "../../shared/enrich/rows.ts";
import { parseCandidates } from "../../shared/app/enrich-review.ts";
import { createEmulator } from "../../emulator/index.ts";
import reference from "../../emulator/data/reference/companies.json" with { type: "json" };
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { take } from "../helpers/indexed.ts";

const hannover = {
  id: "DEMUELLER001",
  name: "Müller Bäckerei GmbH",
  city: "Hannover",
  zip: "30159",
  register: { court: "Hannover", type: "HRB", number: "12345" },
};

describe("contradiction", () => {
  test("a given city, postcode or register that the candidate does not have", () => {
    expect(contradiction({ name: "Müller Bäckerei GmbH", city: "Hamburg" }, hannover)).toEqual({
      field: "city",
      given: "Hamburg",
      found: "Hannover",
    });
    expect(contradiction({ name: "x", zip: "20095" }, hannover)).toMatchObject({
      field: "zip",
      given: "20095",
      found: "30159",
    });
    expect(contradiction({ name: "x", register: "HRB 99 Hannover" }, hannover)).toMatchObject({ field: "register" });
    expect(contradiction({ name: "x", register: "Amtsgericht Hannover HRA 12345" }, hannover)).toMatchObject({
      field: "register",
    });
  });
  test("what fits, or is absent, never contradicts", () => {
    expect(contradiction({ name: "x", city: "hannover" }, hannover)).toBeNull();
    expect(contradiction({ name: "x", city: "Frankfurt" }, { id: "D", city: "Frankfurt am Main" })).toBeNull();
    expect(contradiction({ name: "x", city: "Frankfurt a.M." }, { id: "D", city: "Frankfurt a. M." })).toBeNull();
    expect(contradiction({ name: "x", zip: "301" }, hannover)).toBeNull();
    expect(contradiction({ name: "x", register: "Hannover HRB 12345" }, hannover)).toBeNull();
    expect(contradiction({ name: "x", register: "HRB12345" }, hannover)).toBeNull();
    expect(contradiction({ name: "x", city: "Hamburg" }, { id: "D" })).toBeNull();
  });
  test("the reason in both languages, without a colon (the status is read up to its first one)", () => {
    const d = contradiction({ name: "x", city: "Hamburg" }, hannover)!;
    expect(doubtText(d, "de")).toBe("Ort weicht ab (Hamburg ≠ Hannover)");
    expect(doubtText(d, "en")).toBe("city differs (Hamburg ≠ Hannover)");
  });
});

describe("resolveMany", () => {
  function setup() {
    const api = fakeApi((_r, url, body: any) => {
      if (url.pathname === "/v2/companies/batch/resolve")
        // 0.9: above the match floor (0.8), so only the hints decide here; the floor has its own tests.
        return json(200, {
          results: body.companies.map((q: { ref: string }) => ({
            ref: q.ref,
            status: "matched",
            match: hannover,
            confidence: 0.9,
            candidates: [],
          })),
        });
      return json(500, {});
    });
    const t = testContext(api.now, { maxBatch: 20 });
    return { api, ctx: t.ctx, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
  }
  test("a contradicted match is a review with the reason, the match first among the candidates; a fitting one stays matched", () => {
    const { run, ctx } = setup();
    const rows = run(
      resolveMany(ctx, [
        { name: "Müller Bäckerei GmbH", city: "Hamburg" },
        { name: "Müller Bäckerei GmbH", city: "Hannover" },
        { name: "Müller Bäckerei GmbH" },
      ]),
    );
    expect(rows.map((r) => r.status)).toEqual(["ambiguous", "matched", "matched"]);
    expect(rows[0]).toMatchObject({ match: null, candidates: [{ id: "DEMUELLER001" }], doubt: { field: "city" } });
  });
  test("a cached answer is checked too (the cache keeps the service's answer)", () => {
    const { run, ctx, api } = setup();
    run(resolveMany(ctx, [{ name: "Müller Bäckerei GmbH", city: "Hamburg" }]));
    const sent = api.requests.length;
    const [again] = take(run(resolveMany(ctx, [{ name: "Müller Bäckerei GmbH", city: "Hamburg" }])), 1);
    expect(api.requests.length).toBe(sent);
    expect(again.status).toBe("ambiguous");
  });
  test("the enrichment's review status names the reason and its candidates still read back", () => {
    const text = statusText(
      {
        outcome: "review",
        id: null,
        confidence: null,
        candidates: [{ id: "DEMUELLER001", name: "Müller Bäckerei GmbH", city: "Hannover" }],
        doubt: { field: "city", given: "Hamburg", found: "Hannover" },
        asOf: null,
        values: [],
      },
      "de",
    );
    expect(text).toBe("prüfen (Ort weicht ab (Hamburg ≠ Hannover)): DEMUELLER001 – Müller Bäckerei GmbH, Hannover");
    expect(parseCandidates(text).map((c) => [c.id, c.city])).toEqual([["DEMUELLER001", "Hannover"]]);
    // The review list says why: the reason in the status head, none for "several fit".
    expect(reviewReason(text)).toBe("Ort weicht ab (Hamburg ≠ Hannover)");
    expect(
      reviewReason(
        "prüfen: DEMUELLER001 – Müller Bäckerei GmbH, Hannover | DEMUELLER002 – Müller Bäckerei GmbH, Hannover",
      ),
    ).toBe("");
  });
});

describe("against the emulator", () => {
  test("a reference company asked with another city is not matched silently", () => {
    const clock = Date.UTC(2025, 5, 1, 9);
    const emu = createEmulator({ companies: 500, seed: 3, now: () => clock, startDate: "2025-06-01" });
    const ref = (reference as { companies: { id: string; name: string; city?: string }[] }).companies.find(
      (c) => c.city && c.city !== "Hamburg",
    )!;
    const d = emulatorDrivers(emu, { now: () => clock });
    const ctx: OpContext = {
      client: {
        apiKey: emu.createKey(1000),
        baseUrl: "http://emulator.test",
        language: "de",
        now: () => clock,
        random: () => 0.5,
        pacer: new Pacer(),
      },
      cacheTtlSeconds: 0,
      maxBatch: 50,
      scope: "contradiction",
    };
    const [right, wrong] = take(
      runSync(
        resolveMany(ctx, [
          { name: ref.name, city: ref.city },
          { name: ref.name, city: "Hamburg" },
        ]),
        d.sync,
      ),
      2,
    );
    expect(right.status).toBe("matched");
    expect(right.match?.id).toBe(ref.id);
    expect(wrong.status).not.toBe("matched");
    // The emulator answers "matched" at 0.7 here, as the service did in the report: the check turns it into a review.
    expect(wrong).toMatchObject({
      status: "ambiguous",
      match: null,
      candidates: [{ id: ref.id }],
      doubt: { field: "city", given: "Hamburg", found: ref.city },
    });
  });
});

describe("legal form and confidence floor (issue 26)", () => {
  const kg = {
    id: "DEROSSI00001",
    name: "Rossi Partners GmbH & Co. KG",
    city: "Köln",
    legalForm: { code: "GMBH_CO_KG", name: "GmbH & Co. KG" },
  };
  test("another form is a review naming both; the same form in another spelling is not", () => {
    const d = contradiction({ name: "Rossi Partners GmbH" }, kg)!;
    expect(d).toEqual({ field: "legalForm", given: "GmbH", found: "GmbH & Co. KG" });
    expect(doubtText(d, "de")).toBe("Rechtsform weicht ab (GmbH ≠ GmbH & Co. KG)");
    expect(doubtText(d, "en")).toBe("legal form differs (GmbH ≠ GmbH & Co. KG)");
    expect(contradiction({ name: "Rossi Partners GmbH u. Co. KG" }, kg)).toBeNull();
    expect(contradiction({ name: "Rossi Partners" }, kg)).toBeNull(); // no form given: nothing to contradict
    expect(
      contradiction(
        { name: "Schulze Großhandel GmbH" },
        { id: "D", name: "Schulze Großhandel UG (haftungsbeschränkt)" },
      ),
    ).toMatchObject({ given: "GmbH", found: "UG (haftungsbeschränkt)" });
    // A name without a form in it: the API's code decides, at its (coarser) level.
    expect(
      contradiction(
        { name: "BMW AG" },
        { id: "D", name: "Bayerische Motoren Werke AG (BMW)", legalForm: { code: "AG", name: null } },
      ),
    ).toBeNull();
    expect(
      contradiction(
        { name: "BMW GmbH" },
        { id: "D", name: "Bayerische Motoren Werke AG (BMW)", legalForm: { code: "AG", name: null } },
      ),
    ).toMatchObject({ field: "legalForm" });
    expect(
      contradiction(
        { name: "Müller Anwälte PartG mbB" },
        { id: "D", name: "Müller Anwälte", legalForm: { code: "PARTG", name: null } },
      ),
    ).toBeNull();
  });
  test("a former name matches, with the note; the floor makes a weak match a review that shows its confidence", () => {
    const sap = { id: "DEJK7QV0PK24", name: "SAP SE", historicalNames: ["SAP AG"] };
    expect(judgeMatch({ name: "SAP AG" }, sap, 0.93)).toEqual({
      doubt: null,
      note: { kind: "formerName", name: "SAP AG" },
    });
    expect(noteText({ kind: "formerName", name: "SAP AG" }, "de")).toBe("früherer Name SAP AG");
    expect(judgeMatch({ name: "SAP AG" }, { ...sap, historicalNames: [] }, 0.93).doubt).toMatchObject({
      field: "legalForm",
    });
    const weak = judgeMatch({ name: "Lufthansa" }, { id: "DEFZ4MICZY78", name: "Deutsche Lufthansa AG" }, 0.671);
    expect(weak.doubt).toEqual({ field: "confidence", given: "0.8", found: "0.671" });
    expect(doubtText(weak.doubt!, "de")).toBe("Trefferqualität 0,671 unter 0,8");
    expect(doubtText(weak.doubt!, "en")).toBe("confidence 0.671 below 0.8");
    expect(judgeMatch({ name: "Lufthansa" }, { id: "D", name: "Deutsche Lufthansa AG" }, 0.671, 0.6).doubt).toBeNull();
    expect(judgeMatch({ name: "Lufthansa" }, { id: "D", name: "Deutsche Lufthansa AG" }, null).doubt).toBeNull();
  });
  test("the floor as typed: 0.8, 0,8, blank = default; anything else is refused naming the setting", () => {
    expect(parseMatchFloor("0,7", "x")).toBe(0.7);
    expect(parseMatchFloor(" ", "x")).toBe(0.8);
    expect(parseMatchFloor(undefined, "x")).toBe(0.8);
    for (const bad of ["1.5", "-0.1", "abc", "0.8.1"])
      expect(() => parseMatchFloor(bad, "--min-confidence")).toThrow(/--min-confidence/);
  });

  const word = fc.stringMatching(/^[A-Z][a-z]{3,9}$/).filter((w) => parseLegalForm(`x ${w}`).form === null);
  const spelling = fc.constantFrom(...LEGAL_FORMS.flatMap((f) => f.spellings.map((s) => ({ form: f, s }))));
  test("property: a given legal form never matches a company of another form, whatever the spellings", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), spelling, spelling, (core, given, found) => {
        fc.pre(given.form.code !== found.form.code);
        const name = core.join(" ");
        const v = judgeMatch({ name: `${name} ${given.s}` }, { id: "DEX", name: `${name} ${found.s}` }, 1);
        expect(v.doubt).toEqual({ field: "legalForm", given: given.form.short, found: found.form.short });
      }),
      { numRuns: 400 },
    );
  });
  test("property: the same form in any spelling, or a historical name of the company, matches", () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 3 }),
        spelling,
        spelling,
        word,
        (core, given, found, other) => {
          const name = core.join(" ");
          const same = LEGAL_FORMS.find((f) => f.code === given.form.code)!.spellings[0]!;
          expect(
            judgeMatch({ name: `${name} ${given.s}` }, { id: "DEX", name: `${name} ${same}` }, 1).doubt,
          ).toBeNull();
          // Renamed and converted: the given name is one of its former names (case and spacing aside).
          const before = `${name} ${given.s}`;
          const v = judgeMatch(
            { name: before.toUpperCase() },
            { id: "DEX", name: `${other} ${found.s}`, historicalNames: ["Irgendwas GmbH", `  ${before} `] },
            0.93,
          );
          expect(v.doubt).toBeNull();
          if (v.note) expect(v.note.kind).toBe("formerName");
          else expect(`${other} ${found.s}`.toUpperCase()).toBe(before.toUpperCase());
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("resolveMany: legal form, former names the free way, the floor", () => {
  const kg = { id: "DEROSSI00001", name: "Rossi Partners GmbH & Co. KG", city: "Köln" };
  const se = { id: "DEJK7QV0PK24", name: "SAP SE", city: "Walldorf" }; // an answer without historicalNames
  function setup() {
    const api = fakeApi((_r, url, body: any) => {
      if (url.pathname === "/v2/companies/batch/resolve") {
        return json(200, {
          results: body.companies.map((q: { ref: string; name: string }) => ({
            ref: q.ref,
            status: "matched",
            match: q.name.startsWith("SAP") ? se : kg,
            confidence: q.name.startsWith("Rossi P") ? 0.95 : 0.93,
            candidates: [],
          })),
        });
      }
      if (url.pathname === "/lookup") return json(200, { companies: [{ ...se, historicalNames: ["SAP AG"] }] });
      return json(500, {});
    });
    const t = testContext(api.now, { maxBatch: 20 });
    return { api, ctx: t.ctx, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
  }
  test("another form is a review; a former name asked from the free lookup is a match with the note; the floor comes from the context", () => {
    const { run, ctx, api } = setup();
    const [rossi, sap, rossiKg] = take(
      run(
        resolveMany(ctx, [
          { name: "Rossi Partners GmbH" },
          { name: "SAP AG" },
          { name: "Rossi Partners GmbH & Co. KG" },
        ]),
      ),
      3,
    );
    expect(rossi).toMatchObject({
      status: "ambiguous",
      match: null,
      confidence: 0.95,
      candidates: [{ id: kg.id }],
      doubt: { field: "legalForm" },
    });
    expect(sap).toMatchObject({
      status: "matched",
      match: { id: se.id, historicalNames: ["SAP AG"] },
      note: { kind: "formerName", name: "SAP AG" },
    });
    expect(rossiKg.status).toBe("matched");
    // Only the rows whose form differed asked the (free) lookup, once each; Rossi's answer names no former name, so it stays a review.
    expect(api.requests.filter((r) => r.url.includes("/lookup")).map((r) => JSON.parse(r.body!).name)).toEqual([
      "Rossi Partners GmbH",
      "SAP AG",
    ]);
    const strict = run(
      resolveMany({ ...ctx, scope: "strict", matchFloor: 0.96 }, [{ name: "Rossi Partners GmbH & Co. KG" }]),
    )[0]!;
    expect(strict).toMatchObject({ status: "ambiguous", doubt: { field: "confidence", given: "0.96", found: "0.95" } });
  });
});
