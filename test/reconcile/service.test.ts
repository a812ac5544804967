/**
 * The reconciliation service against the emulator: every answer validated
 * with ajv against the project's 0.2 schemas, and every credit checked
 * against the emulator's own ledger (the key's balance).
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliWorld, type CliWorld } from "../helpers/cli.ts";
import { nth, take } from "../helpers/indexed.ts";
import { uniqueNames } from "../helpers/names.ts";
import { charged, newKey } from "../mcp/harness.ts";
import { estimateEnrichment } from "../../shared/enrich/estimate.ts";
import { previewHtml } from "../../reconcile/preview.ts";
import { batchOf, getJson, post, postJson, startService } from "./harness.ts";
import { expectValid } from "./schemas.ts";

let world: CliWorld;
let key: string;
let svc: Awaited<ReturnType<typeof startService>>;

beforeAll(async () => {
  world = await startCliWorld({ companies: 3000, seed: 30, dirPrefix: "cd-reconcile-" });
  key = await newKey(world.server, 10_000);
  svc = await startService(world.server, key, ["--lang", "en", "--budget", "none"]);
});
afterAll(async () => {
  await svc?.close();
  await world?.server.close();
});

const balance = async () => (await charged(world.server, key)).balance;

/** The manifest's fields 0.2's "Service Manifest" section names (the 1.0 draft's own, e.g. featureView or lang, are not among them). */
const MANIFEST_02 = [
  "versions",
  "name",
  "identifierSpace",
  "schemaSpace",
  "defaultTypes",
  "documentation",
  "logo",
  "serviceVersion",
  "view",
  "feature_view",
  "preview",
  "suggest",
  "extend",
  "batchSize",
  "authentication",
];

/** Reconcile `queries` (validated on the way out and back) and say what the emulator charged. */
async function reconcile(queries: Record<string, unknown>, url = svc.url) {
  expectValid("reconciliation-query-batch", queries);
  const before = await balance();
  const r = await postJson(url, { queries: JSON.stringify(queries) });
  if (r.status === 200) expectValid("reconciliation-result-batch", r.body);
  return { ...r, credits: before - (await balance()) };
}

async function extend(query: { ids: string[]; properties: { id: string; settings?: object }[] }, url = svc.url) {
  expectValid("data-extension-query", query);
  const before = await balance();
  const r = await postJson(url, { extend: JSON.stringify(query) });
  if (r.status === 200) expectValid("data-extension-response", r.body);
  return { ...r, credits: before - (await balance()) };
}

