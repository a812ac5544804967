import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as http from "node:http";
import { MAX_BATCH } from "../../shared/api/schemas.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { caller, makeEmulator, SAP } from "./helpers.ts";

const emu = makeEmulator({ companies: 500 });
const call = caller(emu);

function expectRejected(r: ReturnType<typeof call>, status: number, field?: string) {
  expect(r.status, r.raw).toBe(status);
  expect(r.json.error.code).toBeTypeOf("string");
  expect(r.json.error.message).toBeTypeOf("string");
  if (field !== undefined) expect(r.json.error.field).toBe(field);
}

describe("bad input: a 4xx naming the field, never charged", () => {
  const cases: [string, () => ReturnType<typeof call>, number, string | undefined][] = [
    ["malformed JSON", () => call("POST", "/v2/search", '{"query": "x",'), 400, "body"],
    ["missing body", () => call("POST", "/v2/search"), 400, "body"],
    ["wrong type", () => call("POST", "/v2/search", { query: 5 }), 400, "query"],
    ["size -1", () => call("POST", "/v2/search", { query: "x", size: -1 }), 400, "size"],
    ["size 10^9", () => call("POST", "/v2/search", { query: "x", size: 1e9 }), 400, "size"],
    ["size 1.5", () => call("POST", "/v2/search", { query: "x", size: 1.5 }), 400, "size"],
    ["query size -1", () => call("GET", `/v2/companies/${SAP}/peers?size=-1`), 400, "size"],
    ["query size 10^9", () => call("GET", `/v2/companies/${SAP}/nearby?size=1000000000`), 400, "size"],
    ["radius 0", () => call("GET", `/v2/companies/${SAP}/nearby?radiusKm=0`), 400, "radiusKm"],
    ["unknown body field", () => call("POST", "/v2/resolve", { name: "x", color: "red" }), 400, "color"],
    [
      "unknown nested field",
      () => call("POST", "/v2/search", { query: "x", filters: { colour: 1 } }),
      400,
      "filters.colour",
    ],
    [
      "batch over the maximum",
      () =>
        call("POST", "/v2/companies/batch/resolve", {
          companies: Array.from({ length: MAX_BATCH + 1 }, () => ({ name: "x" })),
        }),
      400,
      "companies",
    ],
    ["empty batch", () => call("POST", "/v2/companies/batch/resolve", { companies: [] }), 400, "companies"],
    [
      "bad item in batch",
      () => call("POST", "/v2/companies/batch/resolve", { companies: [{ name: "a" }, { name: "" }] }),
      400,
      "companies[1].name",
    ],
    ["unknown id", () => call("GET", "/v2/companies/DEZZZZZZZZZZ"), 404, "id"],
    ["unknown id in a body", () => call("POST", "/v2/similar", { ids: [SAP, "DEZZZZZZZZZZ"] }), 404, "ids[1]"],
    ["malformed id in a body", () => call("POST", "/companies/data", { ids: ["sap"] }), 400, "ids[0]"],
    ["path id of the wrong form", () => call("GET", "/v2/companies/sap-se"), 400, "id"],
    ["lower-case path id", () => call("GET", `/v2/companies/${SAP.toLowerCase()}/people`), 400, "id"],
    ["person id of the wrong form", () => call("GET", "/v2/people/12/companies"), 400, "personId"],
    ["unknown person", () => call("GET", "/v2/people/PAAAAAAAAAA/companies"), 404, "personId"],
    ["unknown query parameter", () => call("GET", `/v2/companies/${SAP}?foo=1`), 400, "foo"],
    ["unknown include", () => call("GET", `/v2/companies/${SAP}?include=people,gossip`), 400, "include"],
    ["bad since", () => call("GET", `/v2/companies/${SAP}/changes?since=yesterday`), 400, "since"],
    [
      "10 MB body in-process",
      () => call("POST", "/v2/search", JSON.stringify({ query: "x".repeat(10 * 1024 * 1024) })),
      413,
      "body",
    ],
    ["unknown path", () => call("GET", "/v2/nothing"), 404, "path"],
    ["wrong method", () => call("GET", "/v2/search"), 405, "method"],
    ["empty suggest prefix", () => call("GET", "/v2/suggest/"), 400, "prefix"],
    [
      "unknown place",
      () => call("POST", "/v2/search", { query: "", near: { place: "Atlantis", radiusKm: 5 } }),
      404,
      "near.place",
    ],
    ["near without a point", () => call("POST", "/v2/search", { query: "", near: { radiusKm: 5 } }), 400, "near.lat"],
  ];
  for (const [name, run, status, field] of cases) {
    it(name, () => {
      const before = emu.ledger(emu.demoKey);
      expectRejected(run(), status, field);
      const after = emu.ledger(emu.demoKey);
      expect(after.total).toBe(before.total);
      expect(after.requests).toEqual(before.requests);
    });
  }
  it("the emulator still answers afterwards", () => {
    expect(call("GET", `/v2/companies/${SAP}`).status).toBe(200);
  });
});

describe("bad input against the real server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(emu, { port: 0 });
  });
  afterAll(() => server.close());

  function post(
    path: string,
    body: Buffer | string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${server.url}${path}`,
        {
          method: "POST",
          headers: { Authorization: `Bearer ${emu.demoKey}`, "Content-Type": "application/json", ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  it("answers 413 to a 10 MB body with Content-Length, and keeps serving", async () => {
    const before = emu.ledger(emu.demoKey).total;
    const r = await post("/v2/search", Buffer.alloc(10 * 1024 * 1024, "a"));
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", field: "body" });
    expect(emu.ledger(emu.demoKey).total).toBe(before);
    const ok = await fetch(`${server.url}/v2/account`, { headers: { Authorization: `Bearer ${emu.demoKey}` } });
    expect(ok.status).toBe(200);
  });

  it("answers 413 to a chunked 10 MB body without a length", async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}/v2/search`,
        { method: "POST", headers: { Authorization: `Bearer ${emu.demoKey}`, "Transfer-Encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on("error", reject);
      const chunk = Buffer.alloc(256 * 1024, "b");
      for (let k = 0; k < 40; k++) req.write(chunk);
      req.end();
    });
    expect(r).toBe(413);
    expect(
      (await fetch(`${server.url}/v2/account`, { headers: { Authorization: `Bearer ${emu.demoKey}` } })).status,
    ).toBe(200);
  });

  it("malformed JSON over the network is a 400 naming the body", async () => {
    const r = await post("/v2/resolve", "{nope");
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.field).toBe("body");
  });
});
