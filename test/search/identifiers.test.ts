/**
 * Matching by identifier against the in-process emulator: website/domain,
 * VAT id and register number (three ways of writing it) are recognised in
 * headers and cells, looked up for free, and follow the review rules
 * (several companies are listed, never guessed); COMPANY_RESOLVE takes them.
 */
import { describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { FUNCTIONS, invoke, isCellError, type FunctionContext } from "../../shared/functions/index.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { detectColumns, validateMapping } from "../../shared/enrich/columns.ts";
import { taskFromRow } from "../../shared/enrich/chunk.ts";
import { enrichRows } from "../support/enrich-rows.ts";
import { EnrichEstimator } from "../../shared/enrich/estimate.ts";
import { domainOf, identifierIn, lookupMany, registerOf, vatIdOf } from "../../shared/operations/identifiers.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { nth } from "../helpers/indexed.ts";

const FAST = { capacity: 1_000_000, refillPerSecond: 1_000_000 };
const emulator = createEmulator({
  companies: 1500,
  startDate: "2026-01-15",
  rateLimits: { resolve: FAST, availability: FAST },
});

function setup(lang: "de" | "en" = "en") {
  const key = emulator.createKey(10_000);
  const d = emulatorDrivers(emulator);
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: lang,
      now: () => Date.UTC(2026, 0, 15),
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 3600,
    maxBatch: 100,
    scope: "ident",
    rateLimits: { resolve: { burst: 1000, perSecond: 1000 } },
  };
  return { key, ctx, d, run: <T>(op: Generator<unknown, T, unknown>) => runSync<T>(op as never, d.sync) };
}

/** Synthetic companies with their VAT id, website and register entry as the emulator's profile states them. */
function companies(n: number, from = 100) {
  return emulator.companies
    .ids()
    .slice(from, from + n)
    .map((id) => {
      const p = emulator.world.profile(emulator.world.byId(id)!, "de") as Record<string, any>;
      return {
        id,
        vatId: p.vatId as string,
        url: p.url as string,
        court: p.register.court as string,
        type: p.register.type as string,
        number: p.register.number as string,
      };
    });
}

describe("identifiers as users write them", () => {
  it("VAT ids, domains and register numbers are read in their usual forms", () => {
    expect(vatIdOf("DE 123 456 789")).toBe("DE123456789");
    expect(vatIdOf("de123456789")).toBe("DE123456789");
    expect(vatIdOf("DE12345678")).toBeNull();
    expect(vatIdOf("ATU12345678")).toBe("ATU12345678");
    expect(domainOf("https://www.sap.com/germany?x=1")).toBe("sap.com");
    expect(domainOf("info@beispiel-gmbh.de")).toBe("beispiel-gmbh.de");
    expect(domainOf("SAP SE")).toBeNull();
    expect(registerOf("Amtsgericht München HRB 6684")).toBe("Amtsgericht München HRB 6684");
    expect(registerOf("6684")).toBeNull();
    expect(identifierIn("DE 123456789")).toEqual({ vatId: "DE123456789" });
    expect(identifierIn("www.sap.com")).toEqual({ url: "sap.com" });
    expect(identifierIn("HRB 6684 München")).toEqual({ register: "HRB 6684 München" });
    expect(identifierIn("München HRB 6684")).toEqual({ register: "München HRB 6684" });
    expect(identifierIn("SAP SE")).toBeNull();
    expect(identifierIn("Deutsche Bank AG")).toBeNull();
  });

  it("columns for website and VAT id are recognised in German and English; a list with only one of them is valid", () => {
    expect(detectColumns(["Firma", "Webseite", "USt-IdNr."]).mapping).toEqual({ name: 0, website: 1, vatId: 2 });
    expect(detectColumns(["Website", "VAT number"]).mapping).toEqual({ website: 0, vatId: 1 });
    expect(validateMapping({ vatId: 0 }, 1)).toEqual({ vatId: 0 });
    expect(validateMapping({ register: 0 }, 1)).toEqual({ register: 0 });
    expect(() => validateMapping({ city: 0 }, 1)).toThrow();
    // A register number beside a name stays a hint to the name; alone it is looked up.
    expect(taskFromRow(0, ["SAP SE", "HRB 719915"], { name: 0, register: 1 }).lookup).toBeUndefined();
    expect(taskFromRow(0, ["", "HRB 719915 Mannheim"], { name: 0, register: 1 }).lookup).toEqual({
      register: "HRB 719915 Mannheim",
    });
    expect(taskFromRow(0, ["SAP SE", "sap.com"], { name: 0, website: 1 }).lookup).toEqual({ url: "sap.com" });
  });
});

