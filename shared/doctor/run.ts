/**
 * The doctor: a free self-test against the configured service. It reads the
 * balance, asks the free endpoints about a company whose answer is known,
 * provokes three error answers for free, reads the balance again, and
 * compares every answer as it came with the schema the client reads it with.
 * It never spends a credit: every call is one the price table prices at 0
 * (checked before it is sent), and balance before = after is the proof.
 *
 * Sans IO like every operation: it yields http and sleep effects. It sends
 * its calls one at a time through the host's pacer (the same buckets the
 * client's other calls draw from) and waits once for a 429's Retry-After.
 */
import { buildRequest, type ClientConfig } from "../api/index.ts";
import { bucketOf, DEFAULT_RATE_LIMITS, Pacer } from "../api/index.ts";
import { http, sleep, type Operation } from "../core/index.ts";
import { CompanyDataError } from "../core/index.ts";
import { header, type HttpResponse } from "../core/index.ts";
import { parseRetryAfter } from "../core/index.ts";
import { fillPath, endpoint } from "../api/index.ts";
import { compareShape } from "./shape.ts";
import { impactOf } from "./impact.ts";
import { ACCOUNT, KNOWN, NOT_CHECKED, PROBES, priceOf, type Probe } from "./probes.ts";
import type { DoctorReport, Finding, FindingKind, ProbeResult, Verdict } from "./types.ts";

/** Headers about rate limits (IETF RateLimit fields, the common X-RateLimit-* forms, Retry-After). */
const RATE_LIMIT_HEADER = /^(x-)?rate-?limit|^retry-after$/i;
/** The project's credit headers (emulator decision, emulator/README.md): the charge and the balance after a call. */
const CREDIT_HEADERS = ["x-credits-charged", "x-credits-remaining"] as const;
/** Longest wait for a 429 before the probe counts as unanswered. */
const MAX_WAIT_MS = 15_000;

interface Sent {
  res: HttpResponse;
  json: unknown;
  isJson: boolean;
}

function* send(cfg: ClientConfig, pacer: Pacer, p: Probe): Operation<Sent> {
  if (priceOf(p) !== 0) throw new CompanyDataError("INTERNAL"); // the price table moved: a doctor that could spend does not run
  const req = buildRequest(cfg, { endpoint: p.endpoint, path: p.path, body: p.body });
  const bucket = bucketOf(p.endpoint);
  let res: HttpResponse | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (bucket) {
      const model = pacer.bucket(cfg.baseUrl, cfg.apiKey ?? "", bucket, DEFAULT_RATE_LIMITS[bucket], cfg.now());
      const wait = model.waitFor(1, cfg.now());
      if (wait > 0) yield* sleep(Math.min(wait, MAX_WAIT_MS));
      model.take(1, cfg.now());
    }
    cfg.onRequest?.(p.endpoint);
    [res] = yield* http([req]);
    if (res.status !== 429) break;
    const retryAt = parseRetryAfter(header(res, "retry-after"), cfg.now());
    yield* sleep(Math.min(retryAt ?? 2000, MAX_WAIT_MS));
  }
  let json: unknown,
    isJson = true;
  try {
    json = JSON.parse(res!.body);
  } catch {
    isJson = false;
  }
  return { res: res!, json, isJson };
}

const num = (v: string | undefined): number | null =>
  v !== undefined && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : null;

function limitHeadersOf(res: HttpResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    const name = k.toLowerCase();
    if (RATE_LIMIT_HEADER.test(name) || (CREDIT_HEADERS as readonly string[]).includes(name)) out[name] = v;
  }
  return out;
}

function finding(
  probe: string,
  kind: FindingKind,
  path: string,
  expected: string,
  got: string,
  renamedTo?: string,
): Finding {
  return { probe, kind, path, expected, got, ...(renamedTo ? { renamedTo } : {}), ...impactOf(probe, kind, path) };
}

/** Compare one answer; returns whether the client's schema reads it, and its findings. */
function examine(p: Probe, id: string, sent: Sent): { readable: boolean; findings: Finding[] } {
  const { res, json, isJson } = sent;
  const findings: Finding[] = [];
  const expectedStatus = p.provokes ?? 200;
  const ok = p.provokes ? res.status === p.provokes : res.status >= 200 && res.status < 300;
  if (!ok)
    findings.push(
      finding(id, "status", "(status)", String(expectedStatus), res.status === 0 ? "no answer" : String(res.status)),
    );
  if (!isJson) {
    if (res.status !== 0)
      findings.push(
        finding(id, "not-json", "(answer)", "JSON", (res.headers["content-type"] ?? "text").split(";")[0]!),
      );
    return { readable: false, findings };
  }
  // An error probe answered 2xx has no error body to compare; a normal probe answered with an error: the status says it.
  if (!ok && (p.provokes ? res.status < 400 : true)) return { readable: false, findings };
  for (const i of compareShape(p.schema, json, new Set(p.expectPresent)))
    findings.push(finding(id, i.kind, i.path, i.expected, i.got, i.renamedTo));
  if (p.id === "resolve") {
    const matched = (json as { match?: { id?: unknown } } | null)?.match?.id;
    if (typeof matched === "string" && matched !== KNOWN.id)
      findings.push(finding(id, "value", "match.id", KNOWN.id, matched));
  }
  return { readable: p.schema.safeParse(json).success, findings };
}

