/**
 * A portfolio schedule on a team server (server/schedules/), from any host:
 * register the portfolio with its schedule and alert channels, and fetch
 * what the server's runs found since a cursor (the last run seen). Sans IO:
 * requests as `http` effects with the user's personal token, the server's
 * error answers as the API's (errorFromResponse), so a host shows them like
 * any other. The CLI (`company-data monitor --server`) prints them; the
 * result of each run is what the server's check wrote: the companies it
 * screened, the change log's new lines, the credits, the alerts.
 */
import { errorFromResponse, type ClientConfig } from "../api/index.ts";
import { CompanyDataError, http, type Cell, type Operation } from "../core/index.ts";
import type { Bilingual, Language } from "../i18n/index.ts";
import { idFromCell, layoutOf } from "./layout.ts";
import { GROUP_LABEL, type RiskGroup } from "./risk.ts";

export type ServerFrequency = "hourly" | "daily" | "weekly";

export interface ServerScheduleInput {
  companies: string[];
  frequency: ServerFrequency;
  hour: number;
  weekday?: number;
  budget: number | null;
  webhooks: string[];
  emails: string[];
  language: Language;
  /** Shared with the team read-only (server migration 140); absent: a new schedule is not, a replaced one keeps it. */
  shared?: boolean;
}

export interface ServerScheduleView extends Omit<ServerScheduleInput, "weekday"> {
  name: string;
  weekday: number;
  nextRun: string;
  /** Whether the server sends e-mail (an SMTP relay is configured); absent from servers before it was answered. */
  mail?: boolean;
  /** Shared with the team read-only, and its stable id (servers from migration 140 on). */
  shared?: boolean;
  shareId?: string;
}

/** A schedule read by its share id (GET /shared-schedules/ID): what any reader may see of it. */
export interface SharedScheduleView {
  name: string;
  shareId: string;
  shared: boolean;
  /** The owner's user name on the server, and whether that is the caller. */
  owner: string;
  mine: boolean;
  /** How many companies it checks. */
  companies: number;
  frequency: ServerFrequency;
  hour: number;
  weekday: number;
  nextRun: string;
  mail: boolean;
}

export interface ServerRunCompany {
  id: string;
  name: string | null;
  group: RiskGroup;
  code: string;
  flag: Bilingual;
  keyFigure?: { year: number; netIncome: number | null; revenue: number | null } | null;
  lastChange?: string | null;
  checkedAt: string;
  newChanges: number;
}

export interface ServerRun {
  id: number;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  credits: number;
  result: {
    status: string;
    message: Bilingual;
    estimate: number;
    spent: number;
    charged: number;
    companies: ServerRunCompany[];
    changes: Cell[][];
    alerts: { channel: string; target: string; status: string; error?: Bilingual }[];
    errors: Bilingual[];
  };
}

export interface ServerRuns {
  runs: ServerRun[];
  cursor: number;
  more: boolean;
}

const schedulePath = (cfg: ClientConfig, name: string) =>
  `${cfg.baseUrl.replace(/\/+$/, "")}/schedules/${encodeURIComponent(name)}`;
const sharedPath = (cfg: ClientConfig, shareId: string) =>
  `${cfg.baseUrl.replace(/\/+$/, "")}/shared-schedules/${encodeURIComponent(shareId)}`;

