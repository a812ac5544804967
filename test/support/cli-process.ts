/**
 * The built CLI (bin/company-data.js) as a child process, with its peak RSS
 * read from /proc/<pid>/status (VmHWM, the kernel's high-water mark, sampled
 * every 20 ms until the process exits).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/company-data.js", import.meta.url));

function readHwmKb(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export interface CliRun {
  code: number | null;
  ms: number;
  peakRssMb: number;
  stderr: string;
}

export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const t = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let peak = 0;
  const timer = setInterval(() => {
    const kb = readHwmKb(child.pid!);
    if (kb !== null) peak = Math.max(peak, kb);
  }, 20);
  const [code] = (await once(child, "exit")) as [number | null];
  clearInterval(timer);
  // MiB to two decimals.
  return { code, ms: performance.now() - t, peakRssMb: Math.round((peak / 1024) * 100) / 100, stderr };
}
