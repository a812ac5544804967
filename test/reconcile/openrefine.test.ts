/**
 * OpenRefine's sequence against `company-data reconcile --http 0` (the CLI
 * as users start it) and the emulator: add the service (GET the manifest),
 * reconcile a column in one batch of 10 (form-encoded POST of `queries`,
 * with the type and a city column as OpenRefine sends them), search for a
 * match by hand (entity suggest), open "Add columns from reconciled values"
 * (property proposals), fetch them (form-encoded POST of `extend`), hover a
 * candidate (preview). Every answer validates against the 0.2 schemas; the
 * credits are the emulator's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCliWorld, type CliWorld } from "../helpers/cli.ts";
import { nth } from "../helpers/indexed.ts";
import { uniqueNames } from "../helpers/names.ts";
import { charged, newKey } from "../mcp/harness.ts";
import { estimateEnrichment } from "../../shared/enrich/estimate.ts";
import { getJson, postJson, startServiceProcess, type ServiceProcess } from "./harness.ts";
import { expectValid } from "./schemas.ts";

let world: CliWorld;
let key: string;
let svc: ServiceProcess;

beforeAll(async () => {
  world = await startCliWorld({ companies: 2000, seed: 31, dirPrefix: "cd-openrefine-" });
  key = await newKey(world.server, 1000);
  svc = await startServiceProcess(world.server, key, ["--lang", "de"]);
});
afterAll(async () => {
  await svc?.stop();
  await world?.server.close();
});

describe("OpenRefine's sequence", () => {
  it("manifest, a batch of 10 queries, suggest, property proposals, extend, preview", async () => {
    const balance = async () => (await charged(world.server, key)).balance;
    const start = await balance();

    // 1. "Add standard service…": the manifest.
    const m = await getJson(svc.url);
    expectValid("manifest", m.body);
    const type = nth(m.body.defaultTypes as { id: string; name: string }[], 0);

    // 2. "Start reconciling": one batch of 10, each with the type and the city column.
    const names = uniqueNames(world.emu, 10, 20);
    const queries = Object.fromEntries(
      names.map((name, i) => {
        const city = world.emu.world.summary(
          world.emu.world.companies.find((c) => c.name === name)!,
          "de",
        ).city;
        return [`q${i}`, { query: name, type: type.id, type_strict: "should", properties: [{ pid: "city", v: city }] }];
      }),
    );
    expectValid("reconciliation-query-batch", queries);
    const r = await postJson(svc.url, { queries: JSON.stringify(queries) });
    expect(r.status).toBe(200);
    expectValid("reconciliation-result-batch", r.body);
    expect(start - (await balance())).toBe(1);
    const ids = names.map((_, i) => {
      const best = r.body[`q${i}`].result[0];
      expect(best.match).toBe(true);
      return best.id as string;
    });

    // 3. "Search for match": entity suggest (free).
    const sUrl = `${m.body.suggest.entity.service_url}${m.body.suggest.entity.service_path}?prefix=${encodeURIComponent(nth(names, 0).slice(0, 6))}`;
    const s = await getJson(sUrl);
    expectValid("suggest-entities-response", s.body);
    expect(s.body.result.map((x: { id: string }) => x.id)).toContain(ids[0]);

    // 4. "Add columns from reconciled values": property proposals, then the extension.
    const pp = await getJson(
      `${m.body.extend.propose_properties.service_url}${m.body.extend.propose_properties.service_path}?type=${type.id}`,
    );
    expectValid("data-extension-property-proposal", pp.body);
    const chosen = ["legalForm", "address", "employees"];
    for (const id of chosen) expect(pp.body.properties.map((p: { id: string }) => p.id)).toContain(id);
    const extendQuery = { ids, properties: chosen.map((id) => ({ id })) };
    expectValid("data-extension-query", extendQuery);
    const before = await balance();
    const e = await postJson(svc.url, { extend: JSON.stringify(extendQuery) });
    expect(e.status).toBe(200);
    expectValid("data-extension-response", e.body);
    expect(e.body.meta.map((x: { name: string }) => x.name)).toEqual(["Rechtsform", "Anschrift", "Mitarbeiter"]);
    expect(before - (await balance())).toBe(
      estimateEnrichment(
        ids.map((id) => [id]),
        { mapping: { id: 0 }, fields: chosen },
      ).credits,
    );

    // 5. Hovering a candidate: the preview, free.
    const atPreview = await balance();
    const page = await (
      await fetch(String(m.body.preview.url).replace("{{id}}", encodeURIComponent(nth(ids, 0))))
    ).text();
    expect(page).toContain(">Rechtsform<");
    expect(await balance()).toBe(atPreview);
    expect(svc.output()).not.toContain(key);
  });
});

describe("first contact in the locale's language", () => {
  it("LANG=C.UTF-8 without --lang: the start-up line and the manifest in English; de_DE: German", async () => {
    const c = await startServiceProcess(world.server, key, [], {
      LANG: "C.UTF-8",
      LC_ALL: "",
      LC_MESSAGES: "",
      LANGUAGE: "",
    });
    try {
      expect(c.output()).toContain("Reconciliation service (Reconciliation API 0.2) at");
      const m = await getJson(c.url);
      expect(m.body.name).toMatch(/^Company data/);
      expect(m.body.defaultTypes[0].name).toBe("Company (German registers)");
    } finally {
      await c.stop();
    }
    const de = await startServiceProcess(world.server, key, [], {
      LANG: "de_DE.UTF-8",
      LC_ALL: "",
      LC_MESSAGES: "",
      LANGUAGE: "",
    });
    try {
      expect((await getJson(de.url)).body.name).toMatch(/^Firmendaten/);
    } finally {
      await de.stop();
    }
  });
});
