import { describe, expect, test } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import * as C from "../../shared/operations/company.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import { nth } from "../helpers/indexed.ts";

const ID = "DEPIYX8Y4M82";
function setup() {
  const api = fakeApi((req, url, body) => {
    const p = url.pathname;
    if (p === "/v2/account") return json(200, { credits: 42 });
    if (p.includes("DEUNKNOWN000")) return json(404, { error: { code: "NOT_FOUND" } });
    if (p.startsWith("/v2/companies/") && p.split("/").length === 4)
      return json(200, { id: p.slice(-12), name: "X", include: url.searchParams.get("include") });
    return json(200, { echo: { path: p, query: Object.fromEntries(url.searchParams), body } });
  });
  const t = testContext(api.now);
  return { api, ...t, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
}
const fieldOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CompanyDataError);
    expect((e as CompanyDataError).code).toBe("INVALID_INPUT");
    return (e as CompanyDataError).details.field;
  }
  return "no error";
};

describe("getProfiles", () => {
  test("per id: data, NOT_FOUND or INVALID_INPUT; bad ids never sent; includes priced and sent in catalogue order", () => {
    const { api, ctx, spent, run } = setup();
    const m = run(C.getProfiles(ctx, [ID, "DEUNKNOWN000", "DE123", " depiyx8y4m82 "], ["financials", "people"]));
    expect((m.get(ID) as any).id).toBe(ID);
    expect((m.get(ID) as any).include).toBeUndefined(); // unknown fields are dropped by the schema
    expect((m.get("DEUNKNOWN000") as CompanyDataError).code).toBe("NOT_FOUND");
    expect((m.get("DE123") as CompanyDataError).details.field).toBe("ids[2]");
    expect((m.get(" depiyx8y4m82 ") as any).id).toBe(ID);
    expect(api.requests.map((r) => r.url)).toEqual([
      `http://api.test/v2/companies/${ID}?include=people%2Cfinancials`,
      "http://api.test/v2/companies/DEUNKNOWN000?include=people%2Cfinancials",
    ]);
    expect(spent).toEqual([{ endpoint: "profile", credits: 6 }]);
  });
  test("bad includes and non-lists are rejected", () => {
    const { ctx, run } = setup();
    expect(fieldOf(() => run(C.getProfiles(ctx, [ID], ["salary" as never])))).toBe("include");
    expect(fieldOf(() => run(C.getProfiles(ctx, ID as never)))).toBe("ids");
  });
});

describe("single-company getters validate and send the right call", () => {
  test("paths, queries, bodies", () => {
    const { api, ctx, run } = setup();
    run(C.getPeople(ctx, ID));
    run(C.getAnnouncements(ctx, ID, "2024-01-31"));
    run(C.getFinancials(ctx, ID));
    run(C.getChanges(ctx, ID, "2024-06-01", 50));
    run(C.getNearby(ctx, ID, 5, 10));
    run(C.getPeers(ctx, ID, 3));
    run(C.getSimilar(ctx, [ID, "DEJK7QV0PK24", ID], 5));
    run(C.getPersonCompanies(ctx, "P0123456789"));
    run(C.getEvents(ctx, ID));
    run(C.getJobs(ctx, ID));
    run(C.search(ctx, { query: "Bäckerei", size: 5, near: { place: "München", radiusKm: 10 } }));
    run(C.suggest(ctx, "Sie", 5));
    const urls = api.requests.map((r) => r.url.replace("http://api.test", ""));
    expect(urls).toEqual([
      `/v2/companies/${ID}/people`,
      `/v2/companies/${ID}/announcements?since=2024-01-31`,
      `/v2/companies/${ID}/financials`,
      `/v2/companies/${ID}/changes?since=2024-06-01&size=50`,
      `/v2/companies/${ID}/nearby?radiusKm=5&size=10`,
      `/v2/companies/${ID}/peers?size=3`,
      "/v2/similar",
      "/v2/people/P0123456789/companies",
      `/companies/${ID}/events`,
      `/companies/${ID}/jobs`,
      "/v2/search",
      "/v2/suggest/Sie?size=5",
    ]);
    expect(JSON.parse(nth(api.requests, 6).body!)).toEqual({ ids: [ID, "DEJK7QV0PK24"], size: 5 });
  });
  test("bad input names the field and sends nothing", () => {
    const { api, ctx, run } = setup();
    expect(fieldOf(() => run(C.getPeople(ctx, "DE12345")))).toBe("id");
    expect(fieldOf(() => run(C.getPeople(ctx, 42 as never)))).toBe("id");
    expect(fieldOf(() => run(C.getChanges(ctx, ID, "2024-02-30")))).toBe("since");
    expect(fieldOf(() => run(C.getChanges(ctx, ID, "yesterday")))).toBe("since");
    expect(fieldOf(() => run(C.getChanges(ctx, ID, undefined as never)))).toBe("since");
    expect(fieldOf(() => run(C.getNearby(ctx, ID, -5)))).toBe("radiusKm");
    expect(fieldOf(() => run(C.getNearby(ctx, ID, 5, -1)))).toBe("size");
    expect(fieldOf(() => run(C.getPeers(ctx, ID, 0)))).toBe("size");
    expect(fieldOf(() => run(C.getPeers(ctx, ID, 101)))).toBe("size");
    expect(fieldOf(() => run(C.getPeers(ctx, ID, 2.5)))).toBe("size");
    expect(fieldOf(() => run(C.getSimilar(ctx, [])))).toBe("ids");
    expect(fieldOf(() => run(C.getSimilar(ctx, Array(21).fill(ID))))).toBe("ids");
    expect(fieldOf(() => run(C.getSimilar(ctx, [ID, "nope"])))).toBe("ids[1]");
    expect(fieldOf(() => run(C.getPersonCompanies(ctx, ID)))).toBe("personId");
    expect(fieldOf(() => run(C.suggest(ctx, "   ")))).toBe("prefix");
    expect(fieldOf(() => run(C.search(ctx, { query: "x", size: 0 })))).toBe("search.size");
    expect(fieldOf(() => run(C.search(ctx, { query: "x", colour: "red" } as never)))).toMatch(/^search/);
    expect(fieldOf(() => run(C.search(ctx, { query: " " })))).toBe("query");
    expect(api.requests).toHaveLength(0);
  });
  test("answers are cached; the account never is", () => {
    const { api, ctx, run } = setup();
    run(C.getPeers(ctx, ID, 3));
    run(C.getPeers(ctx, ID.toLowerCase(), 3));
    expect(run(C.getAccount(ctx)).credits).toBe(42);
    run(C.getAccount(ctx));
    expect(api.requests.map((r) => new URL(r.url).pathname)).toEqual([
      `/v2/companies/${ID}/peers`,
      "/v2/account",
      "/v2/account",
    ]);
  });
  test("errors are thrown as typed errors", () => {
    const { ctx, run } = setup();
    expect(() => run(C.getPeople(ctx, "DEUNKNOWN000"))).toThrow(CompanyDataError);
    const noKey = { ...ctx, client: { ...ctx.client, apiKey: undefined } };
    expect(() => run(C.getAccount(noKey))).toThrow(expect.objectContaining({ code: "MISSING_KEY" }));
  });
});
