/**
 * Regression tests for the QA audit of the emulator: repeated query
 * parameters, recurring 429 bursts from flags, error texts that say why,
 * the docs page and curl sample, and sentences ending in a name with a dot.
 */
import { describe, expect, it } from "vitest";
import { MAX_BATCH } from "../../shared/api/schemas.ts";
import { HELP, parseArgs } from "../../emulator/cli.ts";
import { sentence } from "../../emulator/data/text.ts";
import { caller, makeEmulator, SAP, START } from "./helpers.ts";
import { nth } from "../helpers/indexed.ts";

describe("repeated query parameters", () => {
  const emu = makeEmulator({ companies: 300 });
  const call = caller(emu);

  it("merges every value of include, repeated or comma-separated, and charges for all of them", () => {
    const r = call("GET", `/v2/companies/${SAP}?include=people&include=financials`);
    expect(r.status, r.raw).toBe(200);
    expect(r.json.people).toBeDefined();
    expect(r.json.financials).toBeDefined();
    expect(r.headers["x-credits-charged"]).toBe("6");
    const mixed = call("GET", `/v2/companies/${SAP}?include=people,announcements&include=financials&include=people`);
    expect(mixed.headers["x-credits-charged"]).toBe("7");
  });

  it("validates every value of include, not just the first", () => {
    const before = emu.ledger(emu.demoKey).total;
    for (const q of [
      "include=people&include=bogus",
      "include=bogus&include=people",
      "include=people&include=people,bogus",
    ]) {
      const r = call("GET", `/v2/companies/${SAP}?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.field).toBe("include");
    }
    expect(emu.ledger(emu.demoKey).total).toBe(before);
  });

  it("rejects any other repeated parameter with a 400 naming it", () => {
    const before = emu.ledger(emu.demoKey).total;
    for (const [url, field] of [
      [`/v2/companies/${SAP}/peers?size=1&size=50`, "size"],
      [`/v2/companies/${SAP}/changes?since=2020-01-01&since=2026-01-01`, "since"],
      [`/v2/companies/${SAP}/nearby?radiusKm=5&radiusKm=50`, "radiusKm"],
      [`/companies/${SAP}/events?type=NEWS&type=BLOG`, "type"],
    ] as const) {
      const r = call("GET", url);
      expect(r.status, url).toBe(400);
      expect(r.json.error).toMatchObject({ code: "INVALID_INPUT", field });
      expect(r.json.error.message).toContain(field);
    }
    expect(emu.ledger(emu.demoKey).total).toBe(before);
  });
});

describe("recurring 429 bursts", () => {
  it("after every N calls the next L calls answer 429 with the configured Retry-After, never charged", () => {
    const emu = makeEmulator({ companies: 200, faults: { burstEvery: 3, burstLength: 2, burstRetryAfterSeconds: 7 } });
    const before = emu.balance(emu.demoKey);
    const r = Array.from({ length: 10 }, () => caller(emu)("GET", `/v2/companies/${SAP}`));
    expect(r.map((x) => x.status)).toEqual([200, 200, 200, 429, 429, 200, 200, 200, 429, 429]);
    expect(nth(r, 3).headers["retry-after"]).toBe("7");
    expect(nth(r, 3).json.error.retryAfterSeconds).toBe(7);
    expect(emu.balance(emu.demoKey)).toBe(before - 6);
  });

  it("can be set on the control endpoint too and is cleared by reset", () => {
    const emu = makeEmulator({ companies: 200 });
    const ctl = caller(emu, "");
    expect(ctl("POST", "/_emulator/faults", { burstEvery: 1, burstLength: 1 }).json).toMatchObject({
      burstEvery: 1,
      burstLength: 1,
    });
    expect([1, 2, 3, 4].map(() => caller(emu)("GET", "/v2/account").status)).toEqual([200, 429, 200, 429]);
    ctl("POST", "/_emulator/faults/reset");
    expect([1, 2, 3].map(() => caller(emu)("GET", "/v2/account").status)).toEqual([200, 200, 200]);
  });

  it("are set by flags, which --help lists", () => {
    const o = parseArgs(
      ["--burst-every", "50", "--burst-length=4", "--burst-retry-after", "3", "--rate-limit-burst", "2"],
      {},
    );
    expect(o).toMatchObject({
      emulator: { faults: { burstEvery: 50, burstLength: 4, burstRetryAfterSeconds: 3, rateLimitBurst: 2 } },
    });
    expect(() => parseArgs(["--burst-every", "0"], {})).toThrow();
    expect(() => parseArgs(["--burst-length", "1.5"], {})).toThrow();
    for (const f of ["--burst-every", "--burst-length", "--burst-retry-after", "--rate-limit-burst"])
      expect(HELP).toContain(f);
    // The flags reach the running emulator.
    if (o === "help") throw new Error("unexpected help");
    const emu = makeEmulator({ companies: 200, ...o.emulator });
    expect(emu.faults.get()).toMatchObject({
      burstEvery: 50,
      burstLength: 4,
      burstRetryAfterSeconds: 3,
      rateLimitBurst: 2,
    });
  });
});

describe("error texts say why a value is wrong, in DE and EN", () => {
  const emu = makeEmulator({ companies: 300 });
  const de = caller(emu, emu.demoKey, "DE");
  const en = caller(emu, emu.demoKey, "EN");
  const both = (method: "GET" | "POST", url: string, body?: unknown) =>
    [de(method, url, body), en(method, url, body)].map((r) => {
      expect(r.status, r.raw).toBeGreaterThanOrEqual(400);
      return r.json.error.message as string;
    });

  it("a batch over the maximum", () => {
    const [d, e] = both("POST", "/v2/companies/batch/resolve", {
      companies: Array.from({ length: MAX_BATCH + 1 }, () => ({ name: "x" })),
    });
    expect(d).toBe(`Ungültiger Wert für companies: höchstens ${MAX_BATCH} Einträge.`);
    expect(e).toBe(`Invalid value for companies: at most ${MAX_BATCH} entries.`);
  });

  it("a clock set before its start", () => {
    const [d, e] = both("POST", "/_emulator/clock", { date: "2020-01-01" });
    expect(d).toContain(`Startdatum ${START}`);
    expect(e).toContain(`start date ${START}`);
    expect(e).toMatch(/clock does not go back/);
  });

  it("a schedule in the past says the clock only moves forward", () => {
    const [d, e] = both("POST", "/_emulator/schedule", { id: SAP, kind: "INSOLVENCY", date: START });
    expect(d).toContain("die Uhr läuft nur vorwärts");
    expect(e).toContain("the clock only moves forward");
  });

  it("sizes name the whole range, in the body and in the query, whichever bound is broken", () => {
    for (const [m, url, body] of [
      ["POST", "/v2/search", { query: "x", size: -1 }],
      ["POST", "/v2/search", { query: "x", size: 1e9 }],
      ["POST", "/v2/search", { query: "x", size: 1.5 }],
      ["GET", `/v2/companies/${SAP}/peers?size=0`, undefined],
      ["GET", `/v2/companies/${SAP}/peers?size=abc`, undefined],
    ] as const) {
      const [d, e] = both(m, url, body);
      expect(d).toBe("Ungültiger Wert für size: eine ganze Zahl von 1 bis 100.");
      expect(e).toBe("Invalid value for size: an integer from 1 to 100.");
    }
  });

  it("other zod issues: too small, wrong type, missing, enum, pattern, unknown keys", () => {
    const cases: [string, unknown, RegExp, RegExp][] = [
      ["/v2/companies/batch/resolve", { companies: [] }, /mindestens 1 Eintrag\.$/, /at least 1 entry\.$/],
      [
        "/v2/companies/batch/resolve",
        { companies: [{ name: "" }] },
        /companies\[0\]\.name: darf nicht leer sein/,
        /must not be empty/,
      ],
      ["/v2/search", { query: 5 }, /query: erwartet Text/, /query: expected a string/],
      ["/v2/search", {}, /query: Pflichtfeld/, /query: required/],
      [
        "/v2/search",
        { query: "x", filters: { size: ["HUGE"] } },
        /erlaubt: MICRO, SMALL, MEDIUM, LARGE/,
        /allowed: MICRO, SMALL, MEDIUM, LARGE/,
      ],
      [
        "/v2/search",
        { query: "x", near: { lat: 1, lon: 2, radiusKm: 0 } },
        /größer als 0 und höchstens 500/,
        /greater than 0 and at most 500/,
      ],
      [
        "/v2/similar",
        { ids: ["sap"] },
        /ids\[0\]: muss dem Muster .*DE\[A-Z0-9\]\{10\}/,
        /ids\[0\]: must match .*DE\[A-Z0-9\]\{10\}/,
      ],
      [
        "/v2/resolve",
        { name: "x", colour: "red" },
        /Unbekanntes Feld: colour \(erlaubt: name, city, zip, register\)/,
        /Unknown field: colour \(allowed: name, city, zip, register\)/,
      ],
    ];
    for (const [url, body, dRe, eRe] of cases) {
      const [d, e] = both("POST", url, body);
      expect(d).toMatch(dRe);
      expect(e).toMatch(eRe);
    }
  });

  it("query parameters and path ids", () => {
    expect(both("GET", `/v2/companies/${SAP}?include=gossip`)[1]).toBe(
      "Invalid value for include: allowed: people, announcements, financials.",
    );
    expect(both("GET", `/v2/companies/${SAP}/nearby?radiusKm=501`)[0]).toMatch(
      /radiusKm: eine Zahl, größer als 0 und höchstens 500/,
    );
    expect(both("GET", `/v2/companies/${SAP}/changes?since=yesterday`)[1]).toMatch(
      /since: a date YYYY-MM-DD or an ISO 8601 date-time/,
    );
    expect(both("GET", "/v2/companies/sap-se")[1]).toMatch(/^Invalid id \(id\): must match/);
    const [d, e] = both("GET", `/v2/companies/${SAP}/peers?size=1&size=2`);
    expect(d).toBe("Parameter size darf nur einmal vorkommen.");
    expect(e).toBe("Parameter size may appear only once.");
  });

  it("the clock's own checks", () => {
    expect(both("POST", "/_emulator/clock", {})[1]).toMatch(/exactly one of days, date/);
    expect(both("POST", "/_emulator/clock", { date: "2026-02-30" })[0]).toMatch(/ein gültiges Datum JJJJ-MM-TT/);
    expect(both("POST", "/_emulator/clock", { date: "26-1-1" })[1]).toMatch(/date: must match/);
    expect(both("POST", "/_emulator/clock", { days: -1 })[1]).toBe(
      "Invalid value for days: an integer from 0 to 3650.",
    );
  });
});

describe("reference documents", () => {
  const emu = makeEmulator({ companies: 200 });
  const call = caller(emu, "");

  it("the curl samples let the shell expand the key variable", () => {
    const doc = call("GET", "/v2/openapi.json").json;
    let n = 0;
    for (const ops of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(ops)) {
        const src: string = op["x-codeSamples"][0].source;
        expect(src).toContain('-H "Authorization: Bearer $COMPANY_DATA_API_KEY"');
        // No single-quoted span of the command contains the variable.
        for (const quoted of src.match(/'[^']*'/g) ?? []) expect(quoted).not.toContain("$");
        n++;
      }
    }
    expect(n).toBeGreaterThan(20);
  });

  it("the German docs page has no English description text", () => {
    const de = caller(emu, "", "DE")("GET", "/v2/docs").raw;
    const en = caller(emu, "", "EN")("GET", "/v2/docs").raw;
    const text = (html: string) =>
      html
        .replace(/<style>[\s\S]*?<\/style>/g, "")
        .replace(/<(pre|code)>[\s\S]*?<\/\1>/g, "")
        .replace(/<[^>]+>/g, " ");
    for (const english of ["Generated from", "Labels follow", "Maximum size", "(rate-limited)", "per company"])
      expect(text(de)).not.toContain(english);
    expect(text(de)).toContain("Erzeugt aus");
    expect(text(de)).toContain("je Firma");
    expect(text(en)).toContain("Generated from");
  });
});

describe("generated sentences ending in a name", () => {
  it("sentence() adds exactly one full stop", () => {
    expect(sentence("Vermögen der Lindner e.K.")).toBe("Vermögen der Lindner e.K.");
    expect(sentence("Vermögen der Lindner GmbH")).toBe("Vermögen der Lindner GmbH.");
  });

  it("no announcement, change, news or job text has a double full stop, e.K. companies included", () => {
    const emu = makeEmulator({ companies: 3000 });
    const w = emu.world;
    const ek = w.companies.filter((c) => c.name.endsWith(".") && w.status(c) === "ACTIVE");
    expect(ek.length).toBeGreaterThan(10);
    // Insolvency texts end with the company name.
    for (const c of ek.slice(0, 5)) emu.scheduleEvent(c.id, { day: 1, kind: "INSOLVENCY" });
    emu.clock.advance(3);
    const call = caller(emu, emu.demoKey, "DE");
    let insolvencyTexts = 0;
    for (const c of ek.slice(0, 5)) {
      for (const lang of ["DE", "EN"]) {
        const a = caller(emu, emu.demoKey, lang)("GET", `/v2/companies/${c.id}/announcements`).json.announcements;
        const ins = a.find((x: any) => x.type.code === "INSOLVENCY");
        expect(ins.text.endsWith(c.name), ins.text).toBe(true);
        insolvencyTexts++;
      }
    }
    expect(insolvencyTexts).toBe(10);
    for (const c of ek) {
      const texts = [
        ...w.announcementsView(c, "de").map((a) => a.text),
        ...w.announcementsView(c, "en").map((a) => a.text),
        ...w.changesView(c, "de", 0).map((x) => x.text),
        ...w.news(c).map((n) => n.text),
        ...w.jobs(c).map((j) => j.text),
      ];
      for (const t of texts) expect(t, c.name).not.toContain("..");
    }
    expect(call("GET", "/v2/account").status).toBe(200);
  });
});
