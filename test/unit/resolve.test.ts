import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { runSync, runAsync } from "../../shared/core/drivers.ts";
import { FREE_WAVE, resolveMany, resolveOne } from "../../shared/operations/resolve.ts";
import { estimate } from "../../shared/app/estimate.ts";
import { dedupe } from "../../shared/batch/plan.ts";
import { normaliseName } from "../../shared/batch/normalise.ts";
import type { ResolveQuery } from "../../shared/api/schemas.ts";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import { nth } from "../helpers/indexed.ts";

/** A fake service: names starting with "Zz" are unknown, "Multi" ambiguous, the rest matched with an id from the name. */
function answer(q: { name: string; ref?: string }) {
  const id = ("DE" + q.name.toUpperCase().replace(/[^A-Z0-9]/g, "") + "0000000000").slice(0, 12);
  if (q.name.startsWith("Zz")) return { ref: q.ref, status: "not_found", match: null, candidates: [] };
  if (q.name.startsWith("Multi"))
    return {
      ref: q.ref,
      status: "ambiguous",
      match: { id, name: q.name },
      confidence: 0.4,
      candidates: [{ id: "DEMULTI00001" }, { id: "DEMULTI00002" }],
    };
  return { ref: q.ref, status: "matched", match: { id, name: q.name }, confidence: 0.95, candidates: [] };
}
function setup(opts: { shuffle?: boolean; failBatch?: number } = {}) {
  let batchNo = 0;
  const api = fakeApi((_r, url, body: any) => {
    if (url.pathname === "/v2/companies/batch/resolve") {
      if (++batchNo === opts.failBatch) return json(402, {});
      const results = body.companies.map(answer);
      return json(200, { results: opts.shuffle ? results.reverse() : results });
    }
    if (url.pathname === "/v2/resolve") return json(200, answer(body));
    return json(500, {});
  });
  const t = testContext(api.now, { maxBatch: 20 });
  return { api, ...t, run: <T>(op: Generator<any, T, any>) => runSync(op, api.sync) };
}
const credits = (spent: { credits: number }[]) => spent.reduce((s, x) => s + x.credits, 0);

