/**
 * Over 400 lines on purpose: the whole UI protocol in one file, the only one the UI depends on.
 *
 * The app service's wire protocol: the method names, what each takes and
 * answers (plain JSON), and the envelope every host returns to the UI.
 * The UI (shared/ui/) depends on this file only, never on the core.
 */
import type { LedgerEntry } from "../credits/index.ts";
import type { Mailer } from "../monitor/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import type { ErrorCode } from "../core/index.ts";
import type { Cell } from "../core/index.ts";
import type { SettingsView, HostKind, ContextInputs, ConnectionMode, SettingsPatch } from "./settings.ts";
import type { Operation } from "../core/index.ts";
import type { RunSummary, ScheduleEstimate, ScheduleSettings } from "../monitor/index.ts";
import type { RefreshEstimate, RefreshSettings, RefreshSummary } from "../refresh/index.ts";
import type { DoctorReport } from "../doctor/index.ts";
import type { AlertChannelView, WebhookSender } from "../monitor/index.ts";
import type { MonthSpend } from "../refresh/index.ts";
import type { RunsView, UndoResult } from "../undo/index.ts";

/** What the Monitor panel shows (monitorStatus and the save methods answer it). */
export interface MonitorStatusView {
  schedule: ScheduleSettings;
  last: RunSummary | null;
  /** A run paused at a time limit and will continue. */
  paused: boolean;
  /** What this host can and cannot do on a schedule. */
  hostNote: Bilingual;
  /** The alert channels: where they go, how many companies wait, the last delivery (a failed one says why). */
  alerts: AlertChannelView[];
  /** Who posts the webhook (the panel offers Slack and Teams only where they can arrive). */
  webhookSender: WebhookSender;
  /** With a team server as the connection: the portfolio schedule on the server (shared/app/monitor-server.ts). */
  server?: ServerScheduleStatus;
  /** Excel only: whether the workbook starts the add-in when it is opened (shared/app/monitor-startup.ts). */
  startup?: StartupStatus;
}

/** Whether an Excel workbook starts the add-in when it opens (Office.addin.setStartupBehavior) while a schedule is on. */
export interface StartupStatus {
  /** The workbook starts the add-in while a schedule is on. */
  on: boolean;
  /** Someone chose it for this workbook (else the default: on for a check in the workbook, off with a team server). */
  chosen: boolean;
}

/** A team server's run as the Monitor panel shows it. */
export interface ServerRunView {
  id: number;
  finishedAt: string | null;
  status: string;
  message: Bilingual;
  credits: number;
}

/** The portfolio schedule on the team server, as this workbook knows it. */
export interface ServerScheduleStatus {
  /** The schedule's name on the server: this workbook's own, kept in its document store. */
  name: string;
  /** The schedule is registered (switched on) on the server. */
  registered: boolean;
  /** The server's next run (ISO, UTC); null when unknown. */
  nextRun: string | null;
  /** The server sends e-mail (an SMTP relay is configured): only then does the panel offer recipients. */
  mail: boolean;
  /** The last server run written into this workbook. */
  lastRun: ServerRunView | null;
  /** When this workbook last fetched the server's runs. */
  syncedAt: string | null;
  /** The server could not be asked just now: why (what was last known is shown). */
  unreachable?: Bilingual;
  /** The owner shares it with the team read-only: colleagues who open the workbook sync its runs (monitorShare). */
  shared: boolean;
  /** Set when the schedule is another user's (shared with this one): their name; this copy only fetches its runs. */
  owner?: string;
}

/** What monitorSync wrote: the server's runs since the last fetch. */
export interface MonitorSyncView {
  runs: number;
  /** Companies with a new result, the rows written for them, the change-log lines appended. */
  companies: number;
  rows: number;
  lines: number;
  lastRun: ServerRunView | null;
}

/** What the refresh section shows (refreshStatus and its save method answer it). */
export interface RefreshStatusView {
  settings: RefreshSettings;
  last: RefreshSummary | null;
  /** The last step stopped at a time limit: the next call or tick continues it. */
  paused: boolean;
  month: MonthSpend;
  hostNote: Bilingual;
}

