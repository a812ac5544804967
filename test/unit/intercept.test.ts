/**
 * intercept(): the one driver loop of interceptors. It passes effects through
 * `around`, hands results back, and throws a failure (of `around` or of the
 * driver) into the wrapped operation where it yielded, as runSync does.
 */
import { describe, expect, it } from "vitest";
import { memoryStores, runSync, type SyncDriver } from "../../shared/core/drivers.ts";
import { http, intercept, sleep, storeGet, type Effect, type Operation } from "../../shared/core/effects.ts";
import type { HttpRequest } from "../../shared/core/http.ts";

const req = (url: string, credits = 0): HttpRequest => ({
  method: "GET",
  url,
  headers: {},
  price: { endpoint: "x", credits },
});

function driver(sent: string[], fail?: (r: HttpRequest) => boolean): SyncDriver {
  const stores = memoryStores(() => 0);
  stores.store.set("k", "v");
  return {
    ...stores,
    http: (reqs) => {
      if (reqs.some((r) => fail?.(r))) throw new Error("network down");
      sent.push(...reqs.map((r) => r.url));
      return reqs.map((r) => ({ status: 200, headers: {}, body: r.url }));
    },
    sleep: () => undefined,
  };
}

function* op(log: string[]): Operation<string> {
  try {
    const [a] = yield* http([req("http://a", 1)]);
    yield* sleep(5);
    const [v] = yield* storeGet(["k"]);
    const [b] = yield* http([req("http://b", 2)]);
    return `${a.body} ${v} ${b.body}`;
  } catch (e) {
    log.push(`caught ${(e as Error).message}`);
    return "recovered";
  } finally {
    log.push("finally");
  }
}

describe("intercept", () => {
  it("passes every effect through, in order, and the results back", () => {
    const seen: Effect["kind"][] = [];
    const sent: string[] = [];
    const log: string[] = [];
    const out = runSync(
      intercept(op(log), function* (effect) {
        seen.push(effect.kind);
        return yield effect;
      }),
      driver(sent),
    );
    expect(out).toBe("http://a v http://b");
    expect(seen).toEqual(["http", "sleep", "storeGet", "http"]);
    expect(sent).toEqual(["http://a", "http://b"]);
    expect(log).toEqual(["finally"]);
  });

  it("lets the caller answer an effect itself, and run effects of its own around it", () => {
    const sent: string[] = [];
    const out = runSync(
      intercept(op([]), function* (effect) {
        if (effect.kind !== "http") return yield effect;
        const first = effect.requests[0]!;
        if (first.url === "http://b") return [{ status: 200, headers: {}, body: "stubbed" }];
        yield* sleep(1);
        return yield effect;
      }),
      driver(sent),
    );
    expect(out).toBe("http://a v stubbed");
    expect(sent).toEqual(["http://a"]);
  });

  it("throws what the caller throws into the operation where it yielded: nothing is sent, its cleanup runs", () => {
    const sent: string[] = [];
    const log: string[] = [];
    const out = runSync(
      intercept(op(log), function* (effect) {
        if (effect.kind === "http" && effect.requests.some((r) => (r.price?.credits ?? 0) > 1))
          throw new Error("too dear");
        return yield effect;
      }),
      driver(sent),
    );
    expect(out).toBe("recovered");
    expect(sent).toEqual(["http://a"]);
    expect(log).toEqual(["caught too dear", "finally"]);
  });

  it("throws a driver's failure into the operation too", () => {
    const log: string[] = [];
    const out = runSync(
      intercept(op(log), function* (effect) {
        return yield effect;
      }),
      driver([], (r) => r.url === "http://b"),
    );
    expect(out).toBe("recovered");
    expect(log).toEqual(["caught network down", "finally"]);
  });

  it("nests: an outer interceptor sees what the inner one yields", () => {
    const outer: string[] = [];
    const inner = intercept(op([]), function* (effect) {
      if (effect.kind === "http") yield* sleep(7);
      return yield effect;
    });
    runSync(
      intercept(inner, function* (effect) {
        outer.push(effect.kind === "sleep" ? `sleep ${effect.ms}` : effect.kind);
        return yield effect;
      }),
      driver([]),
    );
    expect(outer).toEqual(["sleep 7", "http", "sleep 5", "storeGet", "sleep 7", "http"]);
  });
});
