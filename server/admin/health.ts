/**
 * GET /health (issue 36 item 3): an anonymous caller learns liveness only —
 * the server is up and its database answers — and nothing about the team:
 * no balance, no API address, no version detail, no process name. That costs
 * one `select 1` and never a request to the API.
 *
 * With an admin token (`token create --admin`) the answer adds the process
 * and the database kind, and `?deep=1` the extensions' deep checks (the
 * doctor's report, which may call the API with the team's key). `?deep=1`
 * without a token answers 401, with a user's token 403.
 */
import type { Language } from "../../shared/i18n/index.ts";
import { authenticate } from "../auth/tokens.ts";
import type { Db } from "../db/db.ts";
import { errorAnswer, type ErrorAnswer } from "../errors.ts";
import { msg } from "../i18n.ts";
import type { HealthCheck, ServiceContext } from "../routes.ts";

const JSON_TYPE = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export interface HealthRequest {
  db: Db;
  service: ServiceContext;
  url: URL;
  authorization: string | undefined;
  lang: Language;
  process: string;
  /** The extensions' deep checks (routes.ts healthChecksOf). */
  checks: ReadonlyMap<string, HealthCheck>;
}

async function deepChecks(
  service: ServiceContext,
  checks: ReadonlyMap<string, HealthCheck>,
): Promise<Record<string, { ok?: boolean }>> {
  const results: Record<string, { ok?: boolean }> = {};
  for (const [name, check] of checks) {
    try {
      results[name] = await check(service);
    } catch (e) {
      results[name] = { ok: false, detail: String((e as Error)?.message ?? e) } as { ok: boolean };
    }
  }
  return results;
}

export async function healthAnswer(r: HealthRequest): Promise<ErrorAnswer> {
  const deep = r.url.searchParams.get("deep") === "1";
  // A token is looked at only when one is sent: the anonymous answer is one query, whoever asks.
  const user = r.authorization ? await authenticate(r.db, r.authorization) : null;
  if (deep && !user) return errorAnswer("UNAUTHORIZED", msg.unauthorized[r.lang]);
  if (deep && !user!.admin) return errorAnswer("FORBIDDEN", msg.adminOnly[r.lang]);
  let reachable = true;
  try {
    await r.db.query("select 1");
  } catch {
    reachable = false;
  }
  const out: Record<string, unknown> = { ok: reachable, database: reachable ? "reachable" : "unreachable" };
  if (user?.admin) {
    out.process = r.process;
    out.databaseKind = r.db.kind;
    if (deep && reachable) {
      const checks = await deepChecks(r.service, r.checks);
      out.checks = checks;
      out.ok = Object.values(checks).every((c) => c.ok === true);
    }
  }
  return { status: out.ok ? 200 : 503, headers: JSON_TYPE, body: JSON.stringify(out) };
}
