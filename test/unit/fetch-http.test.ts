import { describe, expect, it } from "vitest";
import type { HttpRequest } from "../../shared/core/http.ts";
import { fetchHttp } from "../../shared/web/fetch-http.ts";

const GET: HttpRequest = { method: "GET", url: "https://x.test/", headers: {} };

describe("fetchHttp (Excel, playground and CLI hosts)", () => {
  it("turns failures into networkError answers, never exceptions", async () => {
    const refused = await fetchHttp(
      async () => {
        throw new TypeError("Failed to fetch");
      },
      GET,
      1000,
    );
    expect(refused).toMatchObject({ status: 0, networkError: "connection" });
    const slow = await fetchHttp(
      (_u, init) =>
        new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted")))),
      GET,
      20,
    );
    expect(slow).toMatchObject({ status: 0, networkError: "timeout" });
    const ok = await fetchHttp(
      async () => ({ status: 200, headers: new Headers({ "Retry-After": "3" }), text: async () => "{}" }),
      GET,
      1000,
    );
    expect(ok).toEqual({ status: 200, headers: { "retry-after": "3" }, body: "{}" });
  });

  it("a runtime's own TimeoutError is a timeout too (as the CLI host always treated it)", async () => {
    const res = await fetchHttp(
      async () => {
        throw new DOMException("timed out", "TimeoutError");
      },
      GET,
      1000,
    );
    expect(res).toEqual({ status: 0, headers: {}, body: "", networkError: "timeout" });
  });

  it("passes method, headers, body and an abort signal to fetch", async () => {
    const seen: unknown[] = [];
    const res = await fetchHttp(
      async (url, init) => {
        seen.push([url, init.method, init.headers, init.body, init.signal instanceof AbortSignal]);
        return { status: 201, headers: new Headers(), text: async () => "ok" };
      },
      { method: "POST", url: "https://x.test/v2/search", headers: { "content-type": "application/json" }, body: "{}" },
      5,
    );
    expect(seen).toEqual([["https://x.test/v2/search", "POST", { "content-type": "application/json" }, "{}", true]]);
    expect(res).toEqual({ status: 201, headers: {}, body: "ok" });
  });
});
