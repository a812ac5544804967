/**
 * "Insert at cursor" never overwrites the user's cells without asking: empty
 * space is written, a covered table is counted and nothing written, a
 * confirmed count is written only while it still holds, and "below the
 * data" writes under the last used row.
 */
import { describe, expect, it } from "vitest";
import { harness } from "./harness.ts";

const company = (n: number) => ({
  id: `DE00000000${String(n).padStart(2, "0")}`,
  name: `Firma ${n}`,
  legalForm: "",
  street: "",
  zip: "",
  city: "Berlin",
  state: "",
  register: "",
  industry: "",
  size: "",
  status: "",
  active: true,
  score: null,
  distanceKm: null,
});

async function setup() {
  const table = [
    ["Firma", "Stadt"],
    ["Alpha GmbH", "Köln"],
    ["Beta AG", "Bonn"],
    ["", ""],
    ["Summe", 2],
  ];
  const h = harness([{ name: "L", cells: table.map((r) => [...r]) }]);
  await h.call("saveSettings", { apiKey: h.key, baseUrl: "https://emulator.test", language: "de" });
  return { h, table };
}

const snapshot = (h: Awaited<ReturnType<typeof setup>>["h"]) => JSON.stringify(h.workbook.sheet("L").cells);

describe("insert at cursor", () => {
  it("writes into empty cells at the cursor", async () => {
    const { h } = await setup();
    h.workbook.selection = { r1: 1, c1: 5, r2: 1, c2: 5 };
    const out = await h.call("insertSearchResults", { companies: [company(1)], header: true, columns: ["id", "name"] });
    expect(out).toMatchObject({ row: 1, col: 5, rows: 2, cols: 2 });
    expect(out.wouldOverwrite).toBeUndefined();
    expect(h.workbook.get("L", 2, 6)).toBe("Firma 1");
  });

  it("over the user's table: nothing is written, the answer names how many cells would be overwritten", async () => {
    const { h } = await setup();
    const before = snapshot(h);
    h.workbook.selection = { r1: 2, c1: 1, r2: 2, c2: 1 }; // a cell of the table: its region is the table
    const out = await h.call("insertSearchResults", {
      companies: [company(1), company(2)],
      header: true,
      columns: ["id", "name"],
    });
    expect(out.wouldOverwrite).toBe(6);
    expect(out.rows).toBe(0);
    expect(snapshot(h)).toBe(before);
  });

  it("writes over them once confirmed with the count, and asks again when the count changed since", async () => {
    const { h } = await setup();
    h.workbook.selection = { r1: 2, c1: 2, r2: 3, c2: 3 };
    const first = await h.call("insertSearchResults", {
      companies: [company(1)],
      header: true,
      columns: ["id", "name"],
    });
    expect(first.wouldOverwrite).toBe(2);
    h.workbook.set("L", 3, 3, "typed meanwhile");
    const stale = await h.call("insertSearchResults", {
      companies: [company(1)],
      header: true,
      columns: ["id", "name"],
      overwrite: 2,
    });
    expect(stale.wouldOverwrite).toBe(3);
    expect(h.workbook.get("L", 3, 3)).toBe("typed meanwhile");
    const ok = await h.call("insertSearchResults", {
      companies: [company(1)],
      header: true,
      columns: ["id", "name"],
      overwrite: 3,
    });
    expect(ok.wouldOverwrite).toBeUndefined();
    expect(h.workbook.get("L", 3, 3)).toBe("Firma 1");
  });

  it("below the data: under the last used row, with one empty row between, nothing of the table touched", async () => {
    const { h } = await setup();
    const before = JSON.stringify(h.workbook.sheet("L").cells.slice(0, 5));
    h.workbook.selection = { r1: 2, c1: 1, r2: 2, c2: 1 };
    const out = await h.call("insertSearchResults", {
      companies: [company(1)],
      header: true,
      columns: ["id", "name"],
      place: "below",
    });
    expect(out).toMatchObject({ row: 7, col: 1, rows: 2 });
    expect(JSON.stringify(h.workbook.sheet("L").cells.slice(0, 5))).toBe(before);
    expect(h.workbook.get("L", 8, 2)).toBe("Firma 1");
  });
});
