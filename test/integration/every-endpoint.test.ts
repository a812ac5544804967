/**
 * Issue 3's "the core's integration tests run every endpoint against the
 * emulator": every catalogue endpoint (the 15 of v2 and the 16 of the older
 * listing) called through the core client (callMany) against the in-process
 * emulator with a valid example request. Each answers 2xx, its body parses
 * with the catalogue's response schema, and the credits the emulator took
 * equal endpoint(id).cost(...) for that call, which the client reported too.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { callMany, type CallSpec, type ClientConfig } from "../../shared/api/client.ts";
import { endpoint, ENDPOINTS, type EndpointId } from "../../shared/api/endpoints.ts";
import type { HttpResponse } from "../../shared/core/http.ts";
import reference from "../../emulator/data/reference/companies.json" with { type: "json" };
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import { nth, take } from "../helpers/indexed.ts";

const refs = (reference as { companies: { id: string; name: string; city?: string }[] }).companies;
const A = nth(refs, 0);
const B = nth(refs, 1);

let emu: Emulator;
let clock = Date.UTC(2025, 5, 1, 9);
let person: string;
beforeAll(() => {
  emu = createEmulator({ companies: 2_000, seed: 7, now: () => clock, startDate: "2025-06-01" });
  person = emu.companies.sharedPersonId()!;
});

/** One valid example request per endpoint. */
function example(id: EndpointId): CallSpec {
  const ids = [A.id, B.id];
  switch (id) {
    case "search":
      return { endpoint: id, body: { query: "software", size: 5 } };
    case "resolve":
      return { endpoint: id, body: { name: A.name, ...(A.city ? { city: A.city } : {}) } };
    case "batchResolve":
      return {
        endpoint: id,
        body: { companies: refs.slice(0, 12).map((c) => ({ name: c.name })) },
        cost: { count: 12 },
      };
    case "suggest":
      return { endpoint: id, path: { prefix: A.name.slice(0, 4) }, query: { size: 5 } };
    case "profile":
      return {
        endpoint: id,
        path: { id: A.id },
        query: { include: "people,financials" },
        cost: { include: ["people", "financials"] },
      };
    case "availability":
      return { endpoint: id, path: { id: A.id } };
    case "changes":
      return { endpoint: id, path: { id: A.id }, query: { since: "2020-01-01", size: 10 } };
    case "nearby":
      return { endpoint: id, path: { id: A.id }, query: { radiusKm: 25, size: 5 } };
    case "people":
      return { endpoint: id, path: { id: A.id } };
    case "announcements":
      return { endpoint: id, path: { id: A.id }, query: { since: "2015-01-01", size: 5 } };
    case "financials":
      return { endpoint: id, path: { id: A.id } };
    case "peers":
      return { endpoint: id, path: { id: A.id }, query: { size: 5 } };
    case "similar":
      return { endpoint: id, body: { ids, size: 5 } };
    case "personCompanies":
      return { endpoint: id, path: { personId: person } };
    case "account":
      return { endpoint: id };
    case "v1.data":
      return { endpoint: id, path: { id: A.id } };
    case "v1.dataMany":
      return { endpoint: id, body: { ids }, cost: { count: ids.length } };
    case "v1.people":
      return { endpoint: id, path: { id: A.id } };
    case "v1.peopleMany":
      return { endpoint: id, body: { ids }, cost: { count: ids.length } };
    case "v1.events":
      return { endpoint: id, path: { id: A.id }, query: { size: 5 } };
    case "v1.eventsMany":
      return { endpoint: id, body: { ids }, cost: { count: ids.length } };
    case "v1.jobs":
      return { endpoint: id, path: { id: A.id }, query: { size: 5 } };
    case "v1.jobsMany":
      return { endpoint: id, body: { ids }, cost: { count: ids.length } };
    case "v1.financials":
      return { endpoint: id, path: { id: A.id } };
    case "v1.financialsMany":
      return { endpoint: id, body: { ids }, cost: { count: ids.length } };
    case "v1.lookup":
      return { endpoint: id, body: { name: A.name } };
    case "v1.financialsExists":
      return { endpoint: id, path: { id: A.id } };
    case "v1.financialsExistsMany":
      return { endpoint: id, body: { ids } };
    case "v1.search":
      return { endpoint: id, body: { query: "software", size: 5 } };
    case "v1.suggest":
      return { endpoint: id, path: { prefix: A.name.slice(0, 4) }, query: { size: 5 } };
    case "v1.recommend":
      return { endpoint: id, body: { baseCompanies: ids }, query: { size: 5 } };
  }
}

