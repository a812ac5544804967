/**
 * The built functions bundle in a simulated custom-functions runtime,
 * against the emulator: 1,000 RESOLVE cells at once, then a recalculation,
 * then a reload; failures reach every cell.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { readFileSync } from "node:fs";
import { build } from "../../scripts/build-excel.ts";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { loadFunctions, recalc, SimError } from "../../excel-addin/sim/simulate.ts";
import { memoryStorage } from "../../excel-addin/host/storage.ts";
import { normaliseKey } from "../../shared/batch/normalise.ts";
import { MAX_BATCH } from "../../shared/api/schemas.ts";
import { estimate } from "../../shared/app/estimate.ts";
import { cardIncludes, cardOf } from "../../shared/functions/index.ts";
import { latestFinancials } from "../../shared/enrich/fields.ts";
import { entityOf, PLAIN_CARD_KEYS } from "../../excel-addin/functions/card.ts";
import { nth, take } from "../helpers/indexed.ts";

const BASE = "https://emulator.test";
let bundle = "";
let functionsJson: { functions: { id: string }[] };
let emulator: Emulator;

function userStorage(key: string, extra: Record<string, string> = {}) {
  const storage = memoryStorage();
  storage.data.set("cd:user:apiKey", key);
  storage.data.set("cd:user:baseUrl", BASE);
  storage.data.set("cd:user:formulaDailyBudget", "100000");
  for (const [k, v] of Object.entries(extra)) storage.data.set(k, v);
  return storage;
}

beforeAll(async () => {
  const out = await build({
    outDir: join(mkdtempSync(join(tmpdir(), "excel-build-")), "excel-addin"),
    quiet: true,
    minify: true,
  });
  bundle = join(out.outDir, "functions.js");
  functionsJson = JSON.parse(readFileSync(join(out.outDir, "functions.json"), "utf8"));
  emulator = createEmulator({ companies: 3000, seed: 7 });
}, 120_000);

const names = (n: number) => emulator.world.companies.slice(0, n).map((c) => c.name);

describe("simulated custom-functions runtime", () => {
  it("associates every id in functions.json, and nothing else", () => {
    const sim = loadFunctions({ bundle, handle: (r) => emulator.handle(r) });
    expect([...sim.functions.keys()].sort()).toEqual(functionsJson.functions.map((f) => f.id).sort());
    expect(sim.functions.size).toBeGreaterThanOrEqual(17);
  });

  it("1,000 RESOLVE cells at once: batch resolves of up to MAX_BATCH, minimum credits; a recalculation and a reload spend nothing", async () => {
    const key = emulator.createKey(10_000);
    const storage = userStorage(key);
    const workbook = new Map<string, unknown>();
    const sim = loadFunctions({ bundle, handle: (r) => emulator.handle(r), storage, workbookSettings: workbook });
    const cells = names(1000).map((n) => [[[n]]]);
    const before = emulator.balance(key);
    const first = await recalc(sim.functions.get("RESOLVE")!, cells);
    expect(first.every((s) => s.status === "fulfilled" || s.reason instanceof SimError)).toBe(true);
    const matched = first.filter((s) => s.status === "fulfilled") as PromiseFulfilledResult<unknown[][]>[];
    expect(matched.length).toBeGreaterThan(800);
    // The others are ambiguous or unknown names: #N/A with the reason.
    for (const s of first) if (s.status === "rejected") expect(s.reason.code).toBe("#N/A");
    for (const m of matched) expect(nth(m.value, 0)[0]).toMatch(/^DE[A-Z0-9]{10}$/);
    // Every cell is answered for its own name.
    const firstRow = nth((first[0] as PromiseFulfilledResult<unknown[][]>).value, 0);
    expect(emulator.world.companies.find((c) => c.id === firstRow[0])?.name).toBe(names(1)[0]);

    const distinct = new Set(names(1000).map((n) => normaliseKey({ name: n }))).size;
    const paid = sim.requests.filter((r) => r.path === "/v2/companies/batch/resolve");
    expect(sim.requests.length).toBe(paid.length);
    expect(paid.length).toBe(Math.ceil(distinct / MAX_BATCH));
    expect(before - emulator.balance(key)).toBe(Math.ceil(distinct / 10));

    // Recalculation (same session): nothing sent.
    const sent = sim.requests.length;
    const again = await recalc(sim.functions.get("RESOLVE")!, cells);
    expect(sim.requests.length).toBe(sent);
    expect(again.map((s) => s.status)).toEqual(first.map((s) => s.status));

    // Reload: a fresh runtime (empty memory), the same per-user storage and workbook.
    const reloaded = loadFunctions({ bundle, handle: (r) => emulator.handle(r), storage, workbookSettings: workbook });
    const third = await recalc(reloaded.functions.get("RESOLVE")!, cells);
    expect(reloaded.requests).toEqual([]);
    expect(third.filter((s) => s.status === "fulfilled").length).toBe(matched.length);
    expect(emulator.balance(key)).toBe(before - Math.ceil(distinct / 10));
  });

  it("repeated ids are asked once; PROFILE cells share one request per distinct id group", async () => {
    const key = emulator.createKey(1000);
    const storage = userStorage(key);
    const sim = loadFunctions({ bundle, handle: (r) => emulator.handle(r), storage });
    const ids = emulator.companies.ids().slice(0, 5);
    const cells = Array.from({ length: 200 }, (_, i) => [[[ids[i % 5]]]]);
    const out = await recalc(sim.functions.get("PROFILE")!, cells);
    expect(out.every((s) => s.status === "fulfilled")).toBe(true);
    const profileRequests = sim.requests.filter((r) => r.path.startsWith("/v2/companies/DE"));
    expect(profileRequests.length).toBe(5);
    // The spend log names the formula as Sheets does (one shared runFormula).
    const ledger = [...storage.data.entries()]
      .filter(([k]) => k.includes("ledger"))
      .map(([, v]) => v)
      .join("");
    expect(ledger).toContain("formula:PROFILE");
  });

  it("a failed request answers every waiting cell with a clear error; none stays pending", async () => {
    const key = emulator.createKey(1000);
    const sim = loadFunctions({
      bundle,
      handle: () => ({ status: 503, headers: {}, body: "" }),
      storage: userStorage(key, { "cd:user:language": "en" }),
    });
    const cells = names(300).map((n) => [[[n]]]);
    const out = await recalc(sim.functions.get("RESOLVE")!, cells);
    expect(out.every((s) => s.status === "rejected")).toBe(true);
    const reason = (out[0] as PromiseRejectedResult).reason as SimError;
    expect(reason).toBeInstanceOf(SimError);
    expect(reason.code).toBe("#N/A");
    expect(reason.message).toMatch(/data service/i);
  }, 60_000);

  it("errors are #VALUE! for bad input and #N/A for not found, in the user's language; no key is MISSING_KEY", async () => {
    const key = emulator.createKey(100);
    const sim = loadFunctions({
      bundle,
      handle: (r) => emulator.handle(r),
      storage: userStorage(key, { "cd:user:language": "de" }),
    });
    const [bad] = await recalc(sim.functions.get("PROFILE")!, [[[["not an id"]]]]);
    expect((bad as PromiseRejectedResult).reason).toMatchObject({ code: "#VALUE!" });
    expect((bad as PromiseRejectedResult).reason.message).toMatch(/Ungültige Eingabe/);
    const [missing] = await recalc(sim.functions.get("PROFILE")!, [[[["DEZZZZZZZZZZ"]]]]);
    expect((missing as PromiseRejectedResult).reason).toMatchObject({ code: "#N/A" });
    const noKey = loadFunctions({ bundle, handle: (r) => emulator.handle(r), storage: memoryStorage() });
    const [m] = await recalc(noKey.functions.get("RESOLVE")!, [[[["Siemens AG"]]]]);
    expect((m as PromiseRejectedResult).reason.message).toMatch(/API-Schlüssel|API key/);
    expect(noKey.requests).toEqual([]);
  });

  it("the daily formula budget stops paid cells with a clear error and sends nothing paid", async () => {
    const key = emulator.createKey(1000);
    const sim = loadFunctions({
      bundle,
      handle: (r) => emulator.handle(r),
      storage: userStorage(key, { "cd:user:formulaDailyBudget": "5", "cd:user:language": "en" }),
    });
    const out = await recalc(
      sim.functions.get("RESOLVE")!,
      names(200).map((n) => [[[n]]]),
    );
    expect(out.every((s) => s.status === "rejected")).toBe(true);
    expect((out[0] as PromiseRejectedResult).reason.message).toMatch(/budget/i);
    expect(sim.requests.filter((r) => r.path.includes("batch"))).toEqual([]);
  });

  it("CARD answers an entity value whose fields formulas can read; without CustomFunctionsRuntime 1.4 a row of plain values in fixed columns", async () => {
    const key = emulator.createKey(100);
    const id = emulator.companies.ids()[0];
    const sim = loadFunctions({
      bundle,
      handle: (r) => emulator.handle(r),
      storage: userStorage(key, { "cd:user:language": "en" }),
      displayLanguage: "en-US",
    });
    const [card] = await recalc(sim.functions.get("CARD")!, [[[[id]]]]);
    const entity = nth((card as PromiseFulfilledResult<any[][]>).value, 0)[0];
    expect(entity.type).toBe("Entity");
    expect(entity.properties.Name.basicValue).toBe(entity.text);
    expect(entity.layouts.card.title.property).toBe("Name");
    // Perpetual Office 2021/2024: no data types from custom functions; the same card as one row of plain values in fixed columns.
    const old = loadFunctions({
      bundle,
      handle: (r) => emulator.handle(r),
      storage: userStorage(key, { "cd:user:language": "en" }),
      entityValues: false,
      displayLanguage: "en-US",
    });
    const [plain] = await recalc(old.functions.get("CARD")!, [[[[id]]]]);
    const rows = (plain as PromiseFulfilledResult<unknown[][]>).value;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveLength(PLAIN_CARD_KEYS.length);
    expect(nth(rows, 0).slice(0, 2)).toEqual([entity.text, id]);
    expect(nth(rows, 0).every((v) => typeof v !== "object")).toBe(true);
    expect(nth(rows, 0)[PLAIN_CARD_KEYS.indexOf("register")]).toBe(entity.properties.Register?.basicValue ?? "");
    // A column of ids (and one unknown): one aligned row each, the error row padded to the same width.
    const ids = [...emulator.companies.ids().slice(0, 3), "DE0000000000"];
    const [column] = await recalc(old.functions.get("CARD")!, [[ids.map((x) => [x])]]);
    const table = (column as PromiseFulfilledResult<unknown[][]>).value;
    expect(table).toHaveLength(4);
    for (const r of table) expect(r).toHaveLength(PLAIN_CARD_KEYS.length);
    expect(table.slice(0, 3).map((r) => r[1])).toEqual(ids.slice(0, 3));
    expect(nth(table, 3)[0]).toBeInstanceOf(SimError);
  });

  it("card property names are pinned per workbook: a German workbook keeps =A2.Umsatz for an English user; functions never write the workbook", async () => {
    const key = emulator.createKey(100);
    const id = emulator.companies.ids()[1];
    const workbook = new Map<string, unknown>();
    // Created in German Excel: the task pane's start pins German names in the workbook's settings.
    const german = loadFunctions({
      bundle,
      handle: (r) => emulator.handle(r),
      storage: userStorage(key),
      workbookSettings: workbook,
      displayLanguage: "de-DE",
    });
    const [a] = await recalc(german.functions.get("CARD")!, [[[[id]]]]);
    expect(nth((a as PromiseFulfilledResult<any[][]>).value, 0)[0].properties["Firmen-ID"]).toBeDefined();
    expect(workbook.get("companyData.cardLanguage")).toBe("de");
    expect(typeof workbook.get("companyData.workbookId")).toBe("string");
    // Opened by an English colleague (English Office, English settings): the names stay German, the titles are his.
    const english = loadFunctions({
      bundle,
      handle: (r) => emulator.handle(r),
      storage: userStorage(key, { "cd:user:language": "en" }),
      workbookSettings: workbook,
      displayLanguage: "en-US",
    });
    const [b] = await recalc(english.functions.get("CARD")!, [[[[id]]]]);
    const entity = nth((b as PromiseFulfilledResult<any[][]>).value, 0)[0];
    expect(entity.properties["Firmen-ID"]).toBeDefined();
    expect(entity.properties["Company ID"]).toBeUndefined();
    expect(entity.layouts.card.sections[0].title).toBe("Company data");
    expect(workbook.get("companyData.cardLanguage")).toBe("de");
    expect(german.settingsWrites() + english.settingsWrites()).toBe(0);
  });

  it("a function that starts before the task pane waits for the workbook's id instead of writing one", async () => {
    const key = emulator.createKey(100);
    const workbook = new Map<string, unknown>();
    const sim = loadFunctions({
      bundle,
      handle: (r) => emulator.handle(r),
      storage: userStorage(key),
      workbookSettings: workbook,
      paneStarts: false,
    });
    const pending = recalc(sim.functions.get("PROFILE")!, [[[emulator.companies.ids()[2]]]]);
    await new Promise((r) => setTimeout(r, 100));
    expect(workbook.size).toBe(0);
    await sim.startPane();
    const [settled] = take(await pending, 1);
    expect(settled.status).toBe("fulfilled");
    expect(sim.settingsWrites()).toBe(0);
    const id = workbook.get("companyData.workbookId") as string;
    // The budget and spend log went under the id the pane created.
    const docKeys = [...(sim.storage as ReturnType<typeof memoryStorage>).data.keys()].filter((k) =>
      k.startsWith("cd:doc:"),
    );
    expect(docKeys.map((k) => k.split(":").slice(0, 4).join(":"))).toEqual([
      `cd:doc:${id}:budget`,
      `cd:doc:${id}:ledger`,
    ]);
  });

  it("CARD: profile, key figures with their year and people; the free availability first, so it costs exactly the estimate", async () => {
    const key = emulator.createKey(1000);
    const peek = emulator.createKey(1000); // looks behind the add-in's back without touching its balance
    const get = (path: string) =>
      JSON.parse(
        emulator.handle({ method: "GET", url: `${BASE}${path}`, headers: { authorization: `Bearer ${peek}` } }).body,
      );
    const ids = emulator.companies.ids().slice(0, 200);
    const avail = new Map(ids.map((id) => [id, get(`/v2/companies/${id}/availability`)]));
    const full = ids.find((id) => avail.get(id).financials === true && avail.get(id).people === true)!;
    const noFigures = ids.find((id) => avail.get(id).profile === true && avail.get(id).financials !== true)!;
    expect(full && noFigures).toBeTruthy();
    const sim = loadFunctions({
      bundle,
      handle: (r) => emulator.handle(r),
      storage: userStorage(key, { "cd:user:language": "en" }),
      displayLanguage: "en-US",
    });
    const cardOfCell = async (id: string) => {
      const before = emulator.balance(key);
      const [settled] = take(await recalc(sim.functions.get("CARD")!, [[[[id]]]]), 1);
      expect(settled.status).toBe("fulfilled");
      const plan = estimate({
        kind: "all",
        parts: [
          { kind: "availability", count: 1 },
          { kind: "profile", count: 1, include: cardIncludes(avail.get(id)) },
        ],
      });
      return {
        entity: nth((settled as PromiseFulfilledResult<any[][]>).value, 0)[0],
        spent: before - emulator.balance(key),
        estimate: plan.credits,
      };
    };

    const a = await cardOfCell(full);
    expect(a.spent).toBe(a.estimate);
    expect(a.spent).toBe(6);
    const company = get(`/v2/companies/${full}?include=people,financials`);
    const latest = latestFinancials(company)!;
    const p = a.entity.properties;
    expect(p["Financial year"]).toEqual({ type: "Double", basicValue: latest.year });
    expect(p.Revenue).toEqual({
      type: "Double",
      basicValue: latest.revenue,
      propertyMetadata: { sublabel: String(latest.year) },
    });
    for (const label of ["Company status", "Address", "Register", "Industry", "Size class"])
      if (p[label]) expect(p[label].type).toBe("String");
    expect(p["Company status"]).toBeDefined();
    expect(p.Register.basicValue).toBeTruthy();
    const current = (company.people as { name: string; until?: string }[]).filter((x) => !x.until);
    expect(p.People.type).toBe("Array");
    expect(p.People.elements[0].map((c: { basicValue: string }) => c.basicValue)).toEqual([
      "Name",
      "Role",
      "Since",
      "Person ID",
    ]);
    expect(p.People.elements.slice(1).map((r: { basicValue: string }[]) => nth(r, 0).basicValue)).toEqual(
      current.map((x) => x.name),
    );
    const titles = a.entity.layouts.card.sections.map((x: { title: string }) => x.title);
    expect(titles).toEqual(["Company data", `Key figures ${latest.year}`, "People"]);
    // Every listed property exists (a card section naming a missing property is an error in Excel).
    for (const sec of a.entity.layouts.card.sections)
      for (const name of sec.properties) expect(p[name], name).toBeDefined();

    const b = await cardOfCell(noFigures);
    expect(b.spent).toBe(b.estimate);
    expect(b.spent).toBeLessThan(6);
    expect(b.entity.properties.Revenue).toBeUndefined();
    expect(b.entity.properties["Financial year"]).toBeUndefined();

    // Asked again: nothing spent.
    const again = await cardOfCell(full);
    expect(again.spent).toBe(0);
    expect(again.entity).toEqual(a.entity);

    // In a German workbook the same figure is =A2.Umsatz.
    const de = entityOf(cardOf(company, "de"), "de");
    expect(de.properties.Umsatz).toMatchObject({ type: "Double", basicValue: latest.revenue });
    expect(de.layouts.card.sections.map((x) => x.title)).toEqual([
      "Firmendaten",
      `Kennzahlen ${latest.year}`,
      "Personen",
    ]);
  });
});
