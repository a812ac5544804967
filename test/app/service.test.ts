import { describe, expect, it } from "vitest";
import { harness, emulator } from "./harness.ts";
import { parseCandidates } from "../../shared/app/enrich-review.ts";
import { nth } from "../helpers/indexed.ts";

async function ready(h: ReturnType<typeof harness>, key = h.key) {
  await h.call("saveSettings", { apiKey: key, baseUrl: "https://emulator.test", language: "de" });
}

describe("app service against the emulator", () => {
  it("search costs what the estimate said, lands in the ledger and moves the balance", async () => {
    const h = harness();
    const key = h.emu.createKey(50);
    await ready(h, key);
    const cost = await h.call("estimate", { operation: { kind: "search" } });
    expect(cost.credits).toBe(1);
    const before = (await h.call("account")).credits;
    const res = await h.call("search", { query: "Software", place: "München", radiusKm: 30, size: 5 });
    expect(res.credits).toBe(1);
    expect(res.companies.length).toBeGreaterThan(0);
    expect(res.companies.length).toBeLessThanOrEqual(5);
    for (const c of res.companies) expect(c.distanceKm === null || c.distanceKm <= 30).toBe(true);
    const body = JSON.parse(h.sent.find((r) => r.url.endsWith("/v2/search"))!.body!);
    expect(body.near).toEqual({ place: "München", radiusKm: 30 });
    const after = await h.call("account");
    expect(before - after.credits).toBe(1);
    expect(after.ledger).toEqual([expect.objectContaining({ operation: "search", credits: 1, requests: 1 })]);
    // The same search again is a cache hit: free, and not sent.
    const n = h.sent.length;
    expect((await h.call("search", { query: "Software", place: "München", radiusKm: 30, size: 5 })).credits).toBe(0);
    expect(h.sent.length).toBe(n);
  });

  it("inserts chosen rows at the cursor as text, formulas neutralised", async () => {
    const h = harness();
    await ready(h);
    h.workbook.selection = { r1: 3, c1: 2, r2: 3, c2: 2 };
    const evil = {
      id: "DE0000000001",
      name: '=HYPERLINK("http://x","y")',
      legalForm: "",
      street: "",
      zip: "01067",
      city: "<img src=x onerror=alert(1)>",
      state: "",
      register: "",
      industry: "",
      size: "",
      status: "",
      active: true,
      score: null,
      distanceKm: null,
    };
    const out = await h.call("insertSearchResults", { companies: [evil], header: true });
    expect(out).toMatchObject({ sheet: "Tabelle1", row: 3, col: 2, rows: 2 });
    expect(h.workbook.get("Tabelle1", 3, 2)).toBe("Firmen-ID");
    expect(h.workbook.get("Tabelle1", 4, 3)).toBe('\'=HYPERLINK("http://x","y")');
    expect(h.workbook.get("Tabelle1", 4, 6)).toBe("01067");
    const bad = await h.raw("insertSearchResults", { companies: [{ ...evil, name: 42 }] });
    expect(bad).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", field: "companies[0].name" } });
  });

  it("similar and peers from selected ids", async () => {
    const h = harness([{ name: "Tabelle1", cells: [["ID"], ["DEJK7QV0PK24"], ["x DEPIYX8Y4M82"]] }]);
    await ready(h);
    h.workbook.selection = { r1: 1, c1: 1, r2: 3, c2: 1 };
    const sel = await h.call("readSelection");
    expect(sel.ids).toEqual(["DEJK7QV0PK24", "DEPIYX8Y4M82"]);
    const sim = await h.call("similar", { ids: sel.ids, kind: "similar", size: 5 });
    expect(sim.credits).toBe(2);
    expect(sim.companies.length).toBeGreaterThan(0);
    const peers = await h.call("similar", { ids: sel.ids, kind: "peers", size: 5 });
    expect(peers.credits).toBe(2);
    const bad = await h.raw("similar", { ids: ["SAP"], kind: "similar" });
    expect(bad).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });

  it("enriches a selected table step by step, resumes, and applies a review pick", async () => {
    const dup = emulator().companies.duplicateNames(2);
    expect(dup.length).toBeGreaterThan(0);
    const cells = [
      ["Firma", "Ort"],
      ["SAP SE", "Walldorf"],
      ["Siemens AG", "München"],
      [nth(dup, 0).name, ""],
      ["Zalando SE", "Berlin"],
      ["Gibt es nicht Phantasie GmbH", "Nirgendwo"],
    ];
    const h = harness([{ name: "Liste", cells }], { deadlineMs: 60_000 });
    await ready(h);
    h.workbook.selection = { r1: 2, c1: 1, r2: 2, c2: 1 }; // one cell: its region is the table
    const sel = await h.call("readSelection");
    expect(sel).toMatchObject({ sheet: "Liste", row: 1, col: 1, rows: 6, cols: 2, headers: ["Firma", "Ort"] });
    const cols = await h.call("detectColumns", { headers: sel.headers });
    expect(cols.mapping).toMatchObject({ name: 0, city: 1, id: null });
    const config = {
      sheet: "Liste",
      headerRow: 1,
      col: 1,
      rows: 5,
      cols: 2,
      mapping: cols.mapping,
      fields: ["id", "name", "city", "address"],
      mode: "batch",
      rerun: { kind: "newOrFailed" },
    };
    const preview = await h.call("enrichPreview", config);
    expect(preview.rowsToProcess).toBe(5);
    expect(preview.batch.credits).toBe(1 + 5); // one batch resolve + at most five profiles
    expect(preview.free.credits).toBe(5);
    expect(preview.free.seconds).toBeGreaterThan(preview.batch.seconds);
    const before = h.emu.balance(h.key);
    let p = await h.call("enrichStart", config);
    expect(p).toMatchObject({ total: 5, processed: 0, finished: false });
    for (let i = 0; i < 5 && !p.finished; i++) p = await h.call("enrichStep", { jobId: p.jobId });
    expect(p.finished).toBe(true);
    expect(p.processed).toBe(5);
    expect(p.matched).toBe(3);
    expect(p.notFound).toBe(1);
    expect(p.review).toBe(1);
    expect(before - h.emu.balance(h.key)).toBe(p.creditsSpent);
    expect(p.creditsSpent).toBeLessThanOrEqual(preview.batch.credits);
    expect(h.workbook.get("Liste", 1, 3)).toBe("Status");
    expect(h.workbook.get("Liste", 2, 5)).toBe("DEJK7QV0PK24");
    const review = p.reviewRows[0];
    expect(review.row).toBe(4);
    // Nothing picked, so no confidence beside "prüfen" (the service's figure is its best candidate's, 1 here).
    expect(String(h.workbook.get("Liste", 4, 3))).toMatch(/^prüfen: /);
    expect(h.workbook.get("Liste", 4, 4)).toBe("");
    expect(h.workbook.get("Liste", 2, 4)).toEqual(expect.any(Number));
    expect(review.candidates.map((c: { id: string }) => c.id).sort()).toEqual([...nth(dup, 0).ids].sort());
    // A finished job does nothing more on another step.
    const n = h.sent.length;
    await h.call("enrichStep", { jobId: p.jobId });
    expect(h.sent.length).toBe(n);
    // The user sorted after the list was shown: row 2 now holds a matched company, not the review row.
    // A pick named by row number goes nowhere (row identity): nothing written, a clear message.
    await expect(
      h.call("applyCandidate", { jobId: p.jobId, row: 2, candidateId: review.candidates[0].id }),
    ).rejects.toThrow(/Prüfliste|review list/);
    expect(h.workbook.get("Liste", 2, 5)).toBe("DEJK7QV0PK24");
    const picked = await h.call("applyCandidate", {
      jobId: p.jobId,
      row: review.row,
      candidateId: review.candidates[0].id,
    });
    expect(picked.review).toBe(0);
    expect(picked.matched).toBe(4);
    expect(h.workbook.get("Liste", 4, 5)).toBe(review.candidates[0].id);
    expect(h.workbook.get("Liste", 4, 4)).toBe(1); // picked by the user: sure
    const ledger = (await h.call("account")).ledger;
    expect(ledger.find((e: { operation: string }) => e.operation === "enrich").credits).toBe(
      before - h.emu.balance(h.key),
    );
  });

  it("a step stops at the deadline and the next step resumes", async () => {
    const names = [
      "SAP SE",
      "Siemens AG",
      "BASF SE",
      "Allianz SE",
      "Zalando SE",
      "Bayer AG",
      "Continental AG",
      "Knorr-Bremse AG",
      "HelloFresh SE",
      "Celonis SE",
      "N26 SE",
      "adidas AG",
      "Deutsche Bahn AG",
      "Deutsche Telekom AG",
      "Henkel AG & Co. KGaA",
      "Delivery Hero SE",
      "Miele & Cie. KG",
      "Festo SE & Co. KG",
      "Vorwerk SE & Co. KG",
      "Robert Bosch GmbH",
      "Personio Group SE",
      "Trade Republic Bank GmbH",
    ];
    const h = harness([{ name: "L", cells: [["Company"], ...names.map((n) => [n])] }], { deadlineMs: 0 });
    await ready(h);
    const config = {
      sheet: "L",
      headerRow: 1,
      col: 1,
      rows: names.length,
      cols: 1,
      mapping: { name: 0, city: null, zip: null, register: null, id: null },
      fields: ["id", "name"],
      mode: "batch",
      rerun: { kind: "all" },
    };
    let p = await h.call("enrichStart", config);
    // Deadline already passed: no chunk starts.
    p = await h.call("enrichStep", { jobId: p.jobId });
    expect(p.finished).toBe(false);
    expect(p.processed).toBe(0);
  });

  it("reads candidates from the job's status text", () => {
    expect(
      parseCandidates("prüfen: DEAAAAAAAAA1 – Müller GmbH, Berlin | DEAAAAAAAAA2 – Müller GmbH, Köln"),
    ).toMatchObject([
      { id: "DEAAAAAAAAA1", name: "Müller GmbH", city: "Berlin" },
      { id: "DEAAAAAAAAA2", name: "Müller GmbH", city: "Köln" },
    ]);
  });
});