export type { SettingsView, HostKind };

/** What a host hands the app service besides the driver: clock, randomness, deadline, document. */
export interface AppDeps extends ContextInputs {
  host: HostKind;
  /** Who the runs of this call are audited as (an e-mail, an account name); "" when the host cannot tell. */
  who?: string;
  /** How the host sends e-mail (Apps Script's MailApp); hosts without one have no e-mail alerts. */
  mailer?: Mailer;
}

/**
 * One method of the app service. Its input arrives as JSON from the UI (or
 * a host's loop), so the method validates it as `unknown`; the output is the
 * one AppApi declares for the method's name.
 */
export type AppMethod<O = unknown> = (deps: AppDeps, input: unknown) => Operation<O>;

export interface AppError {
  code: ErrorCode;
  /** Ready to show, in both languages: the UI picks the current one. */
  message: Bilingual;
  field?: string;
  retryAt?: number;
  /** Refused by a team server (its budgets are its admin's): the UI offers no top-up. */
  teamServer?: true;
}

export type AppResult<T = unknown> = { ok: true; value: T } | { ok: false; error: AppError };

// ------------------------------------------------------------------ views

/** A company as the UI lists it: flat, display-ready text. */
export interface CompanyRow {
  id: string;
  name: string;
  legalForm: string;
  street: string;
  zip: string;
  city: string;
  state: string;
  register: string;
  industry: string;
  size: string;
  /** The status label as the service gave it (in the request's language). */
  status: string;
  /** The status code (ACTIVE, IN_LIQUIDATION, INSOLVENT, DELETED, INACTIVE), so the UI can label it in either language; "" when unknown. */
  statusCode?: string;
  active: boolean | null;
  score: number | null;
  distanceKm: number | null;
}

export interface CostView {
  credits: number;
  requests: number;
  paidRequests: number;
  freeRequests: number;
  breakdown: { label: Bilingual; credits: number; requests: number }[];
}

export interface ConnectionResult {
  credits: number;
  plan: string | null;
  /** Where the test went: the API's base URL, or the team server's URL. */
  baseUrl: string;
  connection: ConnectionMode;
  /** Through a team server: whose token was tested (the user's name); null from the API itself. */
  user: string | null;
}

/** One line of the spend log, as the ledger keeps it. */
export type { LedgerEntry };

export interface AccountView {
  credits: number;
  plan: string | null;
  usageToday: number | null;
  usageMonth: number | null;
  /** Through a team server: the user whose personal token is used (the API itself names nobody: null). */
  user: string | null;
  /** What this add-on spent per day and operation, newest first. */
  ledger: LedgerEntry[];
  budget: { limit: number; usedToday: number };
}

/**
 * What the search method uses when the UI leaves size or radius empty: the
 * same defaults as COMPANY_SEARCH / COMPANY.SEARCH (shared/api/defaults.ts),
 * re-exported because the UI depends on this file only.
 */
export { SEARCH_DEFAULTS } from "../api/index.ts";

export interface SearchInput {
  query: string;
  place?: string;
  radiusKm?: number;
  size?: number;
  /** Filters as typed (shared/operations/search-filters.ts FilterInput). */
  filters?: SearchFilterInput;
}
export type { FilterInput as SearchFilterInput } from "../operations/index.ts";
import type { FilterInput as SearchFilterInput } from "../operations/index.ts";
export interface SearchAllPriceView extends CostView {
  /** Companies the insert will write (before leaving out ones already in the sheet). */
  results: number;
  pages: number;
}

export interface InsertAllOutput {
  sheet: string;
  row: number;
  col: number;
  /** Rows written, header included. */
  rows: number;
  cols: number;
  total: number;
  companies: number;
  excluded: number;
  credits: number;
  complete: boolean;
}

export interface SavedSearch {
  name: string;
  /** The search as the panel sent it (filters as typed). */
  input: SearchInput;
  /** yyyy-mm-dd of the last run; null before the first. */
  lastRun: string | null;
}

