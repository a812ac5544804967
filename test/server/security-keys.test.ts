/**
 * Keys that are not identifiers (issue 36, item 8): a reconciliation batch
 * whose queries are keyed `__proto__`, `constructor`, `prototype`,
 * `toString` is answered under every one of those keys, each charged once
 * and none dropped; query parameters so named reach the API's request
 * check as data (a clear 400 naming the parameter, never a 500 or a
 * parameter silently lost). On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueNames } from "../helpers/names.ts";
import { type EmulatorWorld, type InProcessServer, startTeamWorld, type TeamWorld } from "../support/team-server.ts";
import { BACKENDS } from "./backends.ts";

const ODD_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

describe.each(BACKENDS)("keys that are not identifiers ($name)", (backend) => {
  let world: EmulatorWorld;
  let srv: InProcessServer;
  let team: TeamWorld;
  let token: string;

  beforeAll(async () => {
    team = await startTeamWorld(backend.make, { companies: 400, seed: 8 });
    ({ world, srv } = team);
    token = await srv.token("keys-kim");
  }, 90_000);
  afterAll(() => team?.close());

  it("a reconciliation batch keyed __proto__ (and the like) is answered under each key", async () => {
    // Names of their own per backend: the reconciliation service remembers in this process what it has shown.
    const names = uniqueNames(world.emu, ODD_KEYS.length + 1, backend.name === "postgres" ? 80 : 40);
    // Written as text: an object literal with a __proto__ key would set a prototype instead of making a key.
    const entries = [...ODD_KEYS, "q0"].map((k, i) => `${JSON.stringify(k)}:${JSON.stringify({ query: names[i] })}`);
    const queries = `{${entries.join(",")}}`;
    const res = await fetch(`${srv.url}/reconcile`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ queries }).toString(),
    });
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(200);
    const body = JSON.parse(text) as Record<string, { result: { id: string; name: string }[] }>;
    // JSON.parse makes "__proto__" an own key like any other.
    expect(Object.keys(body).sort()).toEqual([...ODD_KEYS, "q0"].sort());
    for (const [i, k] of [...ODD_KEYS, "q0"].entries()) {
      expect(Object.hasOwn(body, k), k).toBe(true);
      expect(Array.isArray(body[k]!.result), k).toBe(true);
      expect(body[k]!.result.length, `${k}: ${names[i]}`).toBeGreaterThan(0);
    }
    expect(Number(res.headers.get("x-credits-spent"))).toBeGreaterThan(0);
  });

  it("query parameters named __proto__ or constructor are data: refused by name, never a 500", async () => {
    for (const name of ["__proto__", "constructor", "toString"]) {
      const res = await fetch(`${srv.url}/v2/suggest/Bau?${encodeURIComponent(name)}=x`, {
        headers: { Authorization: `Bearer ${token}`, "Accept-Language": "en" },
      });
      const body = (await res.json()) as { error?: { code: string; field?: string } };
      expect(res.status, name).toBe(400);
      expect(body.error?.code).toBe("INVALID_INPUT");
      expect(body.error?.field).toBe(name);
    }
  });
});
