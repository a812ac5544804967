/**
 * The doctor against the emulator and the drifted emulator (issue 31): it
 * sends only calls the price table prices at 0, proves the balance did not
 * move, passes against the emulator, and against the drifted one names each
 * drift with the features it affects and says it is not safe to spend.
 */
import { describe, expect, test } from "vitest";
import { createEmulator } from "../../emulator/index.ts";
import { runSync } from "../../shared/core/drivers.ts";
import { endpoint, ENDPOINTS } from "../../shared/api/endpoints.ts";
import { runDoctor } from "../../shared/doctor/run.ts";
import { PROBES, ACCOUNT, priceOf } from "../../shared/doctor/probes.ts";
import { reportLines, findingText } from "../../shared/doctor/report.ts";
import type { DoctorReport, Finding } from "../../shared/doctor/types.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";
import type { HttpRequest } from "../../shared/core/http.ts";
import type { Language } from "../../shared/i18n/language.ts";

const START = "2026-01-15";
const normal = createEmulator({ companies: 300, startDate: START });
const drift = createEmulator({ companies: 300, startDate: START, drift: true });

function doctor(
  emu: typeof normal,
  language: Language = "en",
): { report: DoctorReport; requests: HttpRequest[]; key: string } {
  const key = emu.createKey(100);
  const d = emulatorDrivers(emu);
  const report = runSync(
    runDoctor({ apiKey: key, baseUrl: "http://emulator.test", language, now: Date.now, random: () => 0.5 }),
    d.sync,
  );
  return { report, requests: d.requests, key };
}

/** The catalogue entry a request went to (method + path), to price it independently of the doctor. */
function priceOfRequest(r: HttpRequest): number {
  const path = new URL(r.url).pathname;
  const ep = ENDPOINTS.find(
    (e) => e.method === r.method && new RegExp("^" + e.path.replace(/\{\w+\}/g, "[^/]+") + "$").test(path),
  );
  if (!ep) throw new Error(`no endpoint for ${r.method} ${path}`);
  return endpoint(ep.id).cost();
}

const find = (r: DoctorReport, p: (f: Finding) => boolean) => r.findings.find(p);

describe("the doctor spends nothing", () => {
  test("every probe is priced 0 by the price table", () => {
    for (const p of [ACCOUNT, ...PROBES]) expect(priceOf(p), p.id).toBe(0);
  });

  for (const [name, emu] of [
    ["emulator", normal],
    ["drifted emulator", drift],
  ] as const) {
    test(`against the ${name}: only free requests, the balance unchanged and the report says 0 spent`, () => {
      const { report, requests, key } = doctor(emu);
      const before = 100;
      expect(emu.balance(key)).toBe(before);
      expect(emu.ledger(key).total).toBe(0);
      expect(requests.length).toBe(report.probes.length);
      for (const r of requests) expect(priceOfRequest(r), r.url).toBe(0);
      expect(report.credits).toEqual({ before, after: before, spent: 0 });
      expect(reportLines(report, "en").join("\n")).toContain("0 credits spent: balance 100 before and after.");
      expect(reportLines(report, "de").join("\n")).toContain("0 Credits ausgegeben: Guthaben vorher und nachher 100.");
      // The key is only ever in the Authorization header.
      expect(JSON.stringify(report)).not.toContain(key);
    });
  }
});

describe("against the emulator", () => {
  test("passes: no findings, safe to spend, the free calls named", () => {
    const { report } = doctor(normal);
    expect(report.findings).toEqual([]);
    expect(report.verdict).toBe("pass");
    expect(report.safeToSpend).toBe(true);
    expect(report.probes.map((p) => [p.id, p.status, p.readable])).toEqual([
      ["account", 200, true],
      ["suggest", 200, true],
      ["availability", 200, true],
      ["resolve", 200, true],
      ["lookup", 200, true],
      ["error.unknownId", 404, true],
      ["error.resolveBody", 400, true],
      ["error.lookupBody", 400, true],
      ["account.after", 200, true],
    ]);
    expect(report.rateLimitHeaders).toEqual([]);
    expect(report.notChecked).toContain("batchResolve");
    expect(report.notChecked).toContain("profile");
  });
});

