/**
 * The package as a new admin meets it: `npm pack` in the checkout (prepack
 * builds dist/node), `npm install --omit=dev` of the tarball in an empty
 * folder, and the installed `company-data` as child processes. npm installs
 * from its cache first (--prefer-offline): after `npm ci` every production
 * dependency is there, so the test reaches no registry on CI or here.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

export const ROOT = join(import.meta.dirname, "..", "..");
const run = promisify(execFile);

/** npm's settings for the test's installs: cache first, nothing printed about funding or audits. */
export const NPM_ENV = {
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

export const scratch = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** `npm pack` of the checkout into a folder of its own; answers the folder and the tarball's path. */
export async function pack(): Promise<{ dir: string; tarball: string; ms: number }> {
  const dir = scratch("cd-pack-");
  const t0 = performance.now();
  await run("npm", ["pack", "--pack-destination", dir, "--silent"], {
    cwd: ROOT,
    env: { ...process.env, ...NPM_ENV },
    maxBuffer: 16 << 20,
  });
  const tgz = readdirSync(dir).filter((f) => /^company-data-.*\.tgz$/.test(f));
  if (tgz.length !== 1) throw new Error(`npm pack wrote ${tgz.join(", ") || "nothing"}`);
  return { dir, tarball: join(dir, tgz[0]!), ms: performance.now() - t0 };
}

/** `npm install --omit=dev TARBALL` in `dir` (an empty folder). */
export async function installPackage(tarball: string, dir: string): Promise<{ ms: number }> {
  const t0 = performance.now();
  await run("npm", ["install", "--omit=dev", tarball], {
    cwd: dir,
    env: { ...process.env, ...NPM_ENV },
    maxBuffer: 16 << 20,
  });
  return { ms: performance.now() - t0 };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident memory (VmHWM of /proc/<pid>/status, sampled every 20 ms), MiB; null where /proc is not. */
  peakRssMb: number | null;
}

function peakKb(pid: number | undefined): number | null {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** A program run to its end, with its output and wall time. */
export function runToEnd(
  file: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let peak: number | null = null;
    const sample = setInterval(() => {
      const kb = peakKb(child.pid);
      if (kb !== null) peak = Math.max(peak ?? 0, kb);
    }, 20);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (e) => {
      clearInterval(sample);
      reject(e);
    });
    child.on("close", (code) => {
      clearInterval(sample);
      const peakRssMb = peak === null ? null : Math.round(peak / 1024);
      resolve({ code, stdout, stderr, ms: performance.now() - t0, peakRssMb });
    });
  });
}

export interface Started {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<number | null>;
}

/** A team server started by `file args`, once its first log line names its URL. */
export async function startServer(
  file: string,
  args: string[],
  opts: { cwd?: string; env: NodeJS.ProcessEnv },
): Promise<Started> {
  const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      child.once("exit", (code) => resolve(code));
      child.kill("SIGTERM");
    });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the server did not start within 60 s:\n${out.slice(0, 2000)}`));
    }, 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${out.slice(0, 2000)}`));
    });
    const look = () => {
      const m = /"event":"listening","url":"(http:\/\/[^"]+)"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.off("data", look);
      resolve(m[1]!);
    };
    child.stdout.on("data", look);
  });
  child.removeAllListeners("exit");
  return { child, url, output: () => out, stop };
}

/** The figure a test prints: milliseconds, whole. */
export const ms = (n: number) => `${Math.round(n)} ms`;
