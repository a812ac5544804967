/** The MCP server's configuration: flags over the environment, loopback by default, every bad value named. */
import { describe, expect, it } from "vitest";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { DEFAULT_BUDGET, DEFAULT_HOST } from "../../node/index.ts";
import { readConfig } from "../../mcp/config.ts";
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_SECONDS } from "../../node/host-settings.ts";

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
    expect(c).toEqual({
      apiKey: "k1",
      baseUrl: "http://127.0.0.1:8787",
      credential: "apiKey",
      lang: "en",
      budget: DEFAULT_BUDGET,
      http: undefined,
      matchFloor: 0.8,
    });
  });

  it("a team server: COMPANY_DATA_SERVER wins, the personal token is sent instead of the key, the URL under the same rule", () => {
    const c = readConfig([], { ...ENV, COMPANY_DATA_SERVER: "https://team.example.com/", COMPANY_DATA_TOKEN: " t1 " });
    expect(c).toMatchObject({ apiKey: "t1", baseUrl: "https://team.example.com", credential: "serverToken" });
    expect(readConfig([], { COMPANY_DATA_SERVER: "http://127.0.0.1:8790" }).apiKey).toBeUndefined();
    const bad = refused([], { ...ENV, COMPANY_DATA_SERVER: "http://team.example.com" });
    expect(bad.details.field).toBe("COMPANY_DATA_SERVER");
    expect(bad.text("en")).toContain("COMPANY_DATA_SERVER");
  });

  it("the match floor from COMPANY_DATA_MIN_CONFIDENCE (issue 26); a bad one is refused naming the variable", () => {
    expect(readConfig([], { ...ENV, COMPANY_DATA_MIN_CONFIDENCE: "0,65" }).matchFloor).toBe(0.65);
    expect(() => readConfig([], { ...ENV, COMPANY_DATA_MIN_CONFIDENCE: "2" })).toThrow(/COMPANY_DATA_MIN_CONFIDENCE/);
  });

  const TOKEN = "t0k3n-0123456789abcdef";
  const DEFAULTS = {
    maxSessions: DEFAULT_MAX_SESSIONS,
    idleSeconds: DEFAULT_SESSION_IDLE_SECONDS,
    allowedOrigins: [],
    token: undefined,
  };

  it("--http binds to 127.0.0.1 unless --host says otherwise; session limits and origins by flag", () => {
    expect(readConfig(["--http", "8790"], ENV).http).toEqual({ port: 8790, host: DEFAULT_HOST, ...DEFAULTS });
    expect(
      readConfig(["--http=0", "--host", "0.0.0.0"], { ...ENV, COMPANY_DATA_MCP_TOKEN: ` ${TOKEN} ` }).http,
    ).toEqual({ port: 0, host: "0.0.0.0", ...DEFAULTS, token: TOKEN });
    expect(
      readConfig(
        [
          "--http",
          "0",
          "--max-sessions",
          "5",
          "--session-idle",
          "60",
          "--allow-origin",
          "https://team.example, http://intranet:8080",
        ],
        ENV,
      ).http,
    ).toMatchObject({
      maxSessions: 5,
      idleSeconds: 60,
      allowedOrigins: ["https://team.example", "http://intranet:8080"],
    });
  });

  it("a server beyond loopback without a token is refused, saying how to give one; the token is never in the message", () => {
    const e = refused(["--http", "0", "--host", "0.0.0.0"]);
    expect(e.details.field).toBe("--host");
    expect(e.text("en")).toMatch(/set COMPANY_DATA_MCP_TOKEN .*Authorization: Bearer.*or listen on 127\.0\.0\.1/);
    expect(e.text("de")).toMatch(/COMPANY_DATA_MCP_TOKEN setzen/);
    expect(
      refused(["--http", "0", "--host", "0.0.0.0"], { ...ENV, COMPANY_DATA_MCP_TOKEN: "short" }).details.field,
    ).toBe("COMPANY_DATA_MCP_TOKEN");
    expect(
      refused(["--http", "0", "--host", "0.0.0.0"], { ...ENV, COMPANY_DATA_MCP_TOKEN: "xyz987" }).text("en"),
    ).not.toContain("xyz987");
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
    expect(refused(["--yes"]).text("en")).toMatch(
      /allowed are --http, --budget, --lang, --host, --max-sessions, --session-idle, --allow-origin/,
    );
    expect(refused(["--max-sessions", "5"]).details.field).toBe("--max-sessions");
    expect(refused(["--http", "0", "--max-sessions", "0"]).details.field).toBe("--max-sessions");
    expect(refused(["--http", "0", "--session-idle", "x"]).details.field).toBe("--session-idle");
    expect(refused(["--http", "0", "--allow-origin", "https://team.example/path"]).details.field).toBe(
      "--allow-origin",
    );
    // The key travels in a header: plain http only to this machine.
    expect(refused([], { ...ENV, COMPANY_DATA_BASE_URL: "http://example.com" }).code).toBe("INVALID_INPUT");
  });
});