export interface SavedRunOutput extends SearchOutput {
  name: string;
  /** The run looked for companies founded after this day; null on a first run (everything). */
  since: string | null;
}

/** "Insert all N": the search, the total its first page told, and (for the insert) the credits the user confirmed. */
export interface SearchAllInput extends SearchInput {
  total: number;
  credits?: number;
  /** Leave out companies whose id is already in this sheet. */
  excludeSheet?: string;
}
export interface SearchOutput {
  total: number | null;
  companies: CompanyRow[];
  credits: number;
}

export interface InsertInput {
  companies: CompanyRow[];
  /** CompanyRow keys to write, in order; default: all. */
  columns?: (keyof CompanyRow)[];
  header?: boolean;
  /** cursor (default): at the selection, only into empty cells unless confirmed; below: under the sheet's data, in empty rows. */
  place?: "cursor" | "below";
  /** The user confirmed overwriting this many non-empty cells at the cursor (written only if it is still that many). */
  overwrite?: number;
}
export interface InsertOutput {
  sheet: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
  /** Nothing was written: this many non-empty cells at the cursor would be overwritten; ask the user first. */
  wouldOverwrite?: number;
}

export interface SelectionView {
  sheet: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
  /** The first row, read as headers. */
  headers: string[];
  /** Up to five rows below the headers, for the UI's preview. */
  sample: Cell[][];
  /** Distinct company ids found anywhere in the selection (at most 20), for Find similar. */
  ids: string[];
  /**
   * An earlier run's output block inside the selection: `cols`, `headers` and
   * `sample` then stop left of it (that is the input), and a rerun writes into
   * it again with its fields. `col` is 1-based; `fields` null when the block
   * is cut off or altered.
   */
  output: { col: number; fields: string[] | null } | null;
}

export type ColumnRole = "name" | "city" | "zip" | "register" | "id" | "website" | "vatId" | "lei";
export interface ColumnsView {
  /** Column index (0-based within the selection) per role, or null. */
  mapping: Record<ColumnRole, number | null>;
  headers: string[];
}

export interface FieldOption {
  id: string;
  header: Bilingual;
}
export interface FieldGroupView {
  group: string;
  label: Bilingual;
  creditsPerCompany: number;
  fields: FieldOption[];
}

export type RerunMode = { kind: "all" } | { kind: "newOrFailed" } | { kind: "olderThan"; days: number };

export interface EnrichConfig {
  sheet: string;
  /** 1-based header row of the table; data starts below it. */
  headerRow: number;
  /** First column of the table (1-based). */
  col: number;
  /** Columns of the table. */
  cols: number;
  /** Number of data rows (0 = up to the last used row). */
  rows: number;
  mapping: Record<ColumnRole, number | null>;
  fields: string[];
  mode: "batch" | "free";
  rerun: RerunMode;
}

export interface EnrichPreviewView {
  rows: number;
  rowsToProcess: number;
  distinct: number;
  batch: { credits: number; seconds: number };
  free: { credits: number; seconds: number };
  estimate: CostView;
  fields: FieldGroupView[];
}

export interface ReviewRow {
  /** Sheet row (1-based). */
  row: number;
  input: string;
  /** Each with what tells them apart (street, postcode, register, industry, status) where the free resolve answer has it. */
  candidates: CompanyRow[];
  /** Why the row waits for a pick: the given city, postcode or register the service's match contradicts, or several companies fit. */
  reason: Bilingual;
}

export interface EnrichProgressView {
  jobId: string;
  total: number;
  processed: number;
  matched: number;
  review: number;
  notFound: number;
  errors: number;
  /** Rows with neither name nor id ("skipped: no name"): part of total and processed, never sent. */
  skipped: number;
  /** Rows marked "not enriched: out of credits": not errors, they are done by continuing after a top-up. */
  outOfCredits: number;
  /** The run stopped because the credits ran out; another step (after a top-up) continues it. */
  stoppedForCredits: boolean;
  creditsSpent: number;
  finished: boolean;
  /** Ambiguous rows waiting for a pick. */
  reviewRows: ReviewRow[];
  /** The most applying one pick costs (the picked company's profile with the run's fields), shown on the apply button. */
  pickCredits: number;
  lastError: AppError | null;
  /** Rows matched whose profile is not bought yet (a large list's matching phase). */
  unbought?: number;
  /** A large list's names are all matched and nothing more is bought until the user answers (enrichConfirm). */
  afterMatching?: AfterMatchingView | null;
  /** The buying stopped before the confirmed price would be passed (the table changed since); nothing more was bought. */
  overBudget?: boolean;
  /** The user cancelled after the matching: the matched ids stay written, no profile was bought. */
  cancelled?: boolean;
}

