/**
 * Every function against the in-process emulator: valid calls answer data,
 * each costs what the catalogue says, and asking again costs nothing.
 */
import { describe, expect, it } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { FUNCTIONS, invoke, isCellError, type CellOut, type FunctionContext } from "../../shared/functions/index.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { nth } from "../helpers/indexed.ts";

const emulator = createEmulator({ companies: 2000, startDate: "2026-01-15" });
const SAP = "DEJK7QV0PK24";
const SIEMENS = "DEPIYX8Y4M82";

function setup() {
  const key = emulator.createKey(10_000);
  const d = emulatorDrivers(emulator);
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: "de",
      now: () => Date.now(),
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 3600,
    maxBatch: 100,
    scope: "fn",
  };
  const fctx: FunctionContext = { ctx, dailyBudget: null };
  const run = (name: string, args: unknown[]): CellOut[][] =>
    runSync(
      invoke(
        FUNCTIONS.find((f) => f.name === name)!,
        fctx,
        args,
      ),
      d.sync,
    );
  return { key, run, d };
}

const PRICE: Record<string, number> = {
  SEARCH: 1,
  SUGGEST: 0,
  RESOLVE: 0,
  PROFILE: 1,
  PEOPLE: 1,
  ANNOUNCEMENTS: 1,
  FINANCIALS: 4,
  CHANGES: 1,
  NEARBY: 1,
  PEERS: 2,
  SIMILAR: 2,
  AVAILABILITY: 0,
  PERSON_COMPANIES: 2,
  CREDITS: 0,
  EVENTS: 1,
  JOBS: 1,
  // SAP has financials and people: profile 1 + financials 4 + people 1 (the availability check before is free).
  CARD: 6,
};

describe("functions against the emulator", () => {
  const person = emulator.companies.sharedPersonId()!;
  const ARGS: Record<string, unknown[]> = {
    SEARCH: ["Software", 5],
    SUGGEST: ["Sie"],
    RESOLVE: ["SAP SE"],
    PROFILE: [SAP],
    PEOPLE: [SAP],
    ANNOUNCEMENTS: [SAP],
    FINANCIALS: [SAP],
    CHANGES: [SAP, "2020-01-01"],
    NEARBY: [SAP, 25, 5],
    PEERS: [SAP, 5],
    SIMILAR: [[[SAP], [SIEMENS]], 5],
    AVAILABILITY: [SAP],
    PERSON_COMPANIES: [person],
    CREDITS: [],
    EVENTS: [SAP],
    JOBS: [SAP],
    CARD: [SAP],
  };
  for (const def of FUNCTIONS) {
    it(`${def.name}: answers, costs the catalogue price once, then nothing`, () => {
      const { key, run } = setup();
      const args = ARGS[def.name] ?? [SAP];
      const before = emulator.balance(key);
      const out = run(def.name, args);
      const errors = out.flat().filter(isCellError);
      expect(errors, JSON.stringify(errors)).toEqual([]);
      if (PRICE[def.name] !== undefined) expect(before - emulator.balance(key)).toBe(PRICE[def.name]);
      const spent = before - emulator.balance(key);
      if (def.name !== "CREDITS") expect(run(def.name, args)).toEqual(out);
      expect(before - emulator.balance(key)).toBe(spent);
      if (!def.spendsCredits) expect(spent).toBe(0);
    });
  }

  it("PROFILE over a column of 30 ids pays each distinct id once, in one round of requests", () => {
    const { key, run, d } = setup();
    const ids = emulator.companies.ids().slice(0, 15);
    const col = [...ids, ...ids].map((id) => [id]);
    const before = emulator.balance(key);
    const out = run("PROFILE", [col, "name"]);
    expect(out).toHaveLength(30);
    expect(out.slice(0, 15)).toEqual(out.slice(15));
    expect(before - emulator.balance(key)).toBe(15);
    expect(d.requests).toHaveLength(15);
  });

  it("RESOLVE of 25 names pays ceil(25/10) = 3 credits; ambiguous names list candidates", () => {
    const { key, run } = setup();
    const dup = nth(emulator.companies.duplicateNames(1), 0);
    const names = emulator.companies
      .ids()
      .slice(50, 74)
      .map((id) => [emulator.world.byId(id)!.name]);
    names.push([dup.name]);
    const before = emulator.balance(key);
    const out = run("RESOLVE", [names]);
    expect(before - emulator.balance(key)).toBe(3);
    const last = nth(out, 24)[0];
    expect(isCellError(last) && last.error).toBe("AMBIGUOUS");
  });
});
