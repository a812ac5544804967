import { describe, expect, it } from "vitest";
import { ENDPOINTS, type Endpoint } from "../../shared/api/endpoints.ts";
import { distanceKm } from "../../emulator/search/geo.ts";
import { caller, makeEmulator, SAP, SIEMENS } from "./helpers.ts";

const emu = makeEmulator({ rateLimits: { resolve: { capacity: 1e6 }, suggest: { capacity: 1e6 } } });
const call = caller(emu);

describe("search", () => {
  it("combines free text, filters and a proximity filter in one request", () => {
    const munich = { lat: 48.1351, lon: 11.582 };
    const r = call("POST", "/v2/search", {
      query: "Software",
      size: 20,
      filters: { size: ["MICRO", "SMALL"], active: true },
      near: { ...munich, radiusKm: 30 },
    }).json;
    expect(r.companies.length).toBeGreaterThan(0);
    for (const c of r.companies) {
      expect(["MICRO", "SMALL"]).toContain(c.size.code);
      expect(c.active).toBe(true);
      expect(c.distanceKm).toBeLessThanOrEqual(30);
      expect(Math.abs(distanceKm(munich.lat, munich.lon, c.geo.lat, c.geo.lon) - c.distanceKm)).toBeLessThan(0.05);
    }
  });

  it("matches industry and place words, not only names", () => {
    const r = call("POST", "/v2/search", { query: "Programmierungstätigkeiten Walldorf", size: 5 }).json;
    expect(r.companies[0].id).toBe(SAP);
    const ind = call("POST", "/v2/search", { query: "Güterbeförderung", size: 10 }).json;
    expect(ind.companies.every((c: any) => c.industry.code.startsWith("H"))).toBe(true);
  });

  it("filters by WZ prefix, state and legal form; pages with from", () => {
    const r = call("POST", "/v2/search", {
      query: "",
      size: 10,
      filters: { industry: ["J62"], state: ["DE-BY"], legalForm: ["GmbH"] },
    }).json;
    expect(r.total).toBeGreaterThan(10);
    for (const c of r.companies) {
      expect(c.industry.code.startsWith("J62")).toBe(true);
      expect(c.state).toBe("DE-BY");
      expect(c.legalForm.code).toBe("GMBH");
    }
    const page2 = call("POST", "/v2/search", {
      query: "",
      size: 10,
      from: 10,
      filters: { industry: ["J62"], state: ["DE-BY"], legalForm: ["GmbH"] },
    }).json;
    expect(page2.companies.map((c: any) => c.id)).not.toContain(r.companies[0].id);
  });

  it("geocodes a place or postcode for the proximity filter", () => {
    const r = call("POST", "/v2/search", { query: "", size: 5, near: { place: "10117", radiusKm: 3 } }).json;
    for (const c of r.companies) expect(c.city).toBe("Berlin");
  });
});

