/**
 * Issue 26 end to end, through the core enrichment job against the emulator:
 * names written with a legal form other than the company's are never
 * matched (16 of 16 were before), each a review that says why; a former name
 * ("SAP AG") is a match with the note; a weak match ("Lufthansa") is a review
 * showing its confidence; a typo ("Siemns AG") is offered, not taken.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { coreName, normName } from "../../emulator/search/normalize.ts";
import { runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { enrichSheet } from "../../shared/enrich/job.ts";
import { coreDeps } from "../../shared/enrich/run.ts";
import { parseLegalForm } from "../../shared/operations/legal-form.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { Workbook } from "../../shared/sheet/workbook.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";

let emu: Emulator;
let clock = Date.UTC(2025, 5, 2, 9);
beforeAll(() => {
  emu = createEmulator({ companies: 5_000, seed: 26, now: () => clock, startDate: "2025-06-02" });
});

/** [the form the list gives, the emulator's form of the company]: the kinds of the issue and their mirror images. */
const KINDS: [string, string][] = [
  ["GmbH", "GMBH_CO_KG"],
  ["GmbH", "UG"],
  ["KG", "GMBH_CO_KG"],
  ["GmbH & Co. KG", "GMBH"],
  ["UG (haftungsbeschränkt)", "GMBH"],
  ["AG", "GMBH"],
  ["GmbH", "AG"],
  ["AG", "SE"],
  ["OHG", "KG"],
  ["KG", "OHG"],
  ["GmbH", "EK"],
  ["e.K.", "GMBH"],
  ["eG", "GMBH"],
  ["GmbH", "EG"],
  ["Gesellschaft mit beschränkter Haftung", "UG"],
  ["GmbH u. Co. KG", "KG"],
];

/**
 * One name per kind: a company of the form, without former names, the only
 * one of its name without form, written with the other form (a name no
 * company has, now or before).
 */
function crossFormNames(): { given: string; id: string; found: string }[] {
  const idx = emu.world.index;
  const used = new Set<string>();
  return KINDS.map(([form, code]) => {
    const c = emu.world.companies.find((x) => {
      if (x.legalForm !== code || x.formerNames || x.reference || used.has(x.id)) return false;
      const { rest } = parseLegalForm(x.name);
      const given = `${rest} ${form}`;
      return (
        rest !== "" &&
        idx.core.get(coreName(x.name))?.length === 1 &&
        !idx.exact.has(normName(given)) &&
        !idx.former.has(normName(given))
      );
    });
    if (!c) throw new Error(`no company of form ${code} in the test world`);
    used.add(c.id);
    return { given: `${parseLegalForm(c.name).rest} ${form}`, id: c.id, found: c.name };
  });
}

async function enrich(names: string[], matchFloor?: number) {
  const key = emu.createKey(10_000);
  const d = emulatorDrivers(emu, { now: () => clock, onSleep: (ms) => (clock += ms) });
  const cells: Cell[][] = [["Firma"], ...names.map((n) => [n])];
  const book = new Workbook([{ name: "Liste", cells }]);
  const driver: AsyncDriver = { ...d.async, sheet: async (req) => book.handle(req) };
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: "de",
      now: () => clock,
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 0,
    maxBatch: 50,
    scope: "legal-form",
    ...(matchFloor !== undefined ? { matchFloor } : {}),
  };
  const r = await runAsync(
    enrichSheet(coreDeps, ctx, {
      sheet: "Liste",
      row: 1,
      col: 1,
      rows: cells.length,
      cols: 1,
      fields: ["id", "name"],
      options: { chunkSize: 50 },
    }),
    driver,
  );
  expect(r.complete).toBe(true);
  return book
    .block("Liste", 2, 1, names.length, 5)
    .map((row) => ({ name: String(row[0]), status: String(row[1]), confidence: row[2], id: String(row[3] ?? "") }));
}

describe("enrichment: the legal form is part of a company's identity", () => {
  it("16 names with another company's legal form: 0 matched, each a review naming both forms and offering the company", async () => {
    const list = crossFormNames();
    expect(list).toHaveLength(16);
    const rows = await enrich(list.map((x) => x.given));
    expect(rows.filter((r) => r.status.startsWith("gefunden"))).toEqual([]);
    rows.forEach((r, k) => {
      const x = list[k]!;
      const given = parseLegalForm(x.given).form!.short;
      const found = parseLegalForm(x.found).form!.short;
      expect(r.status).toContain(`prüfen (Rechtsform weicht ab (${given} ≠ ${found})):`);
      // The company is offered for the user's pick, never written as the row's id.
      expect(r.status).toContain(x.id);
      expect(r.id).toBe("");
      expect(typeof r.confidence).toBe("number");
    });
  });

  it("a former name is a match with the note; a weak match and a typo are reviews showing the confidence; word order does not matter", async () => {
    const rows = await enrich(["SAP AG", "Allianz AG", "Lufthansa", "Siemns AG", "Bosch Robert GmbH"]);
    const [sap, allianz, lufthansa, siemns, bosch] = rows;
    expect(sap).toMatchObject({ status: "gefunden (früherer Name SAP AG)", id: "DEJK7QV0PK24" });
    expect(allianz).toMatchObject({ status: "gefunden (früherer Name Allianz AG)", id: "DEOF5V5SVY64" });
    expect(lufthansa!.status).toMatch(/^prüfen \(Trefferqualität 0,\d+ unter 0,8\): DEFZ4MICZY78/);
    expect(siemns!.status).toMatch(/^prüfen \(Trefferqualität 0,\d+ unter 0,8\): DEPIYX8Y4M82 – Siemens AG/);
    expect(bosch).toMatchObject({ status: "gefunden", id: "DEJTYGTV9Z71" });
  });

  it("the floor is a setting: at 0.5 the weak match is taken, the legal form still is not", async () => {
    const [cross] = crossFormNames();
    const rows = await enrich(["Lufthansa", cross!.given], 0.5);
    expect(rows[0]).toMatchObject({ status: "gefunden", id: "DEFZ4MICZY78" });
    expect(rows[1]!.status).toMatch(/^prüfen \(Rechtsform weicht ab/);
  });
});
