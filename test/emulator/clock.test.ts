import { describe, expect, it } from "vitest";
import { caller, makeEmulator, START } from "./helpers.ts";
import { nth } from "../helpers/indexed.ts";

describe("the clock", () => {
  it("starts at the start date and moves by days or to a date", () => {
    const emu = makeEmulator({ companies: 2000 });
    const ctl = caller(emu, "");
    expect(emu.clock.today()).toBe(START);
    expect(ctl("POST", "/_emulator/clock", { days: 3 }).json.today).toBe("2026-06-04");
    expect(ctl("POST", "/_emulator/clock", { date: "2026-06-10" }).json.today).toBe("2026-06-10");
    expect(ctl("GET", "/_emulator/clock").json).toMatchObject({ startDate: START, today: "2026-06-10", day: 9 });
    expect(ctl("POST", "/_emulator/clock", { date: "2026-05-01" }).status).toBe(400);
    expect(ctl("POST", "/_emulator/clock", { days: -1 }).status).toBe(400);
  });

  it("advancing creates changes and announcements that `since` separates day by day", () => {
    const emu = makeEmulator({ companies: 2000 });
    const call = caller(emu);
    const events = emu.clock.advance(5);
    expect(events.length).toBeGreaterThan(5);
    const e = events.find((x) => x.kind === "ADDRESS" || x.kind === "CAPITAL" || x.kind === "MANAGEMENT")!;
    const all = call("GET", `/v2/companies/${e.id}/changes?since=${START}`).json;
    expect(all.changes.some((c: any) => c.date.startsWith(e.date))).toBe(true);
    // Strictly after: a since at the end of the event's day excludes it.
    const after = call("GET", `/v2/companies/${e.id}/changes?since=${e.date}T23:59:59Z`).json;
    expect(after.changes.some((c: any) => c.date.startsWith(e.date))).toBe(false);
    for (const c of all.changes) expect(Date.parse(c.date)).toBeGreaterThan(Date.parse(START));
    // `until` is the next `since`: nothing new until the clock moves again.
    expect(call("GET", `/v2/companies/${e.id}/changes?since=${all.until}`).json.changes).toEqual([]);
    const ann = call("GET", `/v2/companies/${e.id}/announcements?since=${START}`).json.announcements;
    expect(ann.length).toBeGreaterThan(0);
  });

  it("a scheduled insolvency shows in the profile's status fields on that day, not before", () => {
    const emu = makeEmulator({ companies: 2000 });
    const call = caller(emu);
    const id = nth(emu.companies.withStatus("ACTIVE"), 100);
    emu.scheduleEvent(id, { day: 3, kind: "INSOLVENCY" });
    emu.clock.advance(2);
    let p = call("GET", `/v2/companies/${id}`).json;
    expect(p.status.code).toBe("ACTIVE");
    expect(p.insolvencyDate).toBeNull();
    emu.clock.advance(1);
    p = call("GET", `/v2/companies/${id}`).json;
    expect(p.active).toBe(false);
    expect(p.status.code).toBe("INSOLVENT");
    expect(p.insolvencyDate).toBe("2026-06-04");
    expect(p.warningExists).toBe(true);
    expect(p.lastChangeDate).toBe("2026-06-04");
    const ch = call("GET", `/v2/companies/${id}/changes?since=2026-06-03`).json.changes;
    expect(ch[0]).toMatchObject({ kind: { code: "STATUS" }, newValue: "INSOLVENT" });
    const ann = call("GET", `/v2/companies/${id}/announcements?size=1`).json.announcements;
    expect(ann[0].type.code).toBe("INSOLVENCY");
    expect(call("POST", "/v2/search", { query: "", filters: { active: false }, size: 100 }).json.total).toBeGreaterThan(
      0,
    );
  });

  it("scheduling through the control endpoint, and previews of what is coming", () => {
    const emu = makeEmulator({ companies: 2000 });
    const ctl = caller(emu, "");
    const id = emu.companies.withStatus("ACTIVE")[5];
    expect(ctl("POST", "/_emulator/schedule", { id, date: "2026-06-03", kind: "LIQUIDATION" }).json.day).toBe(2);
    const coming = emu.companies.upcoming(2, "LIQUIDATION");
    expect(coming.some((e) => e.id === id && e.date === "2026-06-03")).toBe(true);
    expect(emu.clock.today()).toBe(START);
    ctl("POST", "/_emulator/clock", { days: 2 });
    expect(caller(emu)("GET", `/v2/companies/${id}`).json.liquidationDate).toBe("2026-06-03");
  });

  it("is deterministic: same seed, same days, same events; moving back replays", () => {
    const a = makeEmulator({ companies: 2000 }),
      b = makeEmulator({ companies: 2000 });
    const ea = a.clock.advance(10),
      eb = b.clock.advance(10);
    expect(ea).toEqual(eb);
    const before = a.clock.setDate("2026-06-05");
    expect(a.clock.today()).toBe("2026-06-05");
    expect(before).toEqual(ea.filter((e) => e.day <= 4));
    const c = makeEmulator({ companies: 2000, seed: 7 });
    expect(c.clock.advance(10)).not.toEqual(ea);
  });

  it("some companies start inactive, in liquidation or insolvent", () => {
    const emu = makeEmulator({ companies: 4000 });
    for (const s of ["INSOLVENT", "IN_LIQUIDATION", "DELETED", "INACTIVE"] as const)
      expect(emu.companies.withStatus(s).length, s).toBeGreaterThan(0);
    const id = emu.companies.withStatus("INSOLVENT")[0];
    const p = caller(emu)("GET", `/v2/companies/${id}`).json;
    expect(p.active).toBe(false);
    expect(p.insolvencyDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