describe("resolve", () => {
  it("normalises case, spaces, umlauts and legal-form spellings", () => {
    for (const name of ["siemens  ag", "SIEMENS Aktiengesellschaft", "Siemens"]) {
      const r = call("POST", "/v2/resolve", { name }).json;
      expect(r.status, name).toBe("matched");
      expect(r.match.id).toBe(SIEMENS);
    }
    const bosch = call("POST", "/v2/resolve", { name: "Robert Bosch Gesellschaft mit beschränkter Haftung" }).json;
    expect(bosch.match.id).toBe("DEJTYGTV9Z71");
    const muenchen = emu.world.companies.find(
      (c) => /ü|ö|ä|ß/.test(c.name) && emu.companies.findByName(c.name).length === 1,
    )!;
    const ascii = muenchen.name.replace(/ü/g, "ue").replace(/ö/g, "oe").replace(/ä/g, "ae").replace(/ß/g, "ss");
    expect(call("POST", "/v2/resolve", { name: ascii }).json.match.id).toBe(muenchen.id);
  });

  it("answers ambiguous with candidates for a shared name, and a city disambiguates", () => {
    const dup = emu.companies.duplicateNames(50).find((d) => {
      const cities = d.ids.map((id) => call("GET", `/v2/companies/${id}/availability`) && emu.world.byId(id)!.city);
      return new Set(cities).size === cities.length;
    })!;
    expect(dup).toBeDefined();
    const r = call("POST", "/v2/resolve", { name: dup.name }).json;
    expect(r.status).toBe("ambiguous");
    expect(r.match).toBeNull();
    expect(r.candidates.map((c: any) => c.id).sort()).toEqual([...dup.ids].sort());
    const target = call("GET", `/v2/companies/${dup.ids[1]}`).json;
    const m = call("POST", "/v2/resolve", { name: dup.name, city: target.city }).json;
    expect(m.status).toBe("matched");
    expect(m.match.id).toBe(dup.ids[1]);
  });

  it("uses register numbers as typed by users", () => {
    for (const register of ["HRB 6684 München", "München HRB 6684", "Amtsgericht München, HRB 6684"]) {
      const r = call("POST", "/v2/resolve", { name: "Siemens", register }).json;
      expect(r.match?.id, register).toBe(SIEMENS);
    }
  });

  it("fuzzy names get a lower confidence; nonsense is not_found", () => {
    const exact = call("POST", "/v2/resolve", { name: "Deutsche Bahn AG" }).json;
    const fuzzy = call("POST", "/v2/resolve", { name: "Deutsche Bahn Holding AG" }).json;
    expect(exact.confidence).toBe(1);
    if (fuzzy.status === "matched") expect(fuzzy.confidence).toBeLessThan(exact.confidence);
    expect(call("POST", "/v2/resolve", { name: "Qxwvzk Blorp" }).json.status).toBe("not_found");
  });
});

describe("suggest, similarity, availability", () => {
  it("suggest completes prefixes case- and umlaut-insensitively", () => {
    const r = call("GET", `/v2/suggest/${encodeURIComponent("bayerische mot")}`).json;
    expect(r.suggestions[0].id).toBe("DEQT7YRT0Q25");
    expect(call("GET", "/v2/suggest/zzzzzzzz").json.suggestions).toEqual([]);
  });

  it("peers prefer the same industry and region over unrelated companies", () => {
    const peers = call("GET", `/v2/companies/${SAP}/peers?size=10`).json.companies;
    const sameDivision = peers.filter((c: any) => c.industry.code.startsWith("J62")).length;
    expect(sameDivision).toBeGreaterThanOrEqual(8);
    // Region counts: more peers share SAP's state than the state's share of the industry would give.
    const j62 = emu.world.companies.filter(
      (c) => c.industry >= 0 && emu.world.summary(c, "en").industry.code.startsWith("J62"),
    );
    const baseline = j62.filter((c) => emu.world.summary(c, "en").state === "DE-BW").length / j62.length;
    expect(peers.filter((c: any) => c.state === "DE-BW").length / peers.length).toBeGreaterThan(baseline * 1.5);
  });

  it("the OpenAPI document lists every catalogue endpoint with an example request", () => {
    const doc = call("GET", "/v2/openapi.json").json;
    expect(doc.openapi).toBe("3.1.0");
    for (const e of ENDPOINTS as readonly Endpoint[]) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()];
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op.operationId).toBe(e.id);
      expect(op["x-example-request"].url.startsWith(e.path.split("{")[0])).toBe(true);
      if (e.request) {
        expect(op.requestBody.content["application/json"].example).toBeDefined();
        // The example is valid against the shared request schema.
        expect(e.request.safeParse(op.requestBody.content["application/json"].example).success, e.id).toBe(true);
      }
      expect(op.responses["200"].content["application/json"].schema.type).toBe("object");
    }
  });

  it("every example request of the OpenAPI document succeeds against the emulator", () => {
    const doc = call("GET", "/v2/openapi.json").json;
    for (const [, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const ex = op["x-example-request"];
        const r = call(method.toUpperCase() as any, ex.url, ex.body);
        expect(r.status, `${op.operationId}: ${r.raw}`).toBe(200);
      }
    }
  });
});