/** The second confirmation of a large list: the exact price once the names are matched. */
export interface AfterMatchingView {
  /** Rows the run matched, and of them the rows a company was found for whose profile is still to buy. */
  rows: number;
  found: number;
  /** Distinct companies to buy, each once. */
  companies: number;
  /** The exact price of the profiles: the most the rest of the run spends. */
  credits: number;
  /** What the first confirmation counted for the profiles (every name a company of its own). */
  ceiling: number;
}

export interface ApplyCandidateInput {
  jobId: string;
  row: number;
  candidateId: string;
}

export interface SimilarInput {
  ids: string[];
  /** "similar": semantic match over all ids; "peers": comparable companies of the first id. */
  kind: "similar" | "peers";
  size?: number;
}
export interface SimilarOutput {
  companies: CompanyRow[];
  credits: number;
}

export interface EstimateInput {
  /** One planned operation, as shared/credits/estimate.ts takes it. */
  operation: unknown;
}

/** The settings to change (absent: kept); a secret "" or null removes it. */
export type SaveSettingsInput = SettingsPatch;

/** What the connection test and the self-test take: the typed connection, else the saved one. */
export interface ConnectionInput {
  connection?: ConnectionMode;
  apiKey?: string;
  baseUrl?: string;
  serverUrl?: string;
  serverToken?: string;
}

/** The monitor's estimate of a schedule, with the free preview it was computed from. */
export type MonitorEstimateView = ScheduleEstimate & { preview: RunSummary };

/** The alert channels as the Monitor panel sends them: `email` a list or text with commas; `webhook` "" clears it, absent keeps it. */
export interface AlertsInput {
  email?: string | string[];
  webhook?: string;
}

/**
 * Every method's input and output: the one type the UI (shared/ui/), the
 * hosts' loops (apps-script/monitor.ts, excel-addin/) and dispatch are
 * checked against. A method is added here and in dispatch.ts's table; the
 * compiler then refuses a table, a call or a host that disagrees.
 */
export interface AppApi {
  getSettings: { input: Record<string, never>; output: SettingsView };
  saveSettings: { input: SaveSettingsInput; output: SettingsView };
  testConnection: { input: ConnectionInput; output: ConnectionResult };
  /** The free self-test (shared/doctor/) of the same connection as testConnection. */
  doctor: { input: ConnectionInput; output: DoctorReport };
  account: { input: Record<string, never>; output: AccountView };
  estimate: { input: EstimateInput; output: CostView };
  search: { input: SearchInput; output: SearchOutput };
  insertSearchResults: { input: InsertInput; output: InsertOutput };
  readSelection: { input: Record<string, never>; output: SelectionView };
  detectColumns: { input: { headers: string[] }; output: ColumnsView };
  enrichFields: { input: Record<string, never>; output: { groups: FieldGroupView[]; defaults: string[] } };
  enrichPreview: { input: EnrichConfig; output: EnrichPreviewView };
  /** firstStep: the job's first step runs in the same call (what the sidebar asks: one round trip fewer). */
  enrichStart: { input: EnrichConfig & { firstStep?: boolean }; output: EnrichProgressView };
  enrichStep: { input: { jobId: string }; output: EnrichProgressView };
  applyCandidate: { input: ApplyCandidateInput; output: EnrichProgressView };
  /** A large list after its matching: buy the profiles at the price shown (proceed) or stop there. */
  enrichConfirm: { input: { jobId: string; proceed: boolean; firstStep?: boolean }; output: EnrichProgressView };
  /** The document's unfinished enrichment run (started in a sidebar that has since closed), or null. */
  enrichStatus: { input: Record<string, never>; output: EnrichProgressView | null };
  similar: { input: SimilarInput; output: SimilarOutput };
  searchAllPrice: { input: SearchAllInput; output: SearchAllPriceView };
  insertAllSearchResults: { input: SearchAllInput & { credits: number }; output: InsertAllOutput };
  listSavedSearches: { input: Record<string, never>; output: SavedSearch[] };
  saveSearch: { input: SearchInput & { name: string }; output: SavedSearch[] };
  deleteSavedSearch: { input: { name: string }; output: SavedSearch[] };
  runSavedSearch: { input: { name: string; size?: number }; output: SavedRunOutput };

