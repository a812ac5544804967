/** App methods the second UI round added or changed: enrichStatus, search defaults, status codes, the monitor's host note. */
import { describe, expect, it } from "vitest";
import { harness } from "./harness.ts";
import { SEARCH_DEFAULTS } from "../../shared/app/protocol.ts";
import { companyRow, readCompanyRow } from "../../shared/app/rows.ts";

async function ready(h: ReturnType<typeof harness>) {
  await h.call("saveSettings", { apiKey: h.key, baseUrl: "https://emulator.test", language: "de" });
}

const NAMES = [
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
  "Lufthansa AG",
  "Deutsche Post AG",
  "Merck KGaA",
];

describe("enrichStatus: the unfinished run of a document, for a sidebar opened later", () => {
  it("is null before any run, tells N of M after a stopped step, and null again once finished", async () => {
    const h = harness([{ name: "L", cells: [["Company"], ...NAMES.map((n) => [n])] }], {
      deadlineMs: 1500,
      msPerRequest: 2000,
    });
    await ready(h);
    expect(await h.call("enrichStatus")).toBeNull();
    const config = {
      sheet: "L",
      headerRow: 1,
      col: 1,
      rows: NAMES.length,
      cols: 1,
      mapping: { name: 0, city: null, zip: null, register: null, id: null },
      fields: ["id", "name"],
      mode: "batch",
      rerun: { kind: "all" },
    };
    const started = await h.call("enrichStart", config);
    const first = await h.call("enrichStep", { jobId: started.jobId });
    expect(first.finished).toBe(false);
    expect(first.processed).toBeGreaterThan(0);
    expect(first.processed).toBeLessThan(NAMES.length);
    // The sidebar that ran it is gone; a new one asks the document.
    const status = await h.call("enrichStatus");
    expect(status).toMatchObject({
      jobId: started.jobId,
      total: NAMES.length,
      processed: first.processed,
      finished: false,
    });
    let p = status;
    for (let i = 0; i < 10 && !p.finished; i++) p = await h.call("enrichStep", { jobId: p.jobId });
    expect(p.finished).toBe(true);
    expect(await h.call("enrichStatus")).toBeNull();
  });

  it("is null when the table of the unfinished run is gone", async () => {
    const h = harness([{ name: "L", cells: [["Company"], ["SAP SE"]] }], { deadlineMs: 0 });
    await ready(h);
    const config = {
      sheet: "L",
      headerRow: 1,
      col: 1,
      rows: 1,
      cols: 1,
      mapping: { name: 0, city: null, zip: null, register: null, id: null },
      fields: ["id"],
      mode: "batch",
      rerun: { kind: "all" },
    };
    await h.call("enrichStart", config);
    expect(await h.call("enrichStatus")).toMatchObject({ total: 1, processed: 0, finished: false });
    h.workbook.sheets.delete("L");
    expect(await h.call("enrichStatus")).toBeNull();
  });
});

describe("enrich progress counts rows without a name", () => {
  it("a row with neither name nor id is in total and processed, counted as skipped, and costs nothing", async () => {
    const cells = [
      ["Firma", "Ort"],
      ["SAP SE", "Walldorf"],
      ["", "Berlin"],
      ["Siemens AG", "München"],
      ["", ""],
    ];
    const h = harness([{ name: "L", cells }], { deadlineMs: 60_000 });
    await ready(h);
    const config = {
      sheet: "L",
      headerRow: 1,
      col: 1,
      rows: 4,
      cols: 2,
      mapping: { name: 0, city: 1, zip: null, register: null, id: null },
      fields: ["id", "name"],
      mode: "batch",
      rerun: { kind: "newOrFailed" },
    };
    const before = h.emu.balance(h.key);
    let p = await h.call("enrichStart", config);
    expect(p).toMatchObject({ total: 4, processed: 0, skipped: 0, finished: false });
    for (let i = 0; i < 5 && !p.finished; i++) p = await h.call("enrichStep", { jobId: p.jobId });
    expect(p).toMatchObject({ finished: true, total: 4, processed: 4, matched: 2, skipped: 2, errors: 0 });
    expect(p.matched + p.review + p.notFound + p.errors + p.skipped).toBe(p.total);
    expect(h.workbook.get("L", 3, 3)).toBe("übersprungen: kein Name");
    expect(before - h.emu.balance(h.key)).toBe(p.creditsSpent);
  });
});

describe("search defaults", () => {
  it("asks for the size and radius the UI's placeholders show when they are left empty", async () => {
    const h = harness();
    await ready(h);
    await h.call("search", { query: "Software", place: "München" });
    const body = JSON.parse(h.sent.find((r) => r.url.endsWith("/v2/search"))!.body!);
    expect(body.size).toBe(SEARCH_DEFAULTS.size);
    expect(body.near).toEqual({ place: "München", radiusKm: SEARCH_DEFAULTS.radiusKm });
    // Same as COMPANY_SEARCH's defaults ("Standard 10").
    expect(SEARCH_DEFAULTS).toEqual({ size: 10, radiusKm: 10 });
  });
});

describe("company rows carry the status code", () => {
  it("keeps the code beside the label, and reads it back from the UI", () => {
    const row = companyRow({
      id: "DEAAAAAAAAAA",
      name: "X GmbH",
      status: { code: "INSOLVENT", name: "insolvent" },
      active: false,
    });
    expect(row).toMatchObject({ status: "insolvent", statusCode: "INSOLVENT", active: false });
    expect(readCompanyRow(row, "c").statusCode).toBe("INSOLVENT");
    expect(() => readCompanyRow({ ...row, statusCode: 5 }, "c")).toThrow(
      expect.objectContaining({ details: expect.objectContaining({ field: "c.statusCode" }) }),
    );
  });
});

describe("monitor host note", () => {
  it("says what the host does: the playground runs nothing on a schedule, never Excel's note", async () => {
    const pg = harness([{ name: "Portfolio", cells: [["ID"]] }], { host: "playground" });
    await ready(pg);
    const note = (await pg.call("monitorStatus")).hostNote;
    expect(note.en).toMatch(/Nothing runs on a schedule in the playground/);
    expect(note.de).toMatch(/Playground/);
    expect(`${note.de} ${note.en}`).not.toMatch(/Excel|Arbeitsmappe|workbook/);
    const ex = harness([{ name: "Portfolio", cells: [["ID"]] }], { host: "excel" });
    await ready(ex);
    expect((await ex.call("monitorStatus")).hostNote.en).toMatch(/Excel checks only while the workbook is open/);
  });
});
