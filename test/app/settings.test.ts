import { describe, expect, it } from "vitest";
import { asyncStores, memoryStores, runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import { dispatch, uiCall } from "../../shared/app/dispatch.ts";
import type { AppDeps } from "../../shared/app/protocol.ts";
import { PRODUCTION_BASE_URL } from "../../shared/api/client.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { nth } from "../helpers/indexed.ts";
import { contextFromSettings, loadSettings } from "../../shared/app/settings.ts";

function driver(http: (r: HttpRequest) => HttpResponse = () => ({ status: 500, headers: {}, body: "" })) {
  const stores = memoryStores();
  const sent: HttpRequest[] = [];
  const d: AsyncDriver = {
    http: async (reqs) => reqs.map((r) => (sent.push(r), http(r))),
    sleep: async () => {},
    ...asyncStores(stores),
  };
  return { d, stores, sent };
}
const deps: AppDeps = { host: "test", now: () => 1_700_000_000_000, random: () => 0.5, pacer: new Pacer() };

describe("settings methods", () => {
  it("defaults to production, German, no key", async () => {
    const { d } = driver();
    const s = await runAsync(dispatch(deps, "getSettings", {}), d);
    expect(s).toMatchObject({
      apiKeySet: false,
      apiKeyHint: null,
      baseUrl: PRODUCTION_BASE_URL,
      baseUrlIsProduction: true,
      language: "de",
    });
  });

  it("stores the key under user: and never returns it", async () => {
    const { d, stores } = driver();
    const key = "sk_live_0123456789abcdef";
    const s = await runAsync(
      dispatch(deps, "saveSettings", {
        apiKey: key,
        language: "en",
        formulaDailyBudget: 20,
        cacheHours: 2,
        baseUrl: "http://127.0.0.1:8787/",
      }),
      d,
    );
    expect(JSON.stringify(s)).not.toContain(key);
    expect(JSON.stringify(s)).not.toContain("0123456789");
    expect(s).toMatchObject({
      apiKeySet: true,
      apiKeyHint: "••••cdef",
      language: "en",
      formulaDailyBudget: 20,
      cacheHours: 2,
      baseUrl: "http://127.0.0.1:8787",
    });
    expect(stores.store.get("user:apiKey")).toBe(key);
    for (const k of stores.store.keys()) expect(k.startsWith("user:")).toBe(true);
    // Omitting the key keeps it; an empty key removes it.
    expect((await runAsync(dispatch(deps, "saveSettings", { language: "de" }), d)).apiKeySet).toBe(true);
    expect((await runAsync(dispatch(deps, "saveSettings", { apiKey: "" }), d)).apiKeySet).toBe(false);
  });

  it("rejects bad input naming the field", async () => {
    const { d } = driver();
    const out = JSON.parse(
      await runAsync(uiCall(deps, "saveSettings", JSON.stringify({ baseUrl: "javascript:alert(1)" })), d),
    );
    expect(out).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", field: "baseUrl" } });
    const budget = JSON.parse(
      await runAsync(uiCall(deps, "saveSettings", JSON.stringify({ formulaDailyBudget: -1 })), d),
    );
    expect(budget.error.field).toBe("formulaDailyBudget");
    const unknown = JSON.parse(await runAsync(uiCall(deps, "dropTables", "{}"), d));
    expect(unknown.error).toMatchObject({ code: "INVALID_INPUT", field: "method" });
    const notJson = JSON.parse(await runAsync(uiCall(deps, "getSettings", "{oops"), d));
    expect(notJson.error.code).toBe("INVALID_INPUT");
    expect(notJson.error.message.de).toContain("Ungültige Eingabe");
  });

  it("the match floor (issue 26): 0.8 by default, saved between 0 and 1, carried into every operation's context", async () => {
    const { d, stores } = driver();
    expect((await runAsync(dispatch(deps, "getSettings", {}), d)).matchFloor).toBe(0.8);
    expect((await runAsync(dispatch(deps, "saveSettings", { matchFloor: 0.7 }), d)).matchFloor).toBe(0.7);
    expect(stores.store.get("user:matchFloor")).toBe("0.7");
    const bad = JSON.parse(await runAsync(uiCall(deps, "saveSettings", JSON.stringify({ matchFloor: 1.5 })), d));
    expect(bad.error).toMatchObject({ code: "INVALID_INPUT", field: "matchFloor" });
    const settings = await runAsync(loadSettings(), d);
    expect(contextFromSettings(settings, { now: () => 0, random: () => 0.5, pacer: new Pacer() }).matchFloor).toBe(0.7);
  });

  it("tests the connection with the free account endpoint, key only in the header", async () => {
    const { d, sent } = driver((r) =>
      r.headers.Authorization === "Bearer k-123456789012345"
        ? { status: 200, headers: {}, body: JSON.stringify({ credits: 77, plan: "demo" }) }
        : { status: 401, headers: {}, body: "{}" },
    );
    await runAsync(dispatch(deps, "saveSettings", { apiKey: "k-123456789012345", baseUrl: "https://emu.test" }), d);
    expect(await runAsync(dispatch(deps, "testConnection", {}), d)).toEqual({
      credits: 77,
      plan: "demo",
      baseUrl: "https://emu.test",
      connection: "direct",
      user: null,
    });
    expect(nth(sent, 0).url).toBe("https://emu.test/v2/account");
    expect(nth(sent, 0).url).not.toContain("k-123");
    const bad = JSON.parse(await runAsync(uiCall(deps, "testConnection", JSON.stringify({ apiKey: "wrong" })), d));
    expect(bad.error.code).toBe("INVALID_KEY");
  });

  it("fails with MISSING_KEY before sending when no key is set", async () => {
    const { d, sent } = driver();
    const out = JSON.parse(await runAsync(uiCall(deps, "testConnection", "{}"), d));
    expect(out.error.code).toBe("MISSING_KEY");
    expect(sent).toHaveLength(0);
  });

  it("team server mode: the token goes to the server URL in the header; the key stays saved, neither is returned", async () => {
    const key = "sk_live_0123456789abcdef";
    const token = "cdt_team_9876543210fedcba";
    const { d, sent, stores } = driver((r) =>
      r.headers.Authorization === `Bearer ${token}`
        ? { status: 200, headers: {}, body: JSON.stringify({ credits: 500, plan: "team", user: "ben" }) }
        : { status: 401, headers: {}, body: "{}" },
    );
    await runAsync(dispatch(deps, "saveSettings", { apiKey: key, baseUrl: "https://emu.test" }), d);
    const v = await runAsync(
      dispatch(deps, "saveSettings", {
        connection: "server",
        serverUrl: "https://team.example.com/",
        serverToken: token,
      }),
      d,
    );
    expect(v).toMatchObject({
      connection: "server",
      serverUrl: "https://team.example.com",
      serverTokenSet: true,
      serverTokenHint: "••••dcba",
      apiKeySet: true,
    });
    expect(JSON.stringify(v)).not.toContain(token.slice(0, 12));
    expect(JSON.stringify(v)).not.toContain(key.slice(0, 12));
    expect(stores.store.get("user:serverToken")).toBe(token);
    expect(await runAsync(dispatch(deps, "testConnection", {}), d)).toEqual({
      credits: 500,
      plan: "team",
      baseUrl: "https://team.example.com",
      connection: "server",
      user: "ben",
    });
    expect(nth(sent, 0).url).toBe("https://team.example.com/v2/account");
    expect(nth(sent, 0).headers.Authorization).toBe(`Bearer ${token}`);
    // Every app call goes there too (the account method reads the balance through the session).
    await runAsync(dispatch(deps, "account", {}), d);
    expect(
      sent.every((r) => r.url.startsWith("https://team.example.com/") && r.headers.Authorization === `Bearer ${token}`),
    ).toBe(true);
    // A refused token is named as the token, not as the API key.
    const bad = JSON.parse(
      await runAsync(
        uiCall(deps, "testConnection", JSON.stringify({ connection: "server", serverToken: "revoked" })),
        d,
      ),
    );
    expect(bad.error.code).toBe("INVALID_KEY");
    expect(bad.error.message.en).toContain("personal token");
    expect(bad.error.message.de).toContain("persönliche Token");
    // Back to direct: the key and base URL are still there (this fake knows only the token, so the key is refused as the key).
    await runAsync(dispatch(deps, "saveSettings", { connection: "direct" }), d);
    const direct = JSON.parse(await runAsync(uiCall(deps, "testConnection", "{}"), d));
    expect(direct.error.message.en).toContain("API key");
    expect(sent.at(-1)?.url).toBe("https://emu.test/v2/account");
    expect(sent.at(-1)?.headers.Authorization).toBe(`Bearer ${key}`);
  });

  it("the server URL follows the base-URL rule (https, http to this machine only), and a server without a token is MISSING_KEY naming the token", async () => {
    const { d, sent } = driver();
    const insecure = JSON.parse(
      await runAsync(uiCall(deps, "saveSettings", JSON.stringify({ serverUrl: "http://team.example.com" })), d),
    );
    expect(insecure.error).toMatchObject({ code: "INVALID_INPUT", field: "serverUrl" });
    expect(insecure.error.message.en).toContain("team server address");
    const mode = JSON.parse(await runAsync(uiCall(deps, "saveSettings", JSON.stringify({ connection: "proxy" })), d));
    expect(mode.error).toMatchObject({ code: "INVALID_INPUT", field: "connection" });
    await runAsync(dispatch(deps, "saveSettings", { connection: "server", serverUrl: "http://127.0.0.1:8790" }), d);
    const out = JSON.parse(await runAsync(uiCall(deps, "testConnection", "{}"), d));
    expect(out.error.code).toBe("MISSING_KEY");
    expect(out.error.message.en).toContain("personal token");
    const search = JSON.parse(await runAsync(uiCall(deps, "account", "{}"), d));
    expect(search.error.code).toBe("MISSING_KEY");
    expect(sent).toHaveLength(0);
  });
});
