/** The Apps Script bindings one by one, with the harness's fakes. */
import { describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { readValues, writeValues, PART_CHARS } from "../../apps-script/properties.ts";
import { AnswerCache, DURABLE_BUDGET_CHARS, DURABLE_PREFIX } from "../../apps-script/cache.ts";
import { SheetHost } from "../../apps-script/sheet.ts";
import { fetchAll } from "../../apps-script/http.ts";
import { createSheetsFake } from "./harness.ts";
import { nth, take } from "../helpers/indexed.ts";

const emulator = createEmulator({ companies: 100, startDate: "2026-01-15" });

describe("properties", () => {
  it("splits values over 9 KB into parts and removes stale parts", () => {
    const f = createSheetsFake({ emulator });
    const props = f.context.PropertiesService.getDocumentProperties();
    const long = "äöü€".repeat(5000);
    writeValues(props, { "doc:a": long, "doc:b": "short" });
    expect(readValues(props, ["doc:a", "doc:b", "doc:c"])).toEqual([long, "short", null]);
    expect(f.docProps.map.size).toBe(2 + Math.ceil(long.length / PART_CHARS));
    writeValues(props, { "doc:a": "now short" });
    expect(readValues(props, ["doc:a"])).toEqual(["now short"]);
    expect([...f.docProps.map.keys()].filter((k) => k.includes("#"))).toEqual([]);
    writeValues(props, { "doc:b": null });
    expect(readValues(props, ["doc:b"])).toEqual([null]);
  });
});

describe("answer cache", () => {
  it("keeps long-lived answers in the durable layer within its budget", () => {
    let t = 1_000_000;
    const f = createSheetsFake({ emulator, now: () => t });
    const cache = new AnswerCache(
      f.context.CacheService.getDocumentCache(),
      f.context.PropertiesService.getDocumentProperties(),
      () => t,
    );
    cache.putMany({ a: "1", ["k".repeat(300)]: "long key" }, 3600);
    expect(cache.getMany(["a", "k".repeat(300), "b"])).toEqual(["1", "long key", null]);
    expect([...f.docProps.map.keys()]).toEqual([]); // 1 h: CacheService only
    cache.putMany({ d: "day" }, 86_400);
    t += 7 * 3600_000;
    expect(cache.getMany(["a", "d"])).toEqual([null, "day"]);
    t += 20 * 3600_000;
    expect(cache.getMany(["d"])).toEqual([null]);
    for (let i = 0; i < 40; i++) cache.putMany({ [`x${i}`]: "v".repeat(10_000) }, 86_400);
    const durable = [...f.docProps.map.entries()]
      .filter(([k]) => k.startsWith(DURABLE_PREFIX))
      .reduce((s, [, v]) => s + v.length, 0);
    expect(durable).toBeLessThanOrEqual(DURABLE_BUDGET_CHARS + 40 * 100);
    expect(cache.getMany(["x39"])).toEqual(["v".repeat(10_000)]);
  });
});

describe("sheet host", () => {
  it("merges chunk writes into one block per kind and writes risky text as text", () => {
    const f = createSheetsFake({ emulator, sheets: { S: [["Name"], ["a"], ["b"], ["c"], ["d"]] } });
    const host = new SheetHost(f.context.SpreadsheetApp, undefined, f.context.Utilities);
    expect(host.handle({ op: "read", sheet: "S", row: 1, col: 1, rows: 2, cols: 2 })).toEqual([
      ["Name", ""],
      ["a", ""],
    ]);
    host.handle({ op: "write", sheet: "S", row: 1, col: 2, values: [["Out"]] });
    host.handle({ op: "write", sheet: "S", row: 2, col: 2, values: [["=cmd|' /C calc'!A0"], [1]] });
    host.handle({ op: "write", sheet: "S", row: 4, col: 2, values: [["+49 30"], ["@x"]] });
    host.handle({ op: "colour", sheet: "S", row: 2, col: 2, colours: [["#e6f4ea"], ["#fce8e6"]] });
    host.handle({ op: "colour", sheet: "S", row: 4, col: 2, colours: [[""], ["#fce8e6"]] });
    host.handle({ op: "dropdowns", sheet: "S", row: 2, col: 3, options: [["A", "B"], []] });
    // Reads see this execution's writes before they reach the sheet.
    expect(host.handle({ op: "read", sheet: "S", row: 2, col: 2, rows: 1, cols: 1 })).toEqual([["=cmd|' /C calc'!A0"]]);
    f.resetCounts();
    host.flush();
    // No number format is set: the block's formats are read, the values written.
    expect(f.calls).toEqual([
      "Sheet.getRange",
      "Range.getNumberFormats",
      "Range.setValues",
      "Sheet.getRange",
      "Range.setBackgrounds",
      "Sheet.getRange",
      "Range.setDataValidations",
    ]);
    expect(f.grids.get("S")!.map((r) => r[1])).toEqual(["Out", "=cmd|' /C calc'!A0", 1, "+49 30", "@x"]);
    expect(f.formats.get("S")).toBeUndefined();
    expect(nth(f.validations.get("S")!, 1)[2]).toEqual({ rule: { values: ["A", "B"], allowInvalid: true } });
  });

  it("one mechanism: every text behind the hidden quote prefix, never a number format; numbers stay numbers, ISO dates become dates of the spreadsheet's zone", () => {
    const f = createSheetsFake({ emulator, sheets: { S: [[""]] }, spreadsheetTimeZone: "Asia/Tokyo" });
    const host = new SheetHost(f.context.SpreadsheetApp, undefined, f.context.Utilities);
    const risky = [
      '=HYPERLINK("http://evil")',
      "+49 30 1234",
      "-5 %",
      "@home",
      "\tTab",
      "\rCR",
      "\nLF",
      "'already quoted",
    ];
    const plain = [
      "SAP SE",
      "O'Brien GmbH",
      "00123",
      "1e5",
      "#N/A",
      "🏭",
      " =lead space",
      "a=b",
      "Müller & Söhne",
      "TRUE",
      "12:30",
      "1/2",
    ];
    const other = [42, -5, 0, 3.25, true, false];
    const values = [...risky, ...plain, ...other, "2026-01-15"];
    host.handle({ op: "write", sheet: "S", row: 1, col: 1, values: values.map((v) => [v]) });
    host.flush();
    expect(f.quoted.map((q) => q.value)).toEqual([...risky, ...plain]);
    expect(f.formats.get("S")).toBeUndefined();
    // Read back, every value is what the API said, with its type; the date is a date cell of 15 January in Tokyo.
    const col = f.grids.get("S")!.map((r) => r[0]);
    expect(col.slice(0, -1)).toEqual(values.slice(0, -1));
    const d = col.at(-1) as Date;
    expect(Object.prototype.toString.call(d)).toBe("[object Date]");
    expect(d.toISOString()).toBe("2026-01-14T15:00:00.000Z");
    expect(host.handle({ op: "read", sheet: "S", row: values.length, col: 1, rows: 1, cols: 1 })).toEqual([
      ["2026-01-15"],
    ]);
    // Text a caller neutralised already (asText before the write request) is not quoted twice.
    host.handle({ op: "write", sheet: "S", row: 1, col: 2, values: [["'=1+1"], ["'-5"]] });
    host.flush();
    expect(
      f.grids
        .get("S")!
        .slice(0, 2)
        .map((r) => r[1]),
    ).toEqual(["=1+1", "-5"]);
  });

  it("keeps the user's formats: a column the user formatted as plain text gets its text without an apostrophe (which would show there)", () => {
    const f = createSheetsFake({ emulator, sheets: { S: [["PLZ", "Telefon"]] } });
    f.formats.set("S", [
      ["", ""],
      ["@", "@"],
      ["@", "@"],
    ]);
    const host = new SheetHost(f.context.SpreadsheetApp, undefined, f.context.Utilities);
    host.handle({
      op: "write",
      sheet: "S",
      row: 2,
      col: 1,
      values: [
        ["01067", "+49 351 1234"],
        ["'=x", "2026-01-15"],
      ],
    });
    host.flush();
    expect(f.shownApostrophes).toEqual([]);
    expect(f.grids.get("S")!.slice(1)).toEqual([
      ["01067", "+49 351 1234"],
      ["=x", "2026-01-15"],
    ]);
    expect(f.formats.get("S")).toEqual([
      ["", ""],
      ["@", "@"],
      ["@", "@"],
    ]);
  });

  it("the fake flags a formula or text Sheets would convert, and shows an apostrophe in a plain-text cell, so these tests can fail", () => {
    const f = createSheetsFake({ emulator, sheets: { S: [[""]] } });
    const range = f.context.SpreadsheetApp.getActiveSpreadsheet().getSheetByName("S").getRange(1, 1, 1, 1);
    for (const x of ["=1+1", "+1", "-1", "@x"]) expect(() => range.setValues([[x]]), x).toThrow(/formula injection/);
    for (const x of ["00123", "1,5", "12%", "2026-01-15", "15.01.2026", "TRUE", "12:30"])
      expect(() => range.setValues([[x]]), x).toThrow(/would be converted/);
    range.setValues([["'=1+1"]]);
    expect(nth(f.grids.get("S")!, 0)[0]).toBe("=1+1");
    range.setValues([[7]]);
    expect(nth(f.grids.get("S")!, 0)[0]).toBe(7);
    range.setNumberFormats([["@"]]);
    range.setValues([["'+49"]]);
    expect(f.shownApostrophes.map((x) => x.value)).toEqual(["'+49"]);
  });

  it("keeps gaps: cells the core did not write are not overwritten", () => {
    const f = createSheetsFake({ emulator, sheets: { S: [["x", "keep", "y"]] } });
    const host = new SheetHost(f.context.SpreadsheetApp);
    host.handle({ op: "write", sheet: "S", row: 1, col: 1, values: [["A"]] });
    host.handle({ op: "write", sheet: "S", row: 1, col: 3, values: [["C"]] });
    host.flush();
    expect(f.grids.get("S")![0]).toEqual(["A", "keep", "C"]);
  });

  it("appends below what is there and creates sheets with headers", () => {
    const f = createSheetsFake({ emulator, sheets: { S: [["h"], ["1"]] } });
    const host = new SheetHost(f.context.SpreadsheetApp);
    host.handle({ op: "ensureSheet", sheet: "Log", headers: ["Datum", "Text"] });
    host.handle({ op: "append", sheet: "Log", rows: [["2026-01-01", "=x"]] });
    host.handle({ op: "append", sheet: "S", rows: [["2"]] });
    host.flush();
    expect(f.grids.get("Log")).toEqual([
      ["Datum", "Text"],
      ["2026-01-01", "=x"],
    ]);
    expect(f.grids.get("S")!.map((r) => r[0])).toEqual(["h", "1", "2"]);
    expect(host.handle({ op: "readAll", sheet: "Nope" })).toBeNull();
    expect(() => host.handle({ op: "read", sheet: "Nope", row: 1, col: 1, rows: 1, cols: 1 })).toThrow(/Nope/);
  });
});

describe("http", () => {
  it("lower-cases header names", () => {
    const f = createSheetsFake({ emulator });
    const ok = {
      method: "GET" as const,
      url: `http://x/v2/account`,
      headers: { Authorization: `Bearer ${emulator.demoKey}` },
    };
    const [a] = take(fetchAll(f.context.UrlFetchApp, [ok]), 1);
    expect(a.status).toBe(200);
    expect(Object.keys(a.headers).every((k) => k === k.toLowerCase())).toBe(true);
    expect(fetchAll(f.context.UrlFetchApp, [])).toEqual([]);
  });

  // fetchAll answers every request or throws for the batch
  // (https://developers.google.com/apps-script/reference/url-fetch/url-fetch-app#fetchAll(Object)):
  // which requests were charged before it threw is unknown.
  it("a fetchAll that throws is one unknown outcome for the whole batch: status 0 for each, nothing re-sent one by one", () => {
    const f = createSheetsFake({ emulator, failUrl: /unreachable/ });
    const ok = {
      method: "GET" as const,
      url: `http://x/v2/account`,
      headers: { Authorization: `Bearer ${emulator.demoKey}` },
    };
    const bad = { ...ok, url: "http://unreachable/v2/account" };
    const out = fetchAll(f.context.UrlFetchApp, [ok, bad, ok]);
    expect(out).toHaveLength(3);
    for (const r of out) expect(r).toMatchObject({ status: 0, networkError: "connection" });
    expect(f.fetches).toHaveLength(1); // the one batch; no single fetches after it
  });
});
