/**
 * Issue 25: the scheduled check must not depend on the document's property
 * store. Google's references allow a time-driven trigger of an editor add-on
 * each of these (https://developers.google.com/workspace/add-ons/concepts/editor-triggers,
 * "Time-driven"; getDocumentProperties() "returns null" "when document
 * properties are not available":
 * https://developers.google.com/apps-script/reference/properties/properties-service#getDocumentProperties();
 * getDocumentLock() null "outside of the context of a containing document":
 * https://developers.google.com/apps-script/reference/lock/lock-service#getDocumentLock()).
 * In every variant the daily check finds the day-3 insolvency, writes it
 * into the portfolio sheet, alerts once by e-mail and by a Teams Workflow
 * webhook, and the sidebar of another editor (not the trigger's owner) shows
 * the run.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildWithReport } from "../../scripts/build-apps-script.ts";
import { createEmulator } from "../../emulator/index.ts";
import type { HttpRequest } from "../../shared/core/http.ts";
import { createSheetsFake, DOCUMENT_ID, type SheetsOptions } from "./harness.ts";
import { nth } from "../helpers/indexed.ts";

const OUT = mkdtempSync(join(tmpdir(), "apps-script-trigger-context-"));
let code = "";
const HOUR = 3_600_000;
const TEAMS =
  "https://prod-27.germanywestcentral.logic.azure.com:443/workflows/4f1c/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=teams-secret";

beforeAll(async () => {
  await buildWithReport(OUT);
  code = readFileSync(join(OUT, "Code.js"), "utf8");
});

type Envelope<T = unknown> = { ok: boolean; value: T; error?: { message: { de: string; en: string } } };

function world(triggerContext: SheetsOptions["triggerContext"]) {
  const clock = { t: 0 };
  const emu = createEmulator({ companies: 400, seed: 11, startDate: "2026-01-15", now: () => clock.t });
  const at = (hour: number) => Date.parse(`${emu.clock.today()}T00:00:00Z`) + hour * HOUR;
  clock.t = at(5);
  const ids = emu.companies.ids().slice(0, 10);
  const posts: HttpRequest[] = [];
  const f = createSheetsFake({
    emulator: emu,
    dist: OUT,
    now: () => clock.t,
    sheets: { Portfolio: [["ID"], ...ids.map((id) => [id])] },
    onSleep: (ms) => {
      clock.t += ms;
    },
    triggerContext,
    webhook: {
      match: /logic\.azure\.com\//,
      answer: (r) => {
        posts.push(r);
        return 202;
      },
    },
  });
  f.load(code);
  f.setClock(() => clock.t);
  const key = emu.createKey(1_000_000);
  for (const [k, v] of Object.entries({ apiKey: key, baseUrl: "https://api.implisense.com", language: "en" }))
    f.setUser(k, v);
  const ui = <T>(method: string, input: unknown) =>
    JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as Envelope<T>;
  return { emu, f, ids, posts, ui, clock, at };
}

type Status = {
  hostNote: { de: string; en: string };
  last: { status: string; finishedAt: string | number } | null;
  paused: boolean;
};

describe.each([
  ["document store and lock present", { documentProperties: true, documentLock: true }],
  ["document store null", { documentProperties: false, documentLock: true }],
  ["document lock null", { documentProperties: true, documentLock: false }],
  ["both null", { documentProperties: false, documentLock: false }],
] as const)("the scheduled check in a trigger (%s)", (_label, triggerContext) => {
  it("on day 3 writes the insolvency into the portfolio sheet and alerts once; another editor's sidebar shows the run", () => {
    const w = world(triggerContext);
    const target = nth(w.ids, 3);
    w.emu.scheduleEvent(target, { day: 3, kind: "INSOLVENCY" });
    const alerts = w.ui("monitorSaveAlerts", { alerts: { email: "risk@example.com", webhook: TEAMS } });
    expect(alerts.ok, JSON.stringify(alerts.error)).toBe(true);
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "daily", hour: 7 } }).ok).toBe(true);

    const setNow = (ms: number) => {
      w.clock.t = ms;
    };
    const riskOf = () => {
      const grid = w.f.grids.get("Portfolio")!;
      const header = nth(grid, 0).map(String);
      const row = grid.find((r) => r[0] === target)!;
      return String(row[header.findIndex((h) => /^Risk/.test(h))] ?? "");
    };
    for (let day = 0; day <= 4; day++) {
      if (day > 0) {
        w.emu.clock.advance(1);
        setNow(w.at(5));
      }
      const runs = w.f.runSchedule(w.at(5), w.at(23), setNow);
      expect(
        runs.filter((r) => r.error),
        `day ${day}`,
      ).toEqual([]);
      expect(runs.length, `day ${day}: the daily tick`).toBeGreaterThan(0);
      if (day < 3) expect(riskOf(), `day ${day}`).not.toBe("Risk");
    }
    // The insolvency, in the sheet.
    expect(riskOf()).toBe("Risk");
    // Alerted once by e-mail and once by the Teams Workflow (the address as Teams gives it, port 443 and all).
    expect(w.f.mails.filter((m) => m.body.includes(target))).toHaveLength(1);
    const teams = w.posts.filter((p) => p.body!.includes(target));
    expect(teams).toHaveLength(1);
    expect(nth(teams, 0).url).toBe(TEAMS.replace(":443", ""));
    // No scheduled run failed, and the tick wrote nothing into the user's store but its own records.
    expect([...w.f.userProps.map.keys()].filter((k) => /doc:|mon:/.test(k))).toEqual([]);

    // Another editor (their own key) opens the Monitor sidebar: the owner's trigger's run is there, no failure note.
    const editorKey = w.emu.createKey(1_000);
    for (const [k, v] of Object.entries({ apiKey: editorKey, baseUrl: "https://api.implisense.com", language: "en" }))
      w.f.userPropsOf("editor").setProperty(`user:${k}`, v);
    w.f.actAs("editor");
    const status = w.ui<Status>("monitorStatus", {});
    expect(status.ok).toBe(true);
    expect(status.value.last).toMatchObject({ status: "done" });
    expect(Date.parse(String(status.value.last!.finishedAt))).toBeGreaterThan(w.at(5)); // today's run, by the owner's trigger
    expect(status.value.hostNote.en).not.toMatch(/failed/);
    // The editor's "Check now" sees the same state: nothing new to log or send.
    expect(w.ui("monitorRun", {}).ok).toBe(true);
    expect(w.f.mails.filter((m) => m.body.includes(target))).toHaveLength(1);
    expect(w.posts.filter((p) => p.body!.includes(target))).toHaveLength(1);
    // The editor's own user store has no trigger of theirs, and the owner's trigger is still the one.
    expect(w.f.triggers.filter((t) => t.documentId === DOCUMENT_ID).map((t) => t.owner)).toEqual(["owner"]);
  });
});

describe("what the state sheet holds", () => {
  it("state is in the hidden, warning-protected sheet; the webhook's secret address only in project metadata, never in a cell", () => {
    const w = world({});
    expect(w.ui("monitorSaveAlerts", { alerts: { email: "risk@example.com", webhook: TEAMS } }).ok).toBe(true);
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "hourly" } }).ok).toBe(true);
    expect(w.ui("monitorRun", {}).ok).toBe(true);
    const state = w.f.state();
    expect([...state.keys()].some((k) => k.startsWith("doc:mon:") && k.includes(":c:"))).toBe(true);
    expect([...state.keys()]).toContain("companyData.monitorTrigger");
    expect(w.f.hidden.has("Company data (add-on)")).toBe(true);
    expect(w.f.protectedSheets.get("Company data (add-on)")).toBe("warning");
    const cells = JSON.stringify([...w.f.grids.values()]);
    expect(cells).not.toContain("teams-secret");
    expect(w.f.metadata).toEqual([expect.objectContaining({ visibility: "PROJECT" })]);
    expect(nth(w.f.metadata, 0).value).toContain("teams-secret");
    // Nothing of it in the document's properties.
    expect(
      [...w.f.docProps.map.keys()].filter((k) => k.startsWith("doc:mon:") || k.startsWith("companyData.")),
    ).toEqual([]);
  });

  it("an update moves what an earlier version kept in the document's properties when the sidebar opens: nothing lost, read by the versioned schemas", () => {
    const w = world({});
    // State as the previous version left it (schedule v1, a run marker of a dead run, an installed trigger record).
    expect(w.ui("monitorSaveAlerts", { alerts: { email: "risk@example.com", webhook: TEAMS } }).ok).toBe(true);
    expect(w.ui("monitorSaveSchedule", { schedule: { enabled: true, frequency: "daily", hour: 9 } }).ok).toBe(true);
    expect(w.ui("monitorRun", {}).ok).toBe(true);
    const before = w.ui<Status & { schedule: unknown; alerts: unknown }>("monitorStatus", {}).value;
    // Put everything back where the previous version kept it.
    const old: Record<string, string> = {};
    for (const [k, v] of w.f.state()) old[k] = v;
    for (const m of w.f.metadata.splice(0)) old[m.key.replace(/^companyData:/, "")] = m.value;
    w.f.grids.delete("Company data (add-on)");
    for (const [k, v] of Object.entries(old)) if (v.length < 8000) w.f.docProps.setProperty(k, v);
    expect(Object.keys(old).length).toBeGreaterThan(10);

    const after = w.ui<Status & { schedule: unknown; alerts: unknown }>("monitorStatus", {}).value;
    expect(after.schedule).toEqual(before.schedule);
    expect(after.alerts).toEqual(before.alerts);
    expect(after.last).toEqual(before.last);
    expect(
      [...w.f.docProps.map.keys()].filter((k) => k.startsWith("doc:mon:") || k.startsWith("companyData.")),
    ).toEqual([]);
    for (const k of Object.keys(old))
      if (old[k]!.length < 8000 && k !== "doc:mon:alerts") expect(w.f.state().get(k), k).toBe(old[k]);
  });
});
