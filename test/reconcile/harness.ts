/**
 * The reconciliation service against the emulator: in this process (the
 * service module on its node:http binding, port 0) or as users start it
 * (`node bin/company-data.js reconcile --http 0`). Requests go as
 * reconciliation clients send them: GET with parameters, or form-encoded POST.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { RunningServer } from "../../emulator/server.ts";
import { readConfig } from "../../reconcile/config.ts";
import { startReconcileHttp, type RunningReconcile } from "../../reconcile/http.ts";
import { serviceFor } from "../../reconcile/main.ts";

export const BIN = join(import.meta.dirname, "../../bin/company-data.js");

/** The service in this process; `args` as on the command line (--http is given). */
export async function startService(
  server: RunningServer,
  key: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<RunningReconcile & { log: string[] }> {
  const cfg = readConfig(["--http", "0", ...args], {
    COMPANY_DATA_API_KEY: key,
    COMPANY_DATA_BASE_URL: server.url,
    LANG: "de_DE.UTF-8",
    ...env,
  });
  const log: string[] = [];
  const running = await startReconcileHttp(
    serviceFor(cfg, (l) => log.push(l)),
    { port: cfg.port, host: cfg.host, token: cfg.token, log: (l) => log.push(l) },
  );
  return { ...running, log };
}

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<number | null>;
}

/** `company-data reconcile --http 0 …` as a user starts it: the URL is read from its start-up line on stderr. */
export function startServiceProcess(
  server: RunningServer,
  key: string,
  args: string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<ServiceProcess> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("COMPANY_DATA_")) env[k] = v;
  Object.assign(env, { COMPANY_DATA_BASE_URL: server.url, COMPANY_DATA_API_KEY: key, LANG: "de_DE.UTF-8" }, extraEnv);
  const child = spawn(process.execPath, [BIN, "reconcile", "--http", "0", ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const stop = () =>
    new Promise<number | null>((r) => {
      child.once("close", (code) => r(code));
      child.kill("SIGTERM");
    });
  child.stdout.on("data", (d) => (out += d));
  const started = new Promise<string>((resolve, reject) => {
    child.stderr.on("data", (d) => {
      out += d;
      const url = /(http:\/\/\S+\/reconcile)\b/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once("close", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error("no start-up line: " + out)), 30_000).unref(),
  );
  return Promise.race([started, timeout]).then((url) => ({ url, child, output: () => out, stop }));
}

/** A form-encoded POST, as OpenRefine's backend sends queries and extension. */
export function post(
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(params),
  });
}

export async function postJson<T = any>(
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const r = await post(url, params, headers);
  return { status: r.status, body: (await r.json()) as T, headers: r.headers };
}

export async function getJson<T = any>(url: string): Promise<{ status: number; body: T; headers: Headers }> {
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as T, headers: r.headers };
}

/** A batch `{q0: {query: name}, …}`. */
export const batchOf = (names: readonly string[], extra: Record<string, unknown> = {}) =>
  Object.fromEntries(names.map((query, i) => [`q${i}`, { query, ...extra }]));
