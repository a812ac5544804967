/**
 * Issue 28, the emulator's part: control endpoints closed to other sites,
 * a register parser that is linear, and a length limit on every field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as http from "node:http";
import { startServer, type RunningServer } from "../../emulator/server.ts";
import { parseRegister } from "../../emulator/search/normalize.ts";
import { MAX_FIELD_CHARS } from "../../emulator/validate.ts";
import { caller, makeEmulator } from "./helpers.ts";

const emu = makeEmulator({ companies: 500 });
let server: RunningServer;
beforeAll(async () => {
  server = await startServer(emu, { port: 0 });
});
afterAll(() => server.close());

/** A raw request with the headers given as they are (fetch does not let a caller set Host). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: server.port, method, path, headers, setHost: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("control endpoints refuse what a foreign web page can send", () => {
  const key = emu.demoKey;
  const balance = () => emu.balance(key);
  const body = JSON.stringify({ key, credits: 7 });

  it("a form-like POST (text/plain, no preflight) changes nothing", async () => {
    const before = balance();
    const r = await raw(
      "POST",
      "/_emulator/balance",
      { Host: `127.0.0.1:${server.port}`, "Content-Type": "text/plain" },
      body,
    );
    expect(r.status).toBe(403);
    expect(r.body).toMatch(/application\/json/);
    const form = await raw(
      "POST",
      "/_emulator/balance",
      { Host: `localhost:${server.port}`, "Content-Type": "application/x-www-form-urlencoded" },
      body,
    );
    expect(form.status).toBe(403);
    const none = await raw("POST", "/_emulator/faults/reset", { Host: `localhost:${server.port}` });
    expect(none.status).toBe(403);
    expect(balance()).toBe(before);
  });

  it("a foreign Host (DNS rebinding) is refused, even with JSON, and for reads", async () => {
    const before = balance();
    const r = await raw(
      "POST",
      "/_emulator/balance",
      { Host: `evil.example:${server.port}`, "Content-Type": "application/json" },
      body,
    );
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).error.message).toMatch(/localhost, 127\.0\.0\.1/);
    expect((await raw("GET", `/_emulator/usage?key=${key}`, { Host: "attacker.test" })).status).toBe(403);
    // No Host at all: node:http itself answers 400 for HTTP/1.1 (requireHostHeader).
    expect([400, 403]).toContain((await raw("GET", "/_emulator/health", {})).status);
    expect(balance()).toBe(before);
  });

  it("JSON from a loopback Host works (localhost, 127.0.0.1, [::1]); the API itself is not affected", async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `[::1]:${server.port}`, "localhost"]) {
      const r = await raw(
        "POST",
        "/_emulator/balance",
        { Host: host, "Content-Type": "application/json; charset=utf-8" },
        JSON.stringify({ key, credits: 55 }),
      );
      expect(r.status, host).toBe(200);
    }
    expect(balance()).toBe(55);
    const api = await raw("GET", "/v2/account", { Host: "anything.example", Authorization: `Bearer ${key}` });
    expect(api.status).toBe(200);
  });
});

describe("register text and field lengths", () => {
  it("parses a register number in linear time: 200,000 blanks after HRB in well under a second", () => {
    // Before: the pattern split a run of blanks between two \s* in every way; 60,000 blanks took 6.3 s, this would take minutes.
    const t = performance.now();
    expect(parseRegister("HRB" + " ".repeat(200_000) + "x")).toBeNull();
    expect(parseRegister("Amtsgericht München HRB  -  6684 B")).toEqual({
      type: "HRB",
      number: "6684",
      court: "muenchen",
    });
    expect(performance.now() - t).toBeLessThan(1000);
  });

  it("a field longer than the limit is a 400 naming the field (body and query), in the free lookup too", () => {
    const call = caller(emu);
    const long = "HRB" + " ".repeat(60_000);
    const r = call("POST", "/lookup", { register: long });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/register: at most 1,?000 characters/);
    const nested = call("POST", "/v2/companies/batch/resolve", {
      companies: [{ name: "x".repeat(MAX_FIELD_CHARS + 1) }],
    });
    expect(nested.status).toBe(400);
    expect(nested.json.error.message).toMatch(/companies\[0\]\.name/);
    const q = call("GET", `/v2/companies/search?q=${"a".repeat(MAX_FIELD_CHARS + 1)}`);
    expect(q.status).toBe(400);
    expect(call("POST", "/lookup", { register: "HRB 6684 München" }).status).toBe(200);
  });
});