  // The portfolio check (shared/app/monitor.ts).
  /** Schedule, last run, whether a run is paused, the host's note, the alert channels. */
  monitorStatus: { input: Record<string, never>; output: MonitorStatusView };
  /** The exact price of "Check now" (free calls only); `sheet` defaults to the schedule's. */
  monitorPreview: { input: { sheet?: string }; output: RunSummary };
  /** One step of a check under the host's deadline; status "paused" → call again. `budget` defaults to the schedule's. */
  monitorRun: { input: { sheet?: string; budget?: number | null }; output: RunSummary };
  /** Next run exact, and the ceiling per run / day / month of the schedule (merged over the saved one). */
  monitorEstimate: { input: { schedule?: Partial<ScheduleSettings> }; output: MonitorEstimateView };
  /**
   * Store the schedule (merged over the saved one); hosts then set their trigger or timer. With a team
   * server it is registered there (or removed); `utcOffsetMinutes` (the user's zone, e.g. 60 for CET)
   * turns the hour into the server's UTC hour.
   */
  monitorSaveSchedule: {
    input: { schedule: Partial<ScheduleSettings>; utcOffsetMinutes?: number };
    output: MonitorStatusView;
  };
  /** With a team server: write what its runs found since the last fetch into the portfolio sheet and the change log. */
  monitorSync: { input: Record<string, never>; output: MonitorSyncView };
  /** E-mail recipients and webhook of the alert digest. */
  monitorSaveAlerts: { input: { alerts: AlertsInput }; output: MonitorStatusView };
  /** With a team server: the owner shares the workbook's schedule with the team read-only, or stops. */
  monitorShare: { input: { shared: boolean }; output: MonitorStatusView };
  /** Excel: whether this workbook starts the add-in when it is opened while a schedule is on (kept in the workbook). */
  monitorStartup: { input: { on: boolean }; output: MonitorStatusView };

  // The scheduled refresh of an enriched list (shared/app/refresh.ts).
  /** Settings, last run, month spent against the ceiling, paused, the host's note. */
  refreshStatus: { input: Record<string, never>; output: RefreshStatusView };
  /** Next run and 30 days at most, with the ceiling (free: reads the table). */
  refreshEstimate: { input: { refresh?: Partial<RefreshSettings> }; output: RefreshEstimate };
  /** Store the settings (merged over the saved ones); hosts then set their trigger or timer. */
  refreshSaveSettings: { input: { refresh: Partial<RefreshSettings> }; output: RefreshStatusView };
  /** One step of a refresh under the host's deadline; status "paused" → call again. */
  refreshRun: { input: Record<string, never>; output: RefreshSummary };

  // The audit of writes and the undo of a run (shared/app/runs.ts).
  /** The document's runs that wrote cells, newest first, with the audit's size and limits. */
  auditRuns: { input: Record<string, never>; output: RunsView };
  /** Take a run back (cells changed since are kept and listed); the undo is a run itself. Credits are not refunded. */
  undoRun: { input: { run: string }; output: UndoResult };
}

export type AppMethodName = keyof AppApi;
export type AppInput<M extends AppMethodName> = AppApi[M]["input"];
export type AppOutput<M extends AppMethodName> = AppApi[M]["output"];