const creditsOf = (sent: Sent): number | null => {
  const c = (sent.json as { credits?: unknown } | null)?.credits;
  return sent.res.status === 200 && typeof c === "number" && Number.isFinite(c) ? c : null;
};

function verdictOf(findings: Finding[], first: Sent, spent: number | null): Verdict {
  if (first.res.status === 401 || first.res.status === 403) return "key";
  if (first.res.status === 0 || first.res.status >= 500) return "unreachable";
  if (spent !== 0 || findings.some((f) => f.severity === "breaking")) return "unsafe";
  return findings.some((f) => f.severity === "degraded") ? "degraded" : "pass";
}

/**
 * Run the doctor against `cfg` (the host's client configuration: key, base
 * URL, language, clock, pacer). A missing key is MISSING_KEY, as for any call;
 * every other outcome is a report, never an exception.
 */
export function* runDoctor(cfg: ClientConfig): Operation<DoctorReport> {
  if (!cfg.apiKey) throw new CompanyDataError("MISSING_KEY");
  const pacer = cfg.pacer ?? new Pacer();
  const probes: ProbeResult[] = [];
  const findings: Finding[] = [];
  const rateLimitHeaders = new Set<string>();
  const creditHeadersSeen = new Set<string>();

  const run = function* (p: Probe, id = p.id): Operation<Sent> {
    const sent = yield* send(cfg, pacer, p);
    const { readable, findings: found } = examine(p, id, sent);
    findings.push(...found);
    const limitHeaders = limitHeadersOf(sent.res);
    for (const h of Object.keys(limitHeaders))
      (RATE_LIMIT_HEADER.test(h) ? rateLimitHeaders : creditHeadersSeen).add(h);
    const charged = num(limitHeaders["x-credits-charged"]);
    if (charged !== null && charged > 0)
      findings.push(finding(id, "charged", "x-credits-charged", "0", String(charged)));
    const ep = endpoint(p.endpoint);
    probes.push({
      id,
      endpoint: p.endpoint,
      method: ep.method,
      path: fillPath(ep.path, p.path ?? {}),
      status: sent.res.status,
      price: priceOf(p),
      charged,
      limitHeaders,
      readable,
    });
    return sent;
  };

  const first = yield* run(ACCOUNT);
  const before = creditsOf(first);
  const reached =
    first.res.status !== 0 && first.res.status < 500 && first.res.status !== 401 && first.res.status !== 403;
  let after: number | null = null;
  if (reached) {
    for (const p of PROBES) yield* run(p);
    after = creditsOf(yield* run(ACCOUNT, "account.after"));
    const answered = probes.filter((p) => p.status >= 200 && p.status < 300).length;
    // The project's credit headers on none of the answers: say so once (the emulator sends them; the proof rests on the balance).
    if (answered > 0 && creditHeadersSeen.size === 0) {
      findings.push(finding("headers", "headers", CREDIT_HEADERS.join(", "), "present", "absent"));
    }
  }
  const spent = before !== null && after !== null ? before - after : null;
  const verdict = verdictOf(findings, first, spent);
  return {
    v: 1,
    baseUrl: cfg.baseUrl,
    checkedAt: new Date(cfg.now()).toISOString(),
    verdict,
    safeToSpend: verdict === "pass" || verdict === "degraded",
    credits: { before, after, spent },
    probes,
    notChecked: [...NOT_CHECKED],
    rateLimitHeaders: [...rateLimitHeaders].sort(),
    findings: dedupeByEffect(findings),
  };
}

/**
 * One finding per difference: the same field in a match and in its
 * candidates, in the account before and after, in each provoked error body,
 * is reported once (the first place it showed).
 */
function dedupeByEffect(list: Finding[]): Finding[] {
  const seen = new Set<string>();
  const family = (probe: string) => (probe.startsWith("error.") ? "error" : probe.replace(/\.after$/, ""));
  return list.filter((f) => {
    const k = `${family(f.probe)}|${f.kind}|${f.path.replace(/^(match|candidates\[\])\./, "company.")}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
