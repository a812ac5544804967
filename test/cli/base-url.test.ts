/** The one base-URL rule (shared/api/base-url.ts), as the CLI and the settings use it. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { checkBaseUrl, isLoopbackHost } from "../../shared/api/base-url.ts";
import { isHttpUrl, normaliseBaseUrl } from "../../shared/app/settings.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { PRODUCTION_BASE_URL } from "../../shared/api/client.ts";

const rejects = (url: string) => {
  try {
    checkBaseUrl(url);
  } catch (e) {
    expect(e).toBeInstanceOf(CompanyDataError);
    expect((e as CompanyDataError).code).toBe("INVALID_INPUT");
    expect((e as CompanyDataError).details.field).toBe("baseUrl");
    return (e as CompanyDataError).text("en");
  }
  throw new Error(`accepted ${url}`);
};

describe("checkBaseUrl", () => {
  it("accepts https anywhere and http only on this machine, normalised", () => {
    expect(checkBaseUrl("https://api.implisense.com")).toBe("https://api.implisense.com");
    expect(checkBaseUrl(" HTTPS://API.Example.com:8443/base// ")).toBe("https://api.example.com:8443/base");
    expect(checkBaseUrl("http://127.0.0.1:8787/")).toBe("http://127.0.0.1:8787");
    expect(checkBaseUrl("http://127.12.0.3")).toBe("http://127.12.0.3");
    expect(checkBaseUrl("http://localhost:3000")).toBe("http://localhost:3000");
    expect(checkBaseUrl("http://[::1]:8080/v")).toBe("http://[::1]:8080/v");
    expect(checkBaseUrl(PRODUCTION_BASE_URL)).toBe(PRODUCTION_BASE_URL);
  });

  it("refuses plain http to another host, other schemes, credentials, query, fragment and broken hosts", () => {
    for (const u of [
      "http://example.com",
      "http://emulator.test",
      "http://10.0.0.1:8787",
      "http://128.0.0.1",
      "http://localhost.evil.com",
      "http://127.0.0.1.nip.io",
      "http://[::2]",
      "HTTP://api.implisense.com",
    ]) {
      expect(rejects(u), u).toMatch(/http:\/\/ only for this machine/);
    }
    expect(rejects("ftp://x")).toMatch(/expected an address/);
    expect(rejects("javascript:alert(1)")).toMatch(/expected an address/);
    expect(rejects("")).toMatch(/expected an address/);
    expect(rejects("https://user:pw@example.com")).toMatch(/user name or password/);
    expect(rejects("http://user@127.0.0.1")).toMatch(/user name or password/);
    expect(rejects("https://example.com/?key=1")).toMatch(/query/);
    expect(rejects("https://example.com#x")).toMatch(/query/);
    expect(rejects("https://exa mple.com")).toMatch(/expected an address/);
    expect(rejects("https://example.com:0")).toMatch(/port/);
    expect(rejects("https://example.com:70000")).toMatch(/port/);
    expect(rejects("https://999.1.1.1")).toMatch(/host/);
    expect(rejects("https://ex_ample.com")).toMatch(/host/);
  });

  it("names the field as the caller knows it and explains in both languages", () => {
    try {
      checkBaseUrl("http://example.com", "COMPANY_DATA_BASE_URL", {
        de: "COMPANY_DATA_BASE_URL",
        en: "COMPANY_DATA_BASE_URL",
      });
      throw new Error("accepted");
    } catch (e) {
      const err = e as CompanyDataError;
      expect(err.text("en")).toMatch(/^Invalid input \(COMPANY_DATA_BASE_URL\): http:\/\/ only for this machine/);
      expect(err.text("de")).toMatch(/^Ungültige Eingabe \(COMPANY_DATA_BASE_URL\): http:\/\/ nur für dieses Gerät/);
    }
  });

  it("never lets http through to a host that is not loopback (any host name or address)", () => {
    const host = fc.oneof(fc.domain(), fc.ipV4(), fc.constantFrom("localhost", "127.0.0.1", "[::1]", "LocalHost"));
    fc.assert(
      fc.property(host, fc.option(fc.integer({ min: 1, max: 65535 })), (h, port) => {
        const url = `http://${h}${port === null ? "" : ":" + port}`;
        let ok = true;
        try {
          checkBaseUrl(url);
        } catch {
          ok = false;
        }
        expect(ok).toBe(isLoopbackHost(h));
        expect(isLoopbackHost(h)).toBe(/^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(h));
      }),
    );
  });

  it("is the settings' rule too: saving or loading an http address of another host fails", () => {
    expect(() => normaliseBaseUrl("http://emulator.test")).toThrow(/only for this machine/);
    expect(normaliseBaseUrl("http://127.0.0.1:8787/")).toBe("http://127.0.0.1:8787");
    expect(normaliseBaseUrl("")).toBe(PRODUCTION_BASE_URL);
    expect(isHttpUrl("http://emulator.test")).toBe(false);
    expect(isHttpUrl("https://emulator.test")).toBe(true);
  });
});