function* request<T>(cfg: ClientConfig, method: "GET" | "POST", url: string, body?: unknown): Operation<T> {
  const [res] = yield* http([
    {
      method,
      url,
      headers: {
        Authorization: `Bearer ${cfg.apiKey ?? ""}`,
        "Accept-Language": cfg.language,
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    },
  ] as const);
  if (res.status < 200 || res.status >= 300) throw errorFromResponse(res, cfg.now(), cfg.credential);
  try {
    return JSON.parse(res.body) as T;
  } catch {
    throw new CompanyDataError("MALFORMED_RESPONSE");
  }
}

/** Register (or replace) the portfolio `name` on the team server. */
export function* registerServerSchedule(
  cfg: ClientConfig,
  name: string,
  input: ServerScheduleInput,
): Operation<ServerScheduleView> {
  return yield* request<ServerScheduleView>(cfg, "POST", schedulePath(cfg, name), input);
}

/** Remove the schedule `name` (its watermarks, change log and runs); false when the server has none of that name. */
export function* deleteServerSchedule(cfg: ClientConfig, name: string): Operation<boolean> {
  try {
    yield* request<unknown>(cfg, "POST", `${schedulePath(cfg, name)}/delete`, {});
    return true;
  } catch (e) {
    if (e instanceof CompanyDataError && e.code === "NOT_FOUND") return false;
    throw e;
  }
}

/** The user's schedules on the server, and whether the server sends e-mail. */
export function* serverSchedules(cfg: ClientConfig): Operation<{ schedules: ServerScheduleView[]; mail: boolean }> {
  const answer = yield* request<{ schedules?: ServerScheduleView[]; mail?: boolean }>(
    cfg,
    "GET",
    `${cfg.baseUrl.replace(/\/+$/, "")}/schedules`,
  );
  return { schedules: answer.schedules ?? [], mail: answer.mail === true };
}

/** The owner shares the schedule `name` with the team read-only, or stops. */
export function* shareServerSchedule(cfg: ClientConfig, name: string, shared: boolean): Operation<ServerScheduleView> {
  return yield* request<ServerScheduleView>(cfg, "POST", `${schedulePath(cfg, name)}/share`, { shared });
}

/** The schedule of share id `shareId` as the caller may read it; null when it is not shared with them (or gone). */
export function* sharedServerSchedule(cfg: ClientConfig, shareId: string): Operation<SharedScheduleView | null> {
  try {
    return yield* request<SharedScheduleView>(cfg, "GET", sharedPath(cfg, shareId));
  } catch (e) {
    if (e instanceof CompanyDataError && e.code === "NOT_FOUND") return null;
    throw e;
  }
}

/**
 * The finished runs after `cursor` (0: all kept), following the server's pages to the end: by the
 * schedule's share id when known (the owner's own, or one shared with the caller), else by its name
 * under the caller's user.
 */
export function* serverRunsSince(
  cfg: ClientConfig,
  name: string,
  cursor: number,
  shareId?: string | null,
): Operation<ServerRuns> {
  const runs: ServerRun[] = [];
  const base = shareId ? sharedPath(cfg, shareId) : schedulePath(cfg, name);
  let at = cursor;
  for (;;) {
    const page = yield* request<ServerRuns>(cfg, "GET", `${base}/runs?after=${at}`);
    runs.push(...page.runs);
    at = page.cursor;
    if (!page.more || page.runs.length === 0) return { runs, cursor: at, more: false };
  }
}

/** The company ids of a portfolio table (its ID column, as the check reads it), and how many rows have none. */
export function portfolioIds(
  table: readonly (readonly Cell[])[],
  lang: Language,
): { ids: string[]; withoutId: number } {
  const [header = [], ...rows] = table;
  const layout = layoutOf(header, lang);
  const ids: string[] = [];
  let withoutId = 0;
  for (const row of rows) {
    if (row.every((c) => c === "" || c === null)) continue;
    const id = layout.input.id !== undefined ? idFromCell(row[layout.input.id] ?? null) : null;
    if (id) ids.push(id.id);
    else withoutId++;
  }
  return { ids: [...new Set(ids)], withoutId };
}

const T = {
  run: {
    de: (at: string, status: string, credits: number) => `Lauf ${at}: ${status}, ${credits} Credits`,
    en: (at: string, status: string, credits: number) => `Run ${at}: ${status}, ${credits} credits`,
  },
  risk: {
    de: (name: string, flag: string) => `  Risiko: ${name} – ${flag}`,
    en: (name: string, flag: string) => `  Risk: ${name} – ${flag}`,
  },
  alertFailed: {
    de: (channel: string, target: string, why: string) =>
      `  Benachrichtigung ${channel} (${target}) fehlgeschlagen: ${why}`,
    en: (channel: string, target: string, why: string) => `  Alert ${channel} (${target}) failed: ${why}`,
  },
  nothing: { de: "Keine neuen Läufe seit dem letzten Abruf.", en: "No new runs since the last fetch." },
};

/** What the runs found, as lines in the user's language: per run its status and credits, companies in risk, new changes, failed alerts and errors. */
export function serverRunsText(runs: readonly ServerRun[], lang: Language): string[] {
  if (runs.length === 0) return [T.nothing[lang]];
  const lines: string[] = [];
  for (const r of runs) {
    const at = (r.finishedAt ?? r.startedAt).slice(0, 16).replace("T", " ");
    lines.push(`${T.run[lang](at, r.status, r.credits)} – ${r.result.message?.[lang] ?? ""}`.trim());
    for (const c of r.result.companies ?? [])
      if (c.group === "risk")
        lines.push(T.risk[lang](`${c.name ?? c.id} (${c.id})`, `${GROUP_LABEL.risk[lang]}: ${c.flag[lang]}`));
    for (const l of r.result.changes ?? [])
      lines.push(
        `  ${l
          .slice(0, 5)
          .map((v) => String(v ?? ""))
          .join(" · ")}`,
      );
    for (const a of r.result.alerts ?? [])
      if (a.status === "failed" || a.status === "not-configured")
        lines.push(T.alertFailed[lang](a.channel, a.target, a.error?.[lang] ?? a.status));
    for (const e of r.result.errors ?? []) lines.push(`  ${e[lang]}`);
  }
  return lines;
}
