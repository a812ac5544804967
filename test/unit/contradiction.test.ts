/**
 * A match that contradicts the city, postcode or register the user gave is
 * never taken silently (issue: "Müller Bäckerei GmbH; Hamburg" matched a
 * company in Hannover at confidence 0.7): it becomes a review with the reason,
 * in the enrichment's status, COMPANY_RESOLVE's message and for the emulator.
 */
import { describe, expect, test } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { resolveMany } from "../../shared/operations/resolve.ts";
import { contradiction, doubtText } from "../../shared/operations/contradiction.ts";
import { statusText } from "../../shared/enrich/rows.ts";
import { parseCandidates, reviewReason } from "../../shared/app/enrich-methods.ts";
import { createEmulator } from "../../emulator/index.ts";
import reference from "../../emulator/data/reference/companies.json" with { type: "json" };
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { take } from "../helpers/indexed.ts";

const hannover = { id: "DEMUELLER001", name: "Müller Bäckerei GmbH", city: "Hannover", zip: "30159", register: { court: "Hannover", type: "HRB", number: "12345" } };

describe("contradiction", () => {
  test("a given city, postcode or register that the candidate does not have", () => {
    expect(contradiction({ name: "Müller Bäckerei GmbH", city: "Hamburg" }, hannover)).toEqual({ field: "city", given: "Hamburg", found: "Hannover" });
    expect(contradiction({ name: "x", zip: "20095" }, hannover)).toMatchObject({ field: "zip", given: "20095", found: "30159" });
    expect(contradiction({ name: "x", register: "HRB 99 Hannover" }, hannover)).toMatchObject({ field: "register" });
    expect(contradiction({ name: "x", register: "Amtsgericht Hannover HRA 12345" }, hannover)).toMatchObject({ field: "register" });
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
        return json(200, { results: body.companies.map((q: { ref: string }) => ({ ref: q.ref, status: "matched", match: hannover, confidence: 0.9, candidates: [] })) });
      return json(500, {});
    });
    const t = testContext(api.now, { maxBatch: 20 });
    return { api, ctx: t.ctx, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
  }
  test("a contradicted match is a review with the reason, the match first among the candidates; a fitting one stays matched", () => {
    const { run, ctx } = setup();
    const rows = run(resolveMany(ctx, [{ name: "Müller Bäckerei GmbH", city: "Hamburg" }, { name: "Müller Bäckerei GmbH", city: "Hannover" }, { name: "Müller Bäckerei GmbH" }]));
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
    const text = statusText({ outcome: "review", id: null, confidence: null, candidates: [{ id: "DEMUELLER001", name: "Müller Bäckerei GmbH", city: "Hannover" }], doubt: { field: "city", given: "Hamburg", found: "Hannover" }, asOf: null, values: [] }, "de");
    expect(text).toBe("prüfen (Ort weicht ab (Hamburg ≠ Hannover)): DEMUELLER001 – Müller Bäckerei GmbH, Hannover");
    expect(parseCandidates(text).map((c) => [c.id, c.city])).toEqual([["DEMUELLER001", "Hannover"]]);
    // The review list says why: the reason in the status head, none for "several fit".
    expect(reviewReason(text)).toBe("Ort weicht ab (Hamburg ≠ Hannover)");
    expect(reviewReason("prüfen: DEMUELLER001 – Müller Bäckerei GmbH, Hannover | DEMUELLER002 – Müller Bäckerei GmbH, Hannover")).toBe("");
  });
});

describe("against the emulator", () => {
  test("a reference company asked with another city is not matched silently", () => {
    const clock = Date.UTC(2025, 5, 1, 9);
    const emu = createEmulator({ companies: 500, seed: 3, now: () => clock, startDate: "2025-06-01" });
    const ref = (reference as { companies: { id: string; name: string; city?: string }[] }).companies.find((c) => c.city && c.city !== "Hamburg")!;
    const d = emulatorDrivers(emu, { now: () => clock });
    const ctx: OpContext = { client: { apiKey: emu.createKey(1000), baseUrl: "http://emulator.test", language: "de", now: () => clock, random: () => 0.5, pacer: new Pacer() }, cacheTtlSeconds: 0, maxBatch: 50, scope: "contradiction" };
    const [right, wrong] = take(runSync(resolveMany(ctx, [{ name: ref.name, city: ref.city }, { name: ref.name, city: "Hamburg" }]), d.sync), 2);
    expect(right.status).toBe("matched");
    expect(right.match?.id).toBe(ref.id);
    expect(wrong.status).not.toBe("matched");
    // The emulator answers "matched" at 0.7 here, as the service did in the report: the check turns it into a review.
    expect(wrong).toMatchObject({ status: "ambiguous", match: null, candidates: [{ id: ref.id }], doubt: { field: "city", given: "Hamburg", found: ref.city } });
  });
});
