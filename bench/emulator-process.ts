/**
 * The emulator server in its own process (`emulator/cli.ts` under tsx), so the
 * client under test and the server it talks to use separate cores as they
 * would in reality; in one process they share one event loop and every
 * request's server CPU would be counted as client time. Everything the
 * benchmarks need from the emulator goes through its control endpoints
 * (emulator/README.md, "Control endpoints").
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { START_DATE } from "./lib.ts";

const CLI = fileURLToPath(new URL("../emulator/cli.ts", import.meta.url));
const READY_TIMEOUT_MS = 60_000;

/** The emulator's ledger of one key (emulator/billing.ts `Usage`). */
export interface Usage {
  credits: Record<string, number>;
  requests: Record<string, number>;
  byDay: Record<string, number>;
  total: number;
}

export interface EmulatorProcess {
  url: string;
  pid: number;
  health(): Promise<{ ok: boolean; companies: number; today: string; seed: number }>;
  createKey(credits: number): Promise<string>;
  usage(key: string): Promise<{ credits: number; usage: Usage }>;
  resetRateLimits(key?: string): Promise<void>;
  /** CPU time (user + system) the emulator process has used so far, in ms (Linux /proc; null elsewhere). */
  cpuMs(): number | null;
  close(): Promise<void>;
}

export interface EmulatorProcessOptions {
  latencyMs: number;
  jitterMs: number;
  date?: string;
  extraArgs?: string[];
}

async function control<T>(url: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    url + path,
    body === undefined
      ? {}
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) },
  );
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

let ticks: number | undefined;
/** Clock ticks per second of /proc's CPU times. */
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** utime + stime of a process from /proc/<pid>/stat, in ms. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at state, field 3; utime and stime are fields 14 and 15.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) / clockTicks()) * 1000;
  } catch {
    return null;
  }
}

/** Start `tsx emulator/cli.ts --port 0 …` and read the URL from its banner. */
export async function startEmulatorProcess(opts: EmulatorProcessOptions): Promise<EmulatorProcess> {
  const args = [
    "--import",
    "tsx",
    CLI,
    "--port",
    "0",
    // The banner this reads, in English whatever the locale.
    "--lang",
    "en",
    "--date",
    opts.date ?? START_DATE,
    "--latency",
    String(opts.latencyMs),
    "--jitter",
    String(opts.jitterMs),
    ...(opts.extraArgs ?? []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`emulator did not start in ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${e.message}; stderr: ${err.slice(0, 500)}`));
    };
    child.once("exit", (code) => fail(new Error(`emulator exited with ${code} before it was ready`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /emulator on (http:\/\/[^\s]+)/.exec(out)?.[1];
      if (url !== undefined && /ready in/.test(out)) {
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolve(url);
      }
    });
  });
  // The banner is all we read; keep draining so the pipe never fills.
  child.stdout!.resume();
  return {
    url,
    pid: child.pid!,
    health: () => control(url, "/_emulator/health"),
    createKey: async (credits) => (await control<{ key: string }>(url, "/_emulator/keys", { credits })).key,
    usage: (key) => control(url, `/_emulator/usage?key=${encodeURIComponent(key)}`),
    cpuMs: () => processCpuMs(child.pid!),
    resetRateLimits: async (key) => void (await control(url, "/_emulator/ratelimits/reset", key ? { key } : {})),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
