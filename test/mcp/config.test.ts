/** The MCP server's configuration: flags over the environment, loopback by default, every bad value named. */
import { describe, expect, it } from "vitest";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { DEFAULT_BUDGET, DEFAULT_HOST, readConfig } from "../../mcp/config.ts";

const ENV = { COMPANY_DATA_API_KEY: " k1 ", COMPANY_DATA_BASE_URL: "http://127.0.0.1:8787", LANG: "en_GB.UTF-8" };

function refused(argv: string[], env: Record<string, string> = ENV): CompanyDataError {
  try {
    readConfig(argv, env);
  } catch (e) {
    return e as CompanyDataError;
  }
  throw new Error("not refused");
}

describe("readConfig", () => {
  it("stdio with the default budget, the key trimmed, the language from LANG", () => {
    const c = readConfig([], ENV);
    expect(c).toEqual({ apiKey: "k1", baseUrl: "http://127.0.0.1:8787", credential: "apiKey", lang: "en", budget: DEFAULT_BUDGET, http: undefined });
  });

  it("a team server: COMPANY_DATA_SERVER wins, the personal token is sent instead of the key, the URL under the same rule", () => {
    const c = readConfig([], { ...ENV, COMPANY_DATA_SERVER: "https://team.example.com/", COMPANY_DATA_TOKEN: " t1 " });
    expect(c).toMatchObject({ apiKey: "t1", baseUrl: "https://team.example.com", credential: "serverToken" });
    expect(readConfig([], { COMPANY_DATA_SERVER: "http://127.0.0.1:8790" }).apiKey).toBeUndefined();
    const bad = refused([], { ...ENV, COMPANY_DATA_SERVER: "http://team.example.com" });
    expect(bad.details.field).toBe("COMPANY_DATA_SERVER");
    expect(bad.text("en")).toContain("COMPANY_DATA_SERVER");
  });

  it("--http binds to 127.0.0.1 unless --host says otherwise", () => {
    expect(readConfig(["--http", "8790"], ENV).http).toEqual({ port: 8790, host: DEFAULT_HOST });
    expect(readConfig(["--http=0", "--host", "0.0.0.0"], ENV).http).toEqual({ port: 0, host: "0.0.0.0" });
  });

  it("budget: the flag wins over COMPANY_DATA_BUDGET; none is no limit", () => {
    expect(readConfig([], { ...ENV, COMPANY_DATA_BUDGET: "25" }).budget).toBe(25);
    expect(readConfig(["--budget", "7"], { ...ENV, COMPANY_DATA_BUDGET: "25" }).budget).toBe(7);
    expect(readConfig(["--budget", "none"], ENV).budget).toBeNull();
    expect(readConfig(["--budget", "0"], ENV).budget).toBe(0);
  });

  it("a missing key is not a start-up error (the tools answer MISSING_KEY)", () => {
    expect(readConfig([], { LANG: "de_DE" }).apiKey).toBeUndefined();
  });

  it("refuses bad values, naming the flag or variable", () => {
    expect(refused(["--budget", "1.5"]).details.field).toBe("--budget");
    expect(refused([], { ...ENV, COMPANY_DATA_BUDGET: "-3" }).details.field).toBe("COMPANY_DATA_BUDGET");
    expect(refused(["--http", "70000"]).details.field).toBe("--http");
    expect(refused(["--http"]).details.field).toBe("--http");
    expect(refused(["--host", "127.0.0.1"]).details.field).toBe("--host");
    expect(refused(["--lang", "fr"]).details.field).toBe("--lang");
    expect(refused(["--yes"]).text("en")).toMatch(/allowed are --http, --host, --budget, --lang/);
    // The key travels in a header: plain http only to this machine.
    expect(refused([], { ...ENV, COMPANY_DATA_BASE_URL: "http://example.com" }).code).toBe("INVALID_INPUT");
  });
});
