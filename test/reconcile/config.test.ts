/** The reconciliation service's configuration: loopback by default, a token required beyond it, every bad value named. */
import { describe, expect, it } from "vitest";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { DEFAULT_BUDGET } from "../../node/index.ts";
import { DEFAULT_ORIGINS, readConfig } from "../../reconcile/config.ts";

const ENV = { COMPANY_DATA_API_KEY: " k1 ", COMPANY_DATA_BASE_URL: "http://127.0.0.1:8787", LANG: "en_GB.UTF-8" };
const TOKEN = "a-token-of-enough-length-1234";

/** The error readConfig throws for these arguments (the test fails if it throws none). */
const refused = (argv: string[], env: Record<string, string> = ENV): CompanyDataError => {
  let error: unknown = null;
  try {
    readConfig(argv, env);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(CompanyDataError);
  return error as CompanyDataError;
};

describe("reconcile readConfig", () => {
  it("loopback, the MCP server's default budget, OpenRefine's origin allowed", () => {
    expect(readConfig(["--http", "8791"], ENV)).toEqual({
      apiKey: "k1",
      baseUrl: "http://127.0.0.1:8787",
      credential: "apiKey",
      lang: "en",
      budget: DEFAULT_BUDGET,
      port: 8791,
      host: "127.0.0.1",
      token: undefined,
      allowedOrigins: DEFAULT_ORIGINS,
      matchFloor: 0.8,
    });
    expect(
      readConfig(["--http=0", "--budget", "none", "--allow-origin", "https://refine.example.org/x"], ENV),
    ).toMatchObject({ port: 0, budget: null, allowedOrigins: [...DEFAULT_ORIGINS, "https://refine.example.org"] });
  });

  it("a team server as every command reaches it: COMPANY_DATA_SERVER and the personal token COMPANY_DATA_TOKEN, the server's budgets only", () => {
    const team = { LANG: "C.UTF-8", COMPANY_DATA_SERVER: "https://team.example.com/", COMPANY_DATA_TOKEN: " cdt_t " };
    expect(readConfig(["--http", "8791"], team)).toMatchObject({
      apiKey: "cdt_t",
      baseUrl: "https://team.example.com",
      credential: "serverToken",
      budget: null,
      lang: "en",
    });
    expect(readConfig(["--http", "8791", "--budget", "20"], team).budget).toBe(20);
  });

  it("the match floor from COMPANY_DATA_MIN_CONFIDENCE, as the CLI and MCP read it; a bad one names the variable", () => {
    expect(readConfig(["--http", "0"], { ...ENV, COMPANY_DATA_MIN_CONFIDENCE: "0,9" }).matchFloor).toBe(0.9);
    expect(refused(["--http", "0"], { ...ENV, COMPANY_DATA_MIN_CONFIDENCE: "1.5" }).details.field).toBe(
      "COMPANY_DATA_MIN_CONFIDENCE",
    );
  });

  it("--http is required; bad values name their flag", () => {
    expect(refused([]).details.field).toBe("--http");
    expect(refused(["--http", "70000"]).details.field).toBe("--http");
    expect(refused(["--http", "0", "--budget", "-1"]).details.field).toBe("--budget");
    expect(refused(["--http", "0", "--allow-origin", "ftp://x"]).details.field).toBe("--allow-origin");
    expect(refused(["--http", "0", "--stdio"]).details.field).toBe("reconcile");
  });

  it("beyond loopback only with a token of at least 24 characters, from the environment", () => {
    const e = refused(["--http", "0", "--host", "0.0.0.0"]);
    expect(e.details.field).toBe("--host");
    expect(e.text("en")).toMatch(/COMPANY_DATA_RECONCILE_TOKEN/);
    expect(
      refused(["--http", "0", "--host", "0.0.0.0"], { ...ENV, COMPANY_DATA_RECONCILE_TOKEN: "short" }).text("en"),
    ).not.toContain("short");
    expect(
      readConfig(["--http", "0", "--host", "0.0.0.0"], { ...ENV, COMPANY_DATA_RECONCILE_TOKEN: TOKEN }),
    ).toMatchObject({ host: "0.0.0.0", token: TOKEN });
  });
});