describe("against the drifted emulator", () => {
  const { report } = doctor(drift);

  test("not safe to spend", () => {
    expect(report.verdict).toBe("unsafe");
    expect(report.safeToSpend).toBe(false);
  });

  test("names each drift with the features it affects", () => {
    const status = find(report, (f) => f.probe === "resolve" && f.path === "status");
    expect(status).toMatchObject({ kind: "missing", renamedTo: "matchStatus", severity: "breaking" });
    expect(status!.features).toContain("batchResolve");

    const zip = find(report, (f) => f.probe === "resolve" && f.path === "match.zip");
    expect(zip).toMatchObject({ kind: "missing", renamedTo: "postcode", severity: "degraded" });
    expect(zip!.features).toEqual(["enrich:zip", "enrich:address"]);

    const legal = find(report, (f) => f.probe === "resolve" && f.path === "match.legalForm");
    expect(legal).toMatchObject({ kind: "missing", severity: "degraded" });
    expect(legal!.renamedTo).toBeUndefined();
    expect(findingText(legal!, "en")).toBe(
      '! resolve: the field `match.legalForm` is missing. Profiles and matches: the column "Legal form" will be empty (Enrich, COMPANY_PROFILE, search results).',
    );
    expect(findingText(legal!, "de")).toContain("die Spalte „Rechtsform“ bleibt leer");

    expect(find(report, (f) => f.path === "match.register")).toMatchObject({
      kind: "type",
      got: "string",
      expected: "object {court, type, number}",
    });
    expect(find(report, (f) => f.probe === "lookup" && f.path === "companies[].zip")).toMatchObject({
      renamedTo: "postcode",
    });
    expect(find(report, (f) => f.probe === "account" && f.path === "plan")).toMatchObject({
      renamedTo: "tier",
      severity: "info",
    });

    // Another error shape: the expected body is missing, the problem-details fields are news.
    expect(find(report, (f) => f.probe.startsWith("error.") && f.path === "error")).toMatchObject({
      kind: "missing",
      severity: "degraded",
      features: ["errors"],
    });
    expect(find(report, (f) => f.probe.startsWith("error.") && f.kind === "unknown")!.got).toBe(
      "type, title, status, detail",
    );

    // No credit headers (and, as before, no rate-limit headers).
    expect(find(report, (f) => f.kind === "headers")).toMatchObject({
      path: "x-credits-charged, x-credits-remaining",
      got: "absent",
    });
    expect(report.rateLimitHeaders).toEqual([]);
  });

  test("each difference once, not once per place it shows", () => {
    const keys = report.findings.map(
      (f) => `${f.probe.replace(/^error\..*/, "error").replace(".after", "")}|${f.kind}|${f.path}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  test("the report reads the same in both languages, worst first", () => {
    const en = reportLines(report, "en");
    const de = reportLines(report, "de");
    expect(en[1]).toMatch(/^Result: NOT safe to spend/);
    expect(de[1]).toMatch(/^Ergebnis: NICHT sicher auszugeben/);
    const marks = en.filter((l) => /^[✗!i] /.test(l)).map((l) => l[0]);
    expect(marks[0]).toBe("✗");
    expect(marks.join("")).toMatch(/^✗+!+i+$/);
    expect(de.length).toBe(en.length);
  });
});

describe("what cannot be checked is said, not guessed", () => {
  test("a rejected key: verdict key, nothing else sent", () => {
    const d = emulatorDrivers(normal);
    const report = runSync(
      runDoctor({ apiKey: "wrong", baseUrl: "http://emulator.test", language: "en", now: Date.now, random: () => 0.5 }),
      d.sync,
    );
    expect(report.verdict).toBe("key");
    expect(report.safeToSpend).toBe(false);
    expect(d.requests.length).toBe(1);
    expect(reportLines(report, "en")[1]).toBe("Result: the API key was rejected; nothing checked.");
  });

  test("no answer at all: unreachable", () => {
    const report = runSync(
      runDoctor({ apiKey: "k", baseUrl: "http://emulator.test", language: "en", now: Date.now, random: () => 0.5 }),
      {
        http: (reqs) => reqs.map(() => ({ status: 0, headers: {}, body: "", networkError: "connection" as const })),
        sleep: () => undefined,
        cacheGet: (k) => k.map(() => null),
        cachePut: () => undefined,
        storeGet: (k) => k.map(() => null),
        storePut: () => undefined,
      },
    );
    expect(report.verdict).toBe("unreachable");
    expect(report.credits.spent).toBeNull();
  });

  test("a service that charges a 'free' call: the charge header and the balance both say so", () => {
    const emu = createEmulator({ companies: 300, startDate: START });
    const d = emulatorDrivers(emu);
    const key = emu.createKey(100);
    let n = 0;
    const sync = {
      ...d.sync,
      http: (reqs: HttpRequest[]) =>
        d.sync.http(reqs).map((res, i) => {
          // The suggest answer claims a charge, and the balance drops by it.
          if (!new URL(reqs[i]!.url).pathname.startsWith("/v2/suggest/")) return res;
          n++;
          emu.setBalance(key, emu.balance(key) - 2);
          return { ...res, headers: { ...res.headers, "x-credits-charged": "2" } };
        }),
    };
    const report = runSync(
      runDoctor({ apiKey: key, baseUrl: "http://emulator.test", language: "en", now: Date.now, random: () => 0.5 }),
      sync,
    );
    expect(n).toBe(1);
    expect(report.credits).toEqual({ before: 100, after: 98, spent: 2 });
    expect(report.verdict).toBe("unsafe");
    expect(find(report, (f) => f.kind === "charged")).toMatchObject({
      probe: "suggest",
      got: "2",
      severity: "breaking",
    });
    expect(reportLines(report, "en")).toContain(
      "Warning: 2 credits spent (balance 100 → 98) although only free calls were sent.",
    );
  });
});
