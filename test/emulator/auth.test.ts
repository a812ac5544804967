import { describe, expect, it } from "vitest";
import { caller, makeEmulator, SAP } from "./helpers.ts";

const emu = makeEmulator({ companies: 500 });
const basic = (user: string, pass: string) => "Basic " + Buffer.from(`${user}:${pass}`).toString("base64");

describe("authentication", () => {
  it("401 with a JSON error body on a missing key", () => {
    const r = caller(emu, "")("GET", "/v2/account");
    expect(r.status).toBe(401);
    expect(r.json.error.code).toBe("UNAUTHORIZED");
    expect(r.json.error.message).toMatch(/key/i);
    expect(r.headers["www-authenticate"]).toMatch(/Bearer/);
  });

  it("401 on an unknown key, and on a malformed header", () => {
    expect(caller(emu, "nope")("GET", "/v2/account").status).toBe(401);
    expect(caller(emu, "")("GET", "/v2/account", undefined, { Authorization: emu.demoKey }).status).toBe(401);
  });

  it("Bearer works everywhere", () => {
    expect(caller(emu)("GET", `/companies/${SAP}/data`).status).toBe(200);
    expect(caller(emu)("GET", "/v2/account").status).toBe(200);
  });

  it("Basic is accepted on the older paths (key as user or password), not on v2", () => {
    const call = caller(emu, "");
    expect(call("GET", `/companies/${SAP}/data`, undefined, { Authorization: basic(emu.demoKey, "") }).status).toBe(
      200,
    );
    expect(call("GET", `/companies/${SAP}/data`, undefined, { Authorization: basic("user", emu.demoKey) }).status).toBe(
      200,
    );
    expect(call("GET", `/companies/${SAP}/data`, undefined, { Authorization: basic("user", "wrong") }).status).toBe(
      401,
    );
    expect(call("GET", "/v2/account", undefined, { Authorization: basic(emu.demoKey, "") }).status).toBe(401);
  });

  it("a 401 charges nothing", () => {
    const before = emu.balance(emu.demoKey);
    caller(emu, "bad")("GET", `/v2/companies/${SAP}`);
    expect(emu.balance(emu.demoKey)).toBe(before);
  });

  it("the demo key can be fixed and has a large balance", () => {
    const e = makeEmulator({ companies: 10, demoKey: "my-demo" });
    expect(e.demoKey).toBe("my-demo");
    expect(e.balance("my-demo")).toBeGreaterThanOrEqual(100_000);
  });
});