function harness() {
  const key = emu.createKey(10_000);
  const answers: HttpResponse[] = [];
  // The driver sees the emulator through this wrapper, so the test sees each raw answer.
  const spy = {
    handle: (req: Parameters<Emulator["handle"]>[0]) => {
      const r = emu.handle(req);
      answers.push(r);
      return r;
    },
  } as Emulator;
  const d = emulatorDrivers(spy, {
    now: () => clock,
    onSleep: (ms) => {
      clock += ms;
    },
  });
  const reported: number[] = [];
  const cfg: ClientConfig = {
    apiKey: key,
    baseUrl: "http://127.0.0.1:1",
    language: "en",
    now: () => clock,
    random: () => 0.5,
    onSpend: (_e, c) => reported.push(c),
  };
  return { key, answers, reported, cfg, d };
}

describe("every catalogue endpoint through the core client against the emulator", () => {
  test("the catalogue has the 31 endpoints of spec 4.1 and 4.2", () => {
    expect(ENDPOINTS.filter((e) => e.version === "v2")).toHaveLength(15);
    expect(ENDPOINTS.filter((e) => e.version === "v1")).toHaveLength(16);
  });

  test.each(ENDPOINTS.map((e) => e.id))("%s: 2xx, schema-valid body, charge = endpoint(id).cost(...)", (id) => {
    const h = harness();
    const spec = example(id);
    const expected = endpoint(id).cost(spec.cost);
    const before = emu.balance(h.key);
    const [r] = take(runSync(callMany(h.cfg, [spec]), h.d.sync), 1);
    expect(r.ok, r.ok ? "" : `${r.error.code} ${r.error.text("en")} ${h.answers.at(-1)?.body?.slice(0, 300)}`).toBe(
      true,
    );
    if (!r.ok) return;
    // Exactly one request, answered 2xx, with the catalogue's method and path.
    expect(h.answers).toHaveLength(1);
    expect(nth(h.answers, 0).status).toBeGreaterThanOrEqual(200);
    expect(nth(h.answers, 0).status).toBeLessThan(300);
    expect(nth(h.d.requests, 0).method).toBe(endpoint(id).method);
    // The raw body is valid against the catalogue's response schema, not just what the client kept.
    const parsed = endpoint(id).response.safeParse(JSON.parse(nth(h.answers, 0).body ?? ""));
    expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 2))).toBe(true);
    expect(r.data).toEqual(parsed.data);
    // What the emulator charged equals the price table, and what the client reported.
    const charged = before - emu.balance(h.key);
    expect(charged).toBe(expected);
    expect(r.credits).toBe(expected);
    expect(h.reported).toEqual([expected]);
    expect(nth(h.answers, 0).headers["x-credits-charged"]).toBe(String(expected));
  });

  test("the paid examples exercise the price rules: includes, ceil(n/10), per company", () => {
    expect(endpoint("profile").cost(example("profile").cost)).toBe(1 + 1 + 4);
    expect(endpoint("batchResolve").cost(example("batchResolve").cost)).toBe(2);
    expect(endpoint("v1.financialsMany").cost(example("v1.financialsMany").cost)).toBe(8);
    const free = ENDPOINTS.filter((e) => e.billing === "rate-limited").map((e) => e.id);
    for (const id of free) expect(endpoint(id).cost(example(id).cost)).toBe(0);
  });
});
