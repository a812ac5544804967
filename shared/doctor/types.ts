/**
 * What the doctor reports: plain JSON (the CLI's `--json`, the app method's
 * answer to the UI, the team server's /health?deep=1), so every host shows
 * the same findings.
 */
import type { Bilingual } from "../i18n/index.ts";
import type { ShapeKind } from "./shape.ts";

/**
 * breaking: a paid path would pay for answers the client cannot read, or
 * would write wrong values (every name "not found"); do not spend.
 * degraded: some values will be empty (named); spending is safe.
 * info: noted, nothing reads less (new fields, headers).
 */
export type Severity = "breaking" | "degraded" | "info";

/** pass and degraded: safe to spend; unsafe: a breaking finding; key / unreachable: nothing could be checked. */
export type Verdict = "pass" | "degraded" | "unsafe" | "key" | "unreachable";

export type FindingKind = ShapeKind | "status" | "charged" | "headers" | "not-json";

export interface Finding {
  /** The probe whose answer showed it (probes.ts). */
  probe: string;
  kind: FindingKind;
  /** Dotted path in the answer (`match.legalForm`), a header name, or "(answer)". */
  path: string;
  expected: string;
  got: string;
  renamedTo?: string;
  severity: Severity;
  /** Stable ids of the features this affects ("enrich:legalForm", "monitor:plan"), for scripts. */
  features: string[];
  /** What it means for the user, in both languages ("the column „Legal form“ will be empty"). */
  effect: Bilingual;
}

export interface ProbeResult {
  id: string;
  endpoint: string;
  method: "GET" | "POST";
  /** Path only: the base URL is the report's, the key never appears. */
  path: string;
  /** HTTP status, 0 when no answer came. */
  status: number;
  /** Credits the catalogue (shared/api/endpoints.ts) prices this call at: always 0, checked before sending. */
  price: number;
  /** The service's own charge header, when it sends one. */
  charged: number | null;
  /** Headers about rate limits or credits, as they came (names in lower case). */
  limitHeaders: Record<string, string>;
  /** The client's schema reads the answer (for an error probe: the error body). */
  readable: boolean;
}

export interface DoctorReport {
  v: 1;
  baseUrl: string;
  /** ISO time of the check (the host's clock). */
  checkedAt: string;
  verdict: Verdict;
  safeToSpend: boolean;
  credits: {
    before: number | null;
    after: number | null;
    /** before − after; null when either could not be read (then nothing is proven). */
    spent: number | null;
  };
  probes: ProbeResult[];
  /** Paid endpoints it did not call (it never spends): their shapes are inferred from the free answers. */
  notChecked: string[];
  /** Rate-limit headers seen on any answer (none: the client paces by its own table). */
  rateLimitHeaders: string[];
  findings: Finding[];
}