describe("re-reading an enriched table", () => {
  it("takes the input left of the earlier output block, reuses the block, and a new-or-failed rerun writes nothing", async () => {
    const cells = [
      ["Firma", "Ort"],
      ["SAP SE", "Walldorf"],
      ["Siemens AG", "München"],
      ["Gibt es nicht Phantasie GmbH", "Nirgendwo"],
    ];
    const h = harness([{ name: "Liste", cells }], { deadlineMs: 60_000 });
    await ready(h);
    h.workbook.selection = { r1: 2, c1: 1, r2: 2, c2: 1 };
    const first = await h.call("readSelection");
    const fields = ["id", "name", "register", "status", "address"]; // catalogue order, as written
    const config = {
      sheet: "Liste",
      headerRow: 1,
      col: 1,
      rows: 3,
      cols: 2,
      mapping: (await h.call("detectColumns", { headers: first.headers })).mapping,
      fields,
      mode: "batch",
      rerun: { kind: "all" },
    };
    let p = await h.call("enrichStart", config);
    for (let i = 0; i < 5 && !p.finished; i++) p = await h.call("enrichStep", { jobId: p.jobId });
    expect(p.finished).toBe(true);
    const width = h.workbook.size("Liste").cols;
    expect(width).toBe(2 + 3 + fields.length);
    const after = h.workbook.block("Liste", 1, 1, 4, width);

    // The region of one cell now includes the output block; the input is what stands left of it.
    const sel = await h.call("readSelection");
    expect(sel).toMatchObject({ cols: 2, headers: ["Firma", "Ort"], output: { col: 3, fields } });
    expect(sel.sample[0]).toEqual(["SAP SE", "Walldorf"]);
    // Its headers ("Handelsregister", "Firmen-ID") are never taken as input columns, even when handed in.
    const cols = await h.call("detectColumns", { headers: after[0] });
    expect(cols.mapping).toEqual({
      name: 0,
      city: 1,
      zip: null,
      register: null,
      id: null,
      website: null,
      vatId: null,
      lei: null,
    });

    const rerun = {
      ...config,
      cols: sel.cols,
      mapping: cols.mapping,
      fields: sel.output.fields,
      rerun: { kind: "newOrFailed" },
    };
    const preview = await h.call("enrichPreview", rerun);
    expect(preview.rowsToProcess).toBe(0);
    expect(preview.rows).toBe(3);
    expect(preview.batch.credits).toBe(0);
    const before = h.emu.balance(h.key);
    const sent = h.sent.length;
    p = await h.call("enrichStart", rerun);
    for (let i = 0; i < 5 && !p.finished; i++) p = await h.call("enrichStep", { jobId: p.jobId });
    expect(p.finished).toBe(true);
    expect(h.emu.balance(h.key)).toBe(before);
    expect(h.sent.length).toBe(sent);
    expect(h.workbook.size("Liste").cols).toBe(width);
    expect(h.workbook.block("Liste", 1, 1, 4, width)).toEqual(after);
  });

  it("finds the block in English, with clash suffixes, and after an old doubled rerun", async () => {
    const { findOutputBlock } = await import("../../shared/enrich/rows.ts");
    expect(
      findOutputBlock(["Company", "City", "Status", "Match confidence", "Company ID (match)", "Matched name", "As of"]),
    ).toEqual({ start: 2, fields: ["id", "name"] });
    expect(
      findOutputBlock([
        "Firma",
        "Status",
        "Trefferqualität",
        "Firmen-ID",
        "Firmenname (Treffer)",
        "Stand",
        "Status (Treffer)",
        "Trefferqualität (Treffer)",
        "Firmenname (Treffer) (Treffer)",
      ]),
    ).toEqual({ start: 1, fields: ["id", "name"] });
    expect(findOutputBlock(["Firma", "Status", "Trefferqualität", "Firmen-ID"])).toEqual({ start: 1, fields: null });
    // A user's own "Status" column is input.
    expect(findOutputBlock(["Firma", "Status", "Ort"])).toBeNull();
  });
});