describe("reconciliation service (0.2) against the emulator", () => {
  it("answers the manifest on GET without parameters, valid against the 0.2 schema", async () => {
    const { status, body } = await getJson(svc.url);
    expect(status).toBe(200);
    expectValid("manifest", body);
    expect(body.versions).toEqual(["0.2"]);
    expect(body.defaultTypes).toEqual([{ id: "company", name: expect.any(String) }]);
    expect(body.preview.url).toBe(`${svc.url}/preview?id={{id}}`);
    expect(body.suggest.entity).toEqual({ service_url: svc.url, service_path: "/suggest/entity" });
    expect(body.extend.propose_properties.service_path).toBe("/propose_properties");
    expect(body.authentication).toBeUndefined();
    expect(body.batchSize).toBe(100);
    expect(Object.keys(body).filter((k) => !MANIFEST_02.includes(k))).toEqual([]);
    expect(body.documentation).toBe(`${svc.url}/docs`);
    expect(body.feature_view).toEqual({ url: `${svc.url}/feature?id={{id}}` });
    expect(body.logo).toBe(`${svc.url}/logo.svg`);
    const [year] = body.extend.property_settings;
    expect(year).toMatchObject({ name: "year", type: "select", default: "latest", label: "Financial year" });
    expect(year.choices[1].value).toBe(String(new Date().getUTCFullYear() - 1));
    // German labels under /de, whatever the service's language.
    const de = await getJson(`${svc.url}/de`);
    expectValid("manifest", de.body);
    expect(de.body.defaultTypes[0].name).toMatch(/Firma/);
    expect(de.body.preview.url).toBe(`${svc.url}/de/preview?id={{id}}`);
    expect(de.body.extend.property_settings[0].label).toBe("Geschäftsjahr");
  });

  it("the documentation and the logo the manifest names: open, text only, in the service's language", async () => {
    const docs = await fetch(`${svc.url}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
    expect(docs.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const text = await docs.text();
    expect(text).toContain(`Add Standard Service: ${svc.url}`);
    expect(text).toContain("No token");
    expect(text).not.toMatch(/<script/i);
    expect(await (await fetch(`${svc.url}/de/docs`)).text()).toContain("Standarddienst hinzufügen");
    const logo = await fetch(`${svc.url}/logo.svg`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/svg+xml");
    expect(await logo.text()).toMatch(/^<svg [^>]*viewBox="0 0 64 64"/);
  });

  it("one bad query answers its own error; the others of the batch are answered and only they are paid", async () => {
    const names = uniqueNames(world.emu, 10, 800);
    const before = await balance();
    const r = await postJson(svc.url, {
      queries: JSON.stringify({
        ...batchOf(names),
        empty: { query: "" },
        blank: { query: "   ", type: "company" },
        limit: { query: nth(names, 0), limit: 0 },
        notAQuery: "Siemens",
      }),
    });
    expect(r.status).toBe(200);
    expectValid("reconciliation-result-batch", r.body);
    for (let i = 0; i < names.length; i++) expect(r.body[`q${i}`].result[0], `q${i}`).toMatchObject({ match: true });
    for (const k of ["empty", "blank", "limit", "notAQuery"]) {
      expect(r.body[k].result, k).toEqual([]);
      expect(r.body[k].error, k).toMatchObject({
        code: "INVALID_INPUT",
        de: expect.any(String),
        en: expect.any(String),
      });
    }
    expect(r.body.empty.error.en).toBe(
      "Invalid input (queries › empty › search text): please give a name (query) or properties.",
    );
    expect(before - (await balance())).toBe(1);
    // A batch that is no batch is still refused whole.
    expect((await postJson(svc.url, { queries: '["Siemens"]' })).status).toBe(400);
  });

  it("a batch of 25 names costs ceil(25/10) = 3 credits, one result per query, the same batch again costs nothing", async () => {
    const names = uniqueNames(world.emu, 25, 0);
    const r = await reconcile(batchOf(names, { type: "company", type_strict: "should" }));
    expect(r.status).toBe(200);
    expect(r.credits).toBe(3);
    expect(r.headers.get("x-credits-spent")).toBe("3");
    expect(Object.keys(r.body)).toEqual(names.map((_, i) => `q${i}`));
    names.forEach((name, i) => {
      const [best] = r.body[`q${i}`].result;
      expect(best, name).toMatchObject({
        id: world.emu.companies.findByName(name)[0],
        match: true,
        type: [{ id: "company" }],
      });
      expect(best.score).toBeGreaterThan(0);
    });
    expect((await reconcile(batchOf(names))).credits).toBe(0);
  });

  it("GET with a queries parameter answers as POST does", async () => {
    const names = uniqueNames(world.emu, 10, 40);
    const before = await balance();
    const r = await getJson(`${svc.url}?queries=${encodeURIComponent(JSON.stringify(batchOf(names)))}`);
    expect(r.status).toBe(200);
    expectValid("reconciliation-result-batch", r.body);
    expect(before - (await balance())).toBe(1);
  });

  it("an ambiguous name has match: false and its candidates; it costs its share of the batch, nothing more", async () => {
    const [dup] = take(world.emu.companies.duplicateNames(1), 1);
    const r = await reconcile({ amb: { query: dup.name } });
    expect(r.credits).toBe(1);
    const result = r.body.amb.result as { id: string; match: boolean }[];
    expect(result.every((c) => c.match === false)).toBe(true);
    expect(result.map((c) => c.id).sort()).toEqual([...dup.ids].sort());
  });

  it("a city the match contradicts is never a match: the company is a candidate with the reason", async () => {
    const c = nth(
      world.emu.world.companies.filter((x) => world.emu.companies.findByName(x.name).length === 1),
      60,
    );
    const other = world.emu.world.summary(
      nth(
        world.emu.world.companies.filter(
          (x) => world.emu.world.summary(x, "en").city !== world.emu.world.summary(c, "en").city,
        ),
        0,
      ),
      "en",
    ).city;
    const r = await reconcile({ q: { query: c.name, properties: [{ pid: "city", v: other }] } });
    const [first] = r.body.q.result;
    expect(first).toMatchObject({ id: c.id, match: false });
    expect(first.description).toMatch(/city differs/);
    // The matching features say the same, and the manifest's feature view explains them.
    expect(first.features).toContainEqual({ id: "contradicts_city", value: true });
    expect(first.features).toContainEqual({ id: "confidence", value: expect.any(Number) });
    const page = await fetch(`${svc.url}/feature?id=contradicts_city`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("The city given contradicts the company&#39;s seat");
    expect((await fetch(`${svc.url}/feature?id=__proto__`)).status).toBe(404);
  });

  it("identifiers go to the free lookup: a VAT id or a company id matches at no cost; a malformed VAT id is that query's error", async () => {
    const c = nth(world.emu.world.companies, 77);
    const p = world.emu.world.profile(c, "en");
    const r = await reconcile({
      vat: { query: c.name, properties: [{ pid: "vatId", v: p.vatId }] },
      bad: { query: c.name, properties: [{ pid: "vatId", v: "DE12" }] },
      id: { query: c.id },
    });
    expect(r.credits).toBe(0);
    expect(r.body.vat.result[0]).toMatchObject({ id: c.id, match: true });
    expect(r.body.bad.result).toEqual([]);
    expect(r.body.bad.error).toMatchObject({
      code: "INVALID_INPUT",
      de: expect.stringMatching(/USt-IdNr/),
      en: expect.stringMatching(/VAT id/),
    });
    expect(r.body.id.result[0]).toMatchObject({ id: c.id, name: c.name, match: true });
  });

  it("extension of 10 matched companies costs what the add-on's enrichment preview of the same fields shows, and nothing the second time", async () => {
    const names = uniqueNames(world.emu, 10, 100);
    const m = await reconcile(batchOf(names));
    const ids = names.map((_, i) => m.body[`q${i}`].result[0].id as string);
    const fields = ["legalForm", "address", "url", "employees", "foundingDate"];
    // The sidebar's preview of an enrichment of these ids (an id column), through the one estimator.
    const preview = estimateEnrichment(
      ids.map((id) => [id]),
      { mapping: { id: 0 }, fields },
    );
    expect(preview.credits).toBe(10);
    const priced = await getJson(
      `${svc.url}/estimate?extend=${encodeURIComponent(JSON.stringify({ ids, properties: fields.map((id) => ({ id })) }))}`,
    );
    expect(priced.body.credits).toBe(preview.credits);

    const r = await extend({ ids, properties: fields.map((id) => ({ id })) });
    expect(r.status).toBe(200);
    expect(r.credits).toBe(preview.credits);
    expect(r.body.meta.map((x: { id: string }) => x.id)).toEqual(fields);
    const row = r.body.rows[nth(ids, 0)];
    expect(row.legalForm[0].str).toBeTruthy();
    expect(Object.keys(r.body.rows).sort()).toEqual([...ids].sort());
    expect((await extend({ ids, properties: fields.map((id) => ({ id })) })).credits).toBe(0);
  });

  it("a financial property's year setting answers that year's figures at the same price; a year without a report is empty", async () => {
    const picked = world.emu.world.companies.filter((c) => world.emu.world.financials(c).length > 1).slice(40, 43);
    const ids = picked.map((c) => c.id);
    const first = picked[0]!;
    const years = world.emu.world.financials(first);
    const older = years[0]!;
    const setting = (year: string) => ({ year });
    const properties = [
      { id: "financialYear", settings: setting(String(older.year)) },
      { id: "revenue", settings: setting(String(older.year)) },
      { id: "equity", settings: setting("latest") },
      { id: "legalForm", settings: setting(String(older.year)) },
    ];
    const fields = ["financialYear", "revenue", "equity", "legalForm"];
    const price = estimateEnrichment(
      ids.map((id) => [id]),
      { mapping: { id: 0 }, fields },
    ).credits;
    const r = await extend({ ids, properties });
    expect(r.status).toBe(200);
    expect(r.credits).toBe(price);
    const row = r.body.rows[first.id];
    const number = (v: Record<string, number>[]) => v.map((x) => Object.values(x)[0]);
    expect(number(row.financialYear)).toEqual([older.year]);
    expect(number(row.revenue)).toEqual(older.revenue == null ? [] : [older.revenue]);
    const latest = years.reduce((a, b) => (b.year > a.year ? b : a));
    expect(number(row.equity)).toEqual(latest.equity == null ? [] : [latest.equity]);
    expect(row.legalForm[0].str).toBeTruthy();
    expect(r.body.meta[1].name).toBe(`Revenue ${older.year}`);
    const none = await extend({ ids, properties: [{ id: "revenue", settings: setting("1990") }] });
    expect(none.credits).toBe(0);
    expect(Object.values(none.body.rows).every((x) => (x as { revenue: unknown[] }).revenue.length === 0)).toBe(true);
    const bad = await postJson(svc.url, {
      extend: JSON.stringify({ ids, properties: [{ id: "revenue", settings: setting("last") }] }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.en).toMatch(/\(extend › properties no\. 1 › settings › financial year\): "latest" or a year/);
  });

  it("extension with people and financials pays at most the preview: includes the free availability rules out are not bought", async () => {
    const ids = world.emu.world.companies.slice(200, 210).map((c) => c.id);
    const fields = ["management", "revenue", "equity"];
    const preview = estimateEnrichment(
      ids.map((id) => [id]),
      { mapping: { id: 0 }, fields },
    );
    expect(preview.credits).toBe(10 * 6);
    const r = await extend({ ids, properties: fields.map((id) => ({ id })) });
    expect(r.credits).toBeGreaterThanOrEqual(10);
    expect(r.credits).toBeLessThanOrEqual(preview.credits);
    const withRevenue = ids.filter((id) => r.body.rows[id].revenue.length > 0).length;
    const withPeople = ids.filter((id) => r.body.rows[id].management.length > 0).length;
    // Each company: the profile, +1 where people exist, +4 where financials exist (spec 8.2).
    expect(r.credits).toBeGreaterThanOrEqual(10 + withPeople + 4 * withRevenue);
  });

  it("suggest, property suggest, type suggest and property proposals are free and valid", async () => {
    const c = nth(world.emu.world.companies, 5);
    const before = await balance();
    const s = await getJson(`${svc.url}/suggest/entity?prefix=${encodeURIComponent(c.name.slice(0, 5))}`);
    expectValid("suggest-entities-response", s.body);
    expect(s.body.result.length).toBeGreaterThan(0);
    const page2 = await getJson(`${svc.url}/suggest/entity?prefix=${encodeURIComponent(c.name.slice(0, 2))}&cursor=10`);
    expectValid("suggest-entities-response", page2.body);
    const p = await getJson(`${svc.url}/suggest/property?prefix=ci`);
    expectValid("suggest-response", p.body);
    expect(p.body.result.map((x: { id: string }) => x.id)).toContain("city");
    const t = await getJson(`${svc.url}/suggest/type?prefix=comp`);
    expectValid("suggest-response", t.body);
    const pp = await getJson(`${svc.url}/propose_properties?type=company&limit=5`);
    expectValid("data-extension-property-proposal", pp.body);
    expect(pp.body.properties).toHaveLength(5);
    expect(before - (await balance())).toBe(0);
  });

  it("JSONP for the free endpoints; a callback that is not a name is refused", async () => {
    const r = await fetch(`${svc.url}/suggest/type?prefix=c&callback=cb_1`);
    expect(r.headers.get("content-type")).toMatch(/javascript/);
    expect(await r.text()).toMatch(/^\/\*\*\/cb_1\(\{"result":/);
    expect((await fetch(`${svc.url}?callback=alert(1)//`)).status).toBe(400);
  });

  it("the preview is free: a company met while matching shows its card, an unknown id says so", async () => {
    const names = uniqueNames(world.emu, 1, 300);
    const m = await reconcile(batchOf(names));
    const id = m.body.q0.result[0].id as string;
    const before = await balance();
    const r = await fetch(`${svc.url}/preview?id=${id}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/text\/html/);
    expect(r.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const page = await r.text();
    expect(page).toContain(">Legal form<");
    const unknown = world.emu.world.companies.at(-1)!.id;
    expect(await (await fetch(`${svc.url}/view?id=${unknown}`)).text()).toMatch(/No data is known/);
    expect(before - (await balance())).toBe(0);
  });

  it("bad input is a 400 naming the field in German and English; nothing is spent", async () => {
    const before = await balance();
    const a = await postJson(svc.url, { queries: "{not json" });
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({
      code: "INVALID_INPUT",
      de: expect.stringMatching(/JSON/),
      en: expect.stringMatching(/JSON/),
    });
    const b = await postJson(svc.url, { queries: JSON.stringify({ q0: { query: "x", limit: 0 } }) });
    expect(b.status).toBe(200);
    expect(b.body.q0).toMatchObject({ result: [], error: { code: "INVALID_INPUT" } });
    const c = await postJson(svc.url, {
      extend: JSON.stringify({ ids: ["DE1234567890"], properties: [{ id: "shoeSize" }] }),
    });
    expect(c.status).toBe(400);
    expect(c.body.error.en).toMatch(/unknown field/);
    expect((await fetch(`${svc.url}/nowhere`)).status).toBe(404);
    expect(before - (await balance())).toBe(0);
  });
});

describe("the budget and who may spend", () => {
  it("refuses a batch over the budget before anything is bought, with its price, in German and English", async () => {
    const small = await startService(world.server, key, ["--lang", "en", "--budget", "2"]);
    try {
      const ok = await reconcile(batchOf(uniqueNames(world.emu, 20, 400)), small.url);
      expect(ok.credits).toBe(2);
      expect(ok.headers.get("x-budget-remaining")).toBe("0");
      const refused = await reconcile(batchOf(uniqueNames(world.emu, 25, 450)), small.url);
      expect(refused.status).toBe(402);
      expect(refused.credits).toBe(0);
      expect(refused.body.error).toMatchObject({
        code: "BUDGET_EXCEEDED",
        budget: { limit: 2, spent: 2, remaining: 0 },
      });
      expect(refused.body.error.en).toMatch(/^Refused, nothing was bought: .*this request 3/);
      expect(refused.body.error.de).toMatch(/diese Abfrage 3/);
      // What the cache answers costs nothing and is never refused.
      expect((await reconcile(batchOf(uniqueNames(world.emu, 20, 400)), small.url)).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it("the API out of credits is an error of the request (402), never empty results", async () => {
    const poor = await newKey(world.server, 1);
    const svc2 = await startService(world.server, poor, ["--lang", "en", "--budget", "none"]);
    try {
      const r = await postJson(svc2.url, { queries: JSON.stringify(batchOf(uniqueNames(world.emu, 25, 700))) });
      expect(r.status).toBe(402);
      expect(r.body.error).toMatchObject({
        code: "OUT_OF_CREDITS",
        de: expect.stringMatching(/Credits/),
        en: expect.stringMatching(/credits/),
      });
      const ids = world.emu.world.companies.slice(800, 802).map((c) => c.id);
      const e = await postJson(svc2.url, { extend: JSON.stringify({ ids, properties: [{ id: "revenue" }] }) });
      expect(e.status).toBe(402);
    } finally {
      await svc2.close();
    }
  });

  it("a paid request from a foreign web page is refused (403); OpenRefine's page and the backend are not", async () => {
    const names = uniqueNames(world.emu, 3, 500);
    const before = await balance();
    const evil = await post(svc.url, { queries: JSON.stringify(batchOf(names)) }, { Origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    const script = await post(svc.url, { queries: JSON.stringify(batchOf(names)) }, { "Sec-Fetch-Site": "cross-site" });
    expect(script.status).toBe(403);
    expect(before - (await balance())).toBe(0);
    expect(
      (await post(svc.url, { queries: JSON.stringify(batchOf(names)) }, { Origin: "http://127.0.0.1:3333" })).status,
    ).toBe(200);
    // Free endpoints answer any origin (CORS on every endpoint, 0.2 "Cross-Origin Access").
    const s = await fetch(`${svc.url}/suggest/type?prefix=c`, { headers: { Origin: "https://evil.example" } });
    expect(s.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("on loopback a Host that is not this machine is refused (DNS rebinding)", async () => {
    const u = new URL(svc.url);
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: u.hostname, port: u.port, path: u.pathname, headers: { Host: host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.end();
      });
    expect(await status(`evil.example:${u.port}`)).toBe(403);
    expect(await status(`localhost:${u.port}`)).toBe(200);
  });

  it("with a token, every request but the manifest needs it (401), and the manifest declares it", async () => {
    const token = "t".repeat(12) + "0123456789ab";
    const guarded = await startService(world.server, key, ["--lang", "en"], { COMPANY_DATA_RECONCILE_TOKEN: token });
    try {
      const m = await getJson(guarded.url);
      expect(m.status).toBe(200);
      expectValid("manifest", m.body);
      expect(m.body.authentication).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
      const q = JSON.stringify(batchOf(uniqueNames(world.emu, 1, 600)));
      expect((await post(guarded.url, { queries: q })).status).toBe(401);
      expect((await post(guarded.url, { queries: q }, { Authorization: "Bearer wrong" })).status).toBe(401);
      expect((await fetch(`${guarded.url}/suggest/type?prefix=c`)).status).toBe(401);
      // The pages the manifest names for people are open like it; the docs name the service's own token.
      const docs = await fetch(`${guarded.url}/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain("COMPANY_DATA_RECONCILE_TOKEN");
      expect((await fetch(`${guarded.url}/logo.svg`)).status).toBe(200);
      expect((await fetch(`${guarded.url}/feature?id=confidence`)).status).toBe(200);
      expect((await post(guarded.url, { queries: q }, { Authorization: `Bearer ${token}` })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe("preview card", () => {
  it("escapes every value: text only", () => {
    const page = previewHtml(
      "DE1234567890",
      {
        id: "DE1234567890",
        name: "<script>alert(1)</script> & Co",
        city: '"Berlin"',
        legalForm: { code: "x", name: "<b>GmbH</b>" },
      },
      "de",
    );
    expect(page).not.toMatch(/<script>|<b>/);
    expect(page).toContain("&#60;script&#62;alert(1)&#60;/script&#62; &#38; Co");
    expect(page).toContain("&#34;Berlin&#34;");
  });
});
