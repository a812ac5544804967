/**
 * Under drift no cell holds a wrong value (issue 31): every custom function
 * (Sheets and Excel share the registry) and an enrichment through the app
 * service, run against the emulator and against the drifted emulator with
 * the same data. Each cell under drift is the same value, empty (a field the
 * service no longer sends, which the doctor names), or a clear error message
 * in the user's language — never another value.
 */
import { describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { FUNCTIONS, invoke, isCellError, type CellOut, type FunctionContext } from "../../shared/functions/index.ts";
import { isCellCard } from "../../shared/functions/types.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { Pacer } from "../../shared/api/pacing.ts";

const START = "2026-01-15";
const SAP = "DEJK7QV0PK24";
const SIEMENS = "DEPIYX8Y4M82";
const normal = createEmulator({ companies: 800, startDate: START });
const drift = createEmulator({ companies: 800, startDate: START, drift: true });

function runner(emu: Emulator, language: "de" | "en") {
  const key = emu.createKey(10_000);
  const d = emulatorDrivers(emu);
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language,
      now: () => Date.now(),
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 3600,
    maxBatch: 100,
    scope: "fn",
  };
  const fctx: FunctionContext = { ctx, dailyBudget: null };
  return (name: string, args: unknown[]): CellOut[][] =>
    runSync(
      invoke(
        FUNCTIONS.find((f) => f.name === name)!,
        fctx,
        args,
      ),
      d.sync,
    );
}

/**
 * A value built of parts (an address: street, postcode, city) may lose the
 * part the service no longer sends: its words are then the true value's
 * words, in order, with some left out — never a word the truth lacks.
 */
function partOf(truth: unknown, got: unknown): boolean {
  if (typeof truth !== "string" || typeof got !== "string") return false;
  const t = truth.split(/[\s,]+/).filter(Boolean);
  let i = 0;
  for (const w of got.split(/[\s,]+/).filter(Boolean)) {
    while (i < t.length && t[i] !== w) i++;
    if (i++ >= t.length) return false;
  }
  return true;
}

/** A drifted cell is acceptable when it equals the true one, is empty, lost a part, or is an error message. */
function acceptable(truth: CellOut, got: CellOut): boolean {
  if (isCellError(got)) return got.message.trim().length > 0;
  if (got === "" || JSON.stringify(got) === JSON.stringify(truth) || partOf(truth, got)) return true;
  if (isCellCard(got) && isCellCard(truth)) {
    const byKey = new Map([...truth.card.properties, ...(truth.card.figures ?? [])].map((p) => [p.key, p.value]));
    return [...got.card.properties, ...(got.card.figures ?? [])].every(
      (p) => p.value === null || p.value === "" || p.value === byKey.get(p.key) || partOf(byKey.get(p.key), p.value),
    );
  }
  return false;
}

describe("custom functions under drift: the same value, empty, or a clear message", () => {
  const person = normal.companies.sharedPersonId()!;
  const ARGS: Record<string, unknown[]> = {
    SEARCH: ["Software", 5],
    SUGGEST: ["Sie"],
    RESOLVE: ["SAP SE", "Walldorf"],
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
  for (const lang of ["de", "en"] as const) {
    const truth = runner(normal, lang);
    const drifted = runner(drift, lang);
    for (const def of FUNCTIONS) {
      it(`${def.name} (${lang})`, () => {
        const args = ARGS[def.name] ?? [SAP];
        const want = truth(def.name, args);
        const got = drifted(def.name, args);
        const wrong: string[] = [];
        got.forEach((row, r) =>
          row.forEach((cell, c) => {
            const t = want[r]?.[c] ?? "";
            if (!acceptable(t, cell)) wrong.push(`[${r},${c}] ${JSON.stringify(cell)} (true: ${JSON.stringify(t)})`);
          }),
        );
        expect(wrong, wrong.join("\n")).toEqual([]);
      });
    }
  }
});

describe('the drift reaches the cells as a message, not as "not found"', () => {
  it("RESOLVE of a known name: the true id against the emulator, a clear error under drift", () => {
    const [[truth]] = runner(normal, "en")("RESOLVE", ["SAP SE", "Walldorf"]) as [[CellOut]];
    const [[got]] = runner(drift, "en")("RESOLVE", ["SAP SE", "Walldorf"]) as [[CellOut]];
    expect(truth).toBe(SAP);
    expect(isCellError(got) && got.error).toBe("MALFORMED_RESPONSE");
    expect(isCellError(got) && got.message).toMatch(/^Unexpected answer from the data service/);
  });
});