describe("resolveMany", () => {
  test("one result per row, in order, with status, match, confidence, candidates", () => {
    const { run } = setup();
    const rows = run(
      resolveMany(setup().ctx, [{ name: "Siemens AG" }, { name: "Zzz GmbH" }, { name: "Multi AG" }, { name: "" }]),
    );
    expect(rows.map((r) => r.status)).toEqual(["matched", "not_found", "ambiguous", "error"]);
    expect(rows[0]).toMatchObject({ match: { id: "DESIEMENSAG0" }, confidence: 0.95 });
    expect(nth(rows, 2).match).toBeNull(); // ambiguous is never guessed
    expect(nth(rows, 2).candidates).toHaveLength(2);
    expect(nth(rows, 3).error?.code).toBe("INVALID_INPUT");
    expect(nth(rows, 3).error?.details.field).toBe("rows[3].name");
  });
  test("duplicates by normalised name are asked once; the same name written differently is free the second time", () => {
    const { api, ctx, spent, run } = setup();
    run(resolveMany(ctx, [{ name: "Siemens AG" }, { name: "SIEMENS  Aktiengesellschaft" }, { name: "siemens ag" }]));
    const sent = JSON.parse(nth(api.requests, 0).body!).companies;
    expect(sent).toEqual([{ name: "Siemens AG", ref: "0" }]);
    const again = run(resolveMany(ctx, [{ name: "Siemens Aktiengesellschaft" }], { mode: "free" }));
    expect(nth(again, 0).status).toBe("matched");
    expect(api.requests).toHaveLength(1);
    expect(credits(spent)).toBe(1);
  });
  test("batch mode: chunks of ctx.maxBatch, cost ceil(n/10) per call, equal to the estimate", () => {
    const { api, ctx, spent, run } = setup();
    const rows = Array.from({ length: 45 }, (_, i) => ({ name: `Firma ${i} GmbH` }));
    const out = run(resolveMany(ctx, rows));
    expect(out.every((r) => r.status === "matched")).toBe(true);
    expect(api.requests.map((r) => JSON.parse(r.body!).companies.length)).toEqual([20, 20, 5]);
    expect(credits(spent)).toBe(5);
    expect(estimate({ kind: "resolve", rows: 45, mode: "batch", maxBatch: 20 }).credits).toBe(5);
  });
  test("answers are mapped back by ref even when the service reorders them", () => {
    const { ctx, run } = setup({ shuffle: true });
    const out = run(resolveMany(ctx, [{ name: "Alpha" }, { name: "Beta" }, { name: "Gamma" }]));
    expect(out.map((r) => r.match?.name)).toEqual(["Alpha", "Beta", "Gamma"]);
  });
  test("a failed batch marks its rows as errors and leaves the others; errors are not cached", () => {
    const { api, ctx, run } = setup({ failBatch: 2 });
    const rows = Array.from({ length: 30 }, (_, i) => ({ name: `Firma ${i}` }));
    const out = run(resolveMany(ctx, rows));
    expect(out.slice(0, 20).every((r) => r.status === "matched")).toBe(true);
    expect(out.slice(20).every((r) => r.status === "error" && r.error?.code === "OUT_OF_CREDITS")).toBe(true);
    run(resolveMany(ctx, rows));
    expect(JSON.parse(api.requests.at(-1)!.body!).companies).toHaveLength(10);
  });
  test("free mode: one single resolve per distinct row, no credits", () => {
    const { api, ctx, spent, run } = setup();
    const out = run(
      resolveMany(ctx, [{ name: "A", city: "Berlin" }, { name: "B" }, { name: "a", city: "BERLIN" }], { mode: "free" }),
    );
    expect(out.map((r) => r.match?.name)).toEqual(["A", "B", "A"]);
    expect(api.requests.every((r) => r.url.endsWith("/v2/resolve"))).toBe(true);
    expect(api.requests).toHaveLength(2);
    expect(credits(spent)).toBe(0);
  });
  test("free mode sends single resolves in waves of the bucket's burst, spaced by its refill, and answers RATE_LIMITED at the deadline", () => {
    const { api, ctx, run } = setup();
    const rows = Array.from({ length: 12 }, (_, i) => ({ name: `Firma ${i}` }));
    run(resolveMany({ ...ctx, cacheTtlSeconds: 0 }, rows, { mode: "free" }));
    expect(api.batches).toEqual([FREE_WAVE, FREE_WAVE, 2]);
    // 5 tokens refill in 2.5 s at 2/s; the last 2 need 1 s.
    expect(api.sleeps).toEqual([2_500, 1_000]);
    const late = { ...ctx, cacheTtlSeconds: 0, client: { ...ctx.client, deadline: api.now() } };
    const out = run(resolveMany(late, rows, { mode: "free" }));
    expect(
      out.every(
        (r) => r.status === "error" && r.error?.code === "RATE_LIMITED" && r.error.details.retryAt! > api.now(),
      ),
    ).toBe(true);
    expect(api.requests).toHaveLength(12);
  });
  test("free mode takes the caller's resolve bucket", () => {
    const { api, ctx, run } = setup();
    const rows = Array.from({ length: 7 }, (_, i) => ({ name: `Firma ${i}` }));
    run(
      resolveMany({ ...ctx, cacheTtlSeconds: 0, rateLimits: { resolve: { burst: 3, perSecond: 1 } } }, rows, {
        mode: "free",
      }),
    );
    expect(api.batches).toEqual([3, 3, 1]);
    expect(api.sleeps).toEqual([3_000, 1_000]);
  });
  test("not_found answers are cached briefly, like NOT_FOUND", () => {
    const { api, ctx, run } = setup();
    run(resolveMany(ctx, [{ name: "Zzz" }]));
    run(resolveMany(ctx, [{ name: "Zzz" }]));
    expect(api.requests).toHaveLength(1);
    api.advance(601_000);
    run(resolveMany(ctx, [{ name: "Zzz" }]));
    expect(api.requests).toHaveLength(2);
  });
  test("rows are separate objects", () => {
    const { ctx, run } = setup();
    const [a, b] = run(resolveMany(ctx, [{ name: "X" }, { name: "x" }]));
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
  });
  test("bad input", () => {
    const { ctx, run } = setup();
    const err = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as CompanyDataError).details.field;
      }
    };
    expect(err(() => run(resolveMany(ctx, "Siemens" as never)))).toBe("rows");
    expect(err(() => run(resolveMany({ ...ctx, maxBatch: 15 }, [{ name: "x" }])))).toBe("maxBatch");
    expect(err(() => run(resolveMany(ctx, [], { mode: "fast" as never })))).toBe("mode");
    expect(err(() => run(resolveOne(ctx, { name: "  " })))).toBe("name");
  });
  test("resolveOne uses the free endpoint", () => {
    const { api, ctx, run } = setup();
    expect(run(resolveOne(ctx, { name: "BASF SE", zip: "67056" })).status).toBe("matched");
    expect(nth(api.requests, 0).url).toMatch(/\/v2\/resolve$/);
    expect(JSON.parse(nth(api.requests, 0).body!)).toEqual({ name: "BASF SE", zip: "67056" });
  });
});

describe("resolve properties", () => {
  const names = fc.constantFrom(
    "Siemens AG",
    "SIEMENS Aktiengesellschaft",
    "Zzz",
    "Multi",
    "Bäcker GmbH",
    "Baecker Gesellschaft mit beschränkter Haftung",
    "",
    "Firma 1",
    "Firma 2",
    "Firma 3",
  );
  test("every row gets one answer in order; credits spent equal the estimate for the distinct uncached rows", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ name: names }), { maxLength: 120 }),
        fc.array(fc.record({ name: names }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        async (first, second, k) => {
          const { api, ctx, spent } = setup();
          const c = { ...ctx, maxBatch: k * 10 };
          await runAsync(resolveMany(c, first as ResolveQuery[]), api.async);
          // The second run: its estimate must know which distinct rows are cached.
          const before = credits(spent);
          const firstKeys = new Set(dedupe(first).distinct.map((d) => d.key));
          const d2 = dedupe(second).distinct;
          const cached = d2.filter((d) => firstKeys.has(d.key)).length;
          const out = await runAsync(resolveMany(c, second as ResolveQuery[]), api.async);
          expect(out).toHaveLength(second.length);
          second.forEach((r, i) => expect(nth(out, i).status === "error").toBe(r.name.trim() === ""));
          // Each row's answer is its own query's answer (the fake echoes the name sent).
          out.forEach((r, i) => {
            if (r.status === "matched") expect(normaliseName(r.match!.name!)).toBe(normaliseName(nth(second, i).name));
          });
          expect(credits(spent) - before).toBe(
            estimate({
              kind: "resolve",
              rows: second.length,
              distinct: d2.length,
              cached,
              mode: "batch",
              maxBatch: k * 10,
            }).credits,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
