/** Health (admin): the doctor's verdict and drift, the API's reachability, the database, the version; acknowledge drift. */
import { act, api, load, t, when, type Console } from "../app.ts";
import { button, h } from "../widgets.ts";

interface HealthData {
  version: string;
  process: string;
  database: { kind: string; ok: boolean; ms: number };
  api: { reachable: boolean; verdict: string; checkedAt: string } | null;
  doctor: {
    verdict: string;
    checkedAt: string;
    breaking: string[];
    acknowledged: string[];
    refusing: boolean;
    report: string[];
  } | null;
}

export function healthView(c: Console): HTMLElement {
  const d = load(c, "health", () => api<HealthData>(c, "/console/api/admin/health"));
  if (!d) return h("p", { class: "cd-note" }, t(c, "loading"));
  const row = (id: string, k: string, v: string, cls = "") =>
    h("div", null, h("dt", null, k), h("dd", { id, class: cls }, v));
  const doc = d.doctor;
  return h(
    "div",
    { class: "cc-view" },
    h("h2", { class: "cd-panel-title" }, t(c, "healthTitle")),
    h(
      "dl",
      { class: "cc-totals cc-health" },
      row("health-version", t(c, "version"), d.version),
      row(
        "health-db",
        t(c, "database"),
        `${d.database.kind} · ${d.database.ok ? t(c, "yes") : t(c, "no")} · ${d.database.ms} ms`,
      ),
      row(
        "health-api",
        t(c, "apiReach"),
        d.api ? `${d.api.reachable ? t(c, "yes") : t(c, "no")} (${when(d.api.checkedAt)})` : t(c, "notChecked"),
        d.api && !d.api.reachable ? "cc-bad" : "",
      ),
      row("health-verdict", t(c, "doctor"), doc ? `${doc.verdict} (${when(doc.checkedAt)})` : t(c, "notChecked")),
      row(
        "health-drift",
        t(c, "drift"),
        !doc || doc.breaking.length === 0
          ? t(c, "driftNone")
          : doc.refusing
            ? `${doc.breaking.join("; ")} — ${t(c, "driftRefusing")}`
            : `${doc.breaking.join("; ")} — ${t(c, "driftAcked")}`,
        doc?.refusing ? "cc-bad" : "",
      ),
    ),
    doc?.report.length ? h("pre", { class: "cc-report", id: "health-report" }, doc.report.join("\n")) : null,
    h(
      "div",
      { class: "cd-actions" },
      button(
        c,
        "health-check",
        t(c, "checkNow"),
        () =>
          void act(
            c,
            async () => void (c.data.health = await api<HealthData>(c, "/console/api/admin/health/check", {})),
          ),
      ),
      button(
        c,
        "health-ack",
        t(c, "ack"),
        () =>
          void act(c, async () => void (c.data.health = await api<HealthData>(c, "/console/api/admin/health/ack", {}))),
        { disabled: !doc?.refusing },
      ),
    ),
  );
}