describe("lookup by identifier against the emulator", () => {
  it("VAT id, website and register number (three forms) each find the company, for free", () => {
    const { key, ctx, run } = setup();
    const cs = companies(3);
    const before = emulator.balance(key);
    const qs = [
      { vatId: nth(cs, 0).vatId },
      { url: domainOf(nth(cs, 1).url)! },
      { register: `${nth(cs, 2).type} ${nth(cs, 2).number} ${nth(cs, 2).court.replace(/^Amtsgericht /, "")}` },
      { register: `${nth(cs, 2).court} ${nth(cs, 2).type} ${nth(cs, 2).number}` },
      { register: `${nth(cs, 2).court.replace(/^Amtsgericht /, "")} ${nth(cs, 2).type} ${nth(cs, 2).number}` },
    ];
    const out = run(lookupMany(ctx, qs));
    expect(out.map((r) => r.status)).toEqual(["matched", "matched", "matched", "matched", "matched"]);
    expect(out.map((r) => r.match!.id)).toEqual([
      nth(cs, 0).id,
      nth(cs, 1).id,
      nth(cs, 2).id,
      nth(cs, 2).id,
      nth(cs, 2).id,
    ]);
    expect(emulator.balance(key)).toBe(before);
    expect(nth(run(lookupMany(ctx, [{ vatId: "DE000000001" }])), 0).status).toBe("not_found");
  });

  it("enrichment of a list with only a VAT id, website or register column: one answer per row, bad identifiers named, only profiles paid", () => {
    const { key, ctx, run } = setup("de");
    const cs = companies(4, 300);
    const rows = [
      ["USt-IdNr.", "Website", "Handelsregister"],
      [nth(cs, 0).vatId, "", ""],
      ["", nth(cs, 1).url, ""],
      ["", "", `${nth(cs, 2).court} ${nth(cs, 2).type} ${nth(cs, 2).number}`],
      ["DE12", "", ""],
      ["", "", ""],
      [nth(cs, 0).vatId.replace(/^DE/, "DE "), "", ""],
    ];
    const { mapping } = detectColumns(nth(rows, 0));
    expect(mapping).toEqual({ vatId: 0, website: 1, register: 2 });
    const est = new EnrichEstimator({ mapping, fields: ["name", "city"], mode: "batch", maxBatch: 100 });
    est.add(rows.slice(1).map((r, i) => taskFromRow(i, r, mapping)));
    const estimate = est.result();
    const before = emulator.balance(key);
    const res = run(enrichRows(ctx, "ident-job", { rows: rows.slice(1), mapping, fields: ["name", "city"] }));
    const outcomes = res.results.map((r) => r?.outcome);
    expect(outcomes).toEqual(["matched", "matched", "matched", "error", "empty", "matched"]);
    expect(res.results.slice(0, 3).map((r) => r!.id)).toEqual([nth(cs, 0).id, nth(cs, 1).id, nth(cs, 2).id]);
    expect(res.results[5]!.id).toBe(nth(cs, 0).id);
    expect(res.results[3]!.error!.text.de).toContain("keine USt-IdNr.");
    // Name and city need no profile: the lookup's answer has them; nothing is paid at all, as estimated.
    expect(before - emulator.balance(key)).toBe(estimate.credits);
    expect(estimate.credits).toBe(0);
  });

  it("with a field that needs the profile, each company is bought once and the estimate equals the spend", () => {
    const { key, ctx, run } = setup();
    const cs = companies(3, 600);
    const rows = [[nth(cs, 0).vatId], [nth(cs, 1).vatId], [nth(cs, 0).vatId.toLowerCase()], [nth(cs, 2).vatId]];
    const mapping = { vatId: 0 };
    const est = new EnrichEstimator({ mapping, fields: ["name", "url"], mode: "batch", maxBatch: 100 });
    est.add(rows.map((r, i) => taskFromRow(i, r, mapping)));
    const estimate = est.result();
    const before = emulator.balance(key);
    const res = run(enrichRows(ctx, "ident-job-2", { rows, mapping, fields: ["name", "url"] }));
    expect(res.results.map((r) => r?.outcome)).toEqual(["matched", "matched", "matched", "matched"]);
    expect(before - emulator.balance(key)).toBe(3);
    expect(estimate.credits).toBe(3);
  });

  it("COMPANY_RESOLVE takes a VAT id, a website or a register number instead of a name, for free", () => {
    const { key, ctx, d } = setup("de");
    const cs = companies(3, 900);
    const fctx: FunctionContext = { ctx, dailyBudget: null };
    const def = FUNCTIONS.find((f) => f.name === "RESOLVE")!;
    const before = emulator.balance(key);
    const out = runSync(
      invoke(def, fctx, [
        [
          [nth(cs, 0).vatId],
          [nth(cs, 1).url],
          [`${nth(cs, 2).type} ${nth(cs, 2).number} ${nth(cs, 2).court.replace(/^Amtsgericht /, "")}`],
          ["DE000000001"],
        ],
      ]),
      d.sync,
    );
    expect(out.slice(0, 3).map((r) => r[0])).toEqual([nth(cs, 0).id, nth(cs, 1).id, nth(cs, 2).id]);
    expect(isCellError(nth(out, 3)[0])).toBe(true);
    expect(emulator.balance(key)).toBe(before);
  });
});
