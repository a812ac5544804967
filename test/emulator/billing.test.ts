import { describe, expect, it } from "vitest";
import { endpoint } from "../../shared/api/endpoints.ts";
import { caller, makeEmulator, ROOMY_RATE_LIMITS, SAP, SIEMENS } from "./helpers.ts";

const emu = makeEmulator({ rateLimits: ROOMY_RATE_LIMITS });

/** Spec section 8.1, written out literally so a wrong catalogue price fails here too. */
const SPEC_PRICES: [string, "GET" | "POST", string, unknown, number][] = [
  ["resolve", "POST", "/v2/resolve", { name: "SAP SE" }, 0],
  ["suggest", "GET", "/v2/suggest/Sie", undefined, 0],
  ["availability", "GET", `/v2/companies/${SAP}/availability`, undefined, 0],
  ["account", "GET", "/v2/account", undefined, 0],
  ["search", "POST", "/v2/search", { query: "Bau", size: 5 }, 1],
  ["profile", "GET", `/v2/companies/${SAP}`, undefined, 1],
  ["changes", "GET", `/v2/companies/${SAP}/changes`, undefined, 1],
  ["nearby", "GET", `/v2/companies/${SAP}/nearby`, undefined, 1],
  ["people", "GET", `/v2/companies/${SAP}/people`, undefined, 1],
  ["announcements", "GET", `/v2/companies/${SAP}/announcements`, undefined, 1],
  ["peers", "GET", `/v2/companies/${SAP}/peers`, undefined, 2],
  ["similar", "POST", "/v2/similar", { ids: [SAP] }, 2],
  ["personCompanies", "GET", "PERSON", undefined, 2],
  ["financials", "GET", `/v2/companies/${SAP}/financials`, undefined, 4],
];

describe("credits (spec section 8)", () => {
  it("charges exactly the spec's price for each endpoint, equal to the catalogue's cost()", () => {
    const pid = emu.companies.sharedPersonId()!;
    for (const [id, method, url0, body, price] of SPEC_PRICES) {
      const key = emu.createKey(100);
      const call = caller(emu, key);
      const url = url0 === "PERSON" ? `/v2/people/${pid}/companies` : url0;
      const r = call(method, url, body);
      expect(r.status, `${id}: ${r.raw}`).toBe(200);
      expect(100 - emu.balance(key), id).toBe(price);
      expect(endpoint(id as any).cost(), id).toBe(price);
      expect(r.headers["x-credits-charged"]).toBe(String(price));
      expect(emu.ledger(key).credits[id]).toBe(price);
      expect(emu.ledger(key).requests[id]).toBe(1);
    }
  });

  it("profile costs 1 plus each include (people +1, announcements +1, financials +4; all three = 7)", () => {
    const cases: [string, number][] = [
      ["", 1],
      ["people", 2],
      ["announcements", 2],
      ["financials", 5],
      ["people,financials", 6],
      ["people,announcements,financials", 7],
      ["people,people", 2],
    ];
    for (const [inc, price] of cases) {
      const key = emu.createKey(100);
      const r = caller(emu, key)("GET", `/v2/companies/${SIEMENS}${inc ? `?include=${inc}` : ""}`);
      expect(r.status).toBe(200);
      expect(100 - emu.balance(key), inc).toBe(price);
      expect(endpoint("profile").cost({ include: inc ? (inc.split(",") as any) : [] })).toBe(price);
    }
  });

  it("batch resolve costs ceil(n/10)", () => {
    for (const n of [1, 9, 10, 11, 55, 100]) {
      const key = emu.createKey(100);
      const companies = Array.from({ length: n }, (_, k) => ({ name: `Firma ${k} GmbH` }));
      expect(caller(emu, key)("POST", "/v2/companies/batch/resolve", { companies }).status).toBe(200);
      expect(100 - emu.balance(key), `n=${n}`).toBe(Math.ceil(n / 10));
      expect(endpoint("batchResolve").cost({ count: n })).toBe(Math.ceil(n / 10));
    }
  });

  it("older many-company forms charge per distinct company, as catalogued", () => {
    const key = emu.createKey(100);
    const call = caller(emu, key);
    expect(call("POST", "/companies/financials", { ids: [SAP, SIEMENS, SAP] }).status).toBe(200);
    expect(100 - emu.balance(key)).toBe(endpoint("v1.financialsMany").cost({ count: 2 }));
    expect(100 - emu.balance(key)).toBe(8);
  });

  it("a new key starts with 100 credits (POST /_emulator/keys)", () => {
    const r = caller(emu, "")("POST", "/_emulator/keys");
    expect(r.status).toBe(201);
    expect(r.json.credits).toBe(100);
    const acc = caller(emu, r.json.key)("GET", "/v2/account");
    expect(acc.json.credits).toBe(100);
    expect(emu.createKey()).not.toBe(r.json.key);
    expect(emu.balance(emu.createKey())).toBe(100);
  });

  it("answers 402 and charges nothing when the balance cannot cover the call", () => {
    const key = emu.createKey(3);
    const call = caller(emu, key);
    const r = call("GET", `/v2/companies/${SAP}/financials`);
    expect(r.status).toBe(402);
    expect(r.json.error.code).toBe("INSUFFICIENT_CREDITS");
    expect(emu.balance(key)).toBe(3);
    expect(emu.ledger(key).total).toBe(0);
    // A cheaper call still works, and free calls work at zero balance.
    expect(call("GET", `/v2/companies/${SAP}/people`).status).toBe(200);
    expect(call("GET", `/v2/companies/${SAP}/people`).status).toBe(200);
    expect(call("GET", `/v2/companies/${SAP}/people`).status).toBe(200);
    expect(emu.balance(key)).toBe(0);
    expect(call("GET", `/v2/companies/${SAP}`).status).toBe(402);
    expect(call("POST", "/v2/resolve", { name: "SAP SE" }).status).toBe(200);
    expect(call("GET", "/v2/account").json.credits).toBe(0);
  });

  it("GET /v2/account reports usage so far", () => {
    const key = emu.createKey(100);
    const call = caller(emu, key);
    call("POST", "/v2/search", { query: "Bau" });
    call("GET", `/v2/companies/${SAP}?include=financials`);
    const acc = call("GET", "/v2/account").json;
    expect(acc.credits).toBe(94);
    expect(acc.usage.total).toBe(6);
    expect(acc.usage.today).toBe(6);
    expect(acc.usage.byEndpoint).toMatchObject({ search: 1, profile: 5 });
  });

  it("POST /_emulator/balance sets a balance", () => {
    const key = emu.createKey();
    expect(caller(emu, "")("POST", "/_emulator/balance", { key, credits: 7 }).status).toBe(200);
    expect(emu.balance(key)).toBe(7);
    expect(caller(emu, "")("POST", "/_emulator/balance", { key: "nope", credits: 7 }).status).toBe(404);
  });
});
