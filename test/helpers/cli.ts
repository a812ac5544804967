/**
 * The command line as users run it (`node bin/company-data.js`), spawned
 * against an emulator on 127.0.0.1 (port 0), with a scratch directory as cwd.
 * Shared by the CLI suites so that they start and call it the same way.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmulator, type Emulator, type EmulatorOptions } from "../../emulator/index.ts";
import { startServer, type RunningServer } from "../../emulator/server.ts";

const BIN = join(__dirname, "../../bin/company-data.js");

/** Rate limits high enough that a test never waits for a token. */
export const FAST = { capacity: 1_000_000, refillPerSecond: 1_000_000 };

export interface CliWorld {
  emu: Emulator;
  server: RunningServer;
  dir: string;
}

/** An emulator with fast rate limits, served on a free port, and a fresh scratch directory. */
export async function startCliWorld(opts: {
  companies: number;
  seed: number;
  dirPrefix: string;
  faults?: EmulatorOptions["faults"];
}): Promise<CliWorld> {
  const emu = createEmulator({
    companies: opts.companies,
    seed: opts.seed,
    rateLimits: { resolve: FAST, availability: FAST, account: FAST, suggest: FAST },
    ...(opts.faults ? { faults: opts.faults } : {}),
  });
  const server = await startServer(emu, { port: 0, host: "127.0.0.1" });
  return { emu, server, dir: mkdtempSync(join(tmpdir(), opts.dirPrefix)) };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** COMPANY_DATA_API_KEY; none when null or left out (an inherited one is removed). */
  key?: string | null;
  stdin?: string;
  env?: Record<string, string>;
  /** Close our end of stdout before the child writes: its writes get EPIPE, as under `| head`. */
  closeStdout?: boolean;
  onStart?: (kill: () => void, child: ReturnType<typeof spawn>) => void;
}

export function runCli(
  world: { server: RunningServer; dir: string },
  args: string[],
  opts: CliRunOptions = {},
): Promise<CliRun> {
  // A German locale: the suites read the CLI's German texts (shared/i18n/locale.ts; opts.env may set another).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    COMPANY_DATA_BASE_URL: world.server.url,
    LANG: "de_DE.UTF-8",
    ...opts.env,
  };
  delete env.COMPANY_DATA_API_KEY;
  if (opts.key) env.COMPANY_DATA_API_KEY = opts.key;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: world.dir, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    if (opts.closeStdout) child.stdout.destroy();
    else child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.end(opts.stdin ?? "");
    opts.onStart?.(() => child.kill("SIGKILL"), child);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
