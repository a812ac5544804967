/** The probe behind Settings › Test connection's CORS message (shared/web/cors-probe.ts); in Chromium: test/browser/excel-cors.test.ts. */
import { describe, expect, it } from "vitest";
import { corsRefusedMessage, probeCors } from "../../shared/web/cors-probe.ts";

describe("probeCors", () => {
  it("an answer to a no-cors request means the service is there (the failure was CORS); no answer means network", async () => {
    const seen: unknown[] = [];
    expect(await probeCors("https://api.test/v2/account", async (url, init) => void seen.push([url, init]))).toBe(
      "cors",
    );
    // No key, no header: a simple request that needs no preflight.
    expect(seen).toEqual([
      ["https://api.test/v2/account", expect.objectContaining({ mode: "no-cors", method: "GET", credentials: "omit" })],
    ]);
    expect(Object.keys((seen[0] as [string, object])[1])).not.toContain("headers");
    expect(
      await probeCors("https://api.test/v2/account", async () => {
        throw new TypeError("Failed to fetch");
      }),
    ).toBe("network");
  });

  it("a probe that hangs counts as no connection after its timeout", async () => {
    const hang = (_u: string, init: { signal?: AbortSignal }) =>
      new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted"))));
    expect(await probeCors("https://api.test/", hang, 20)).toBe("network");
  });

  it("the message names the service, the origin, Excel, and the team server with its README, in German and English", () => {
    const m = corsRefusedMessage("https://api.example.com", "https://addin.example.com", "excel");
    expect(m.de).toContain("aus Excel");
    expect(m.en).toContain("from Excel");
    expect(m.de).toContain("Team-Server");
    expect(m.en).toContain("team server");
    for (const text of [m.de, m.en]) {
      expect(text).toContain("excel-addin/README.md#team-server");
      expect(text).toContain("https://api.example.com");
      expect(text).toContain("https://addin.example.com");
      expect(text).toContain("CORS");
      expect(text).toMatch(/[Pp]roxy/);
    }
  });
});