describe("running out of credits during an enrichment", () => {
  it("counts the rows not enriched on their own, stops without finishing, and continues after a top-up", async () => {
    const names = ["SAP SE", "Siemens AG", "BASF SE", "Allianz SE", "Zalando SE", "Bayer AG"];
    const h = harness([{ name: "L", cells: [["Firma"], ...names.map((n) => [n])] }], { deadlineMs: 60_000 });
    const key = h.emu.createKey(3);
    await ready(h, key);
    const config = {
      sheet: "L",
      headerRow: 1,
      col: 1,
      rows: names.length,
      cols: 1,
      mapping: { name: 0, city: null, zip: null, register: null, id: null },
      fields: ["id", "name", "address"],
      mode: "batch",
      rerun: { kind: "newOrFailed" },
    };
    let p = await h.call("enrichStart", config);
    for (let i = 0; i < 5 && !p.finished && !p.stoppedForCredits; i++)
      p = await h.call("enrichStep", { jobId: p.jobId });
    expect(p.stoppedForCredits).toBe(true);
    expect(p.finished).toBe(false);
    expect(p.errors).toBe(0);
    expect(p.outOfCredits).toBeGreaterThan(0);
    expect(p.processed).toBe(names.length - p.outOfCredits);
    expect(p.lastError).toMatchObject({ code: "OUT_OF_CREDITS" });
    // The document's unfinished run, for a sidebar opened later.
    expect(await h.call("enrichStatus")).toMatchObject({ jobId: p.jobId, stoppedForCredits: true });
    const spent = p.creditsSpent;
    h.emu.setBalance(key, 100);
    p = await h.call("enrichStep", { jobId: p.jobId });
    for (let i = 0; i < 5 && !p.finished; i++) p = await h.call("enrichStep", { jobId: p.jobId });
    expect(p).toMatchObject({
      finished: true,
      stoppedForCredits: false,
      outOfCredits: 0,
      matched: names.length,
      processed: names.length,
      lastError: null,
    });
    // Nothing paid before is paid again: one resolve for all six, one profile each.
    expect(p.creditsSpent).toBe(1 + names.length);
    expect(p.creditsSpent).toBeGreaterThan(spent);
  });
});
