/**
 * Issue 36 item 1: the server's data directory is its user's alone. The
 * server is started as root with a umask of 000 (through sh), on a fresh
 * directory and on one left with loose modes (chmod -R 777); another uid
 * (nobody, 65534: a child process spawned with uid/gid) then tries to list,
 * read and write every entry under --data and succeeds at nothing. The same
 * probe first succeeds on the loose directory, so it can fail. Needs root
 * (to start a process as another uid): skipped otherwise, with the reason.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorWorld, type EmulatorWorld } from "../support/team-server.ts";

const BIN = fileURLToPath(new URL("../../bin/company-data.js", import.meta.url));
const NOBODY = 65534;
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** Every entry under `dir` (itself included), symbolic links not followed. */
function entries(dir: string): { path: string; dir: boolean; mode: number }[] {
  const out: { path: string; dir: boolean; mode: number }[] = [];
  const visit = (p: string) => {
    const st = lstatSync(p);
    out.push({ path: p, dir: st.isDirectory(), mode: st.mode & 0o7777 });
    if (st.isDirectory()) for (const n of readdirSync(p)) visit(join(p, n));
  };
  visit(dir);
  return out;
}

/** Run as uid/gid 65534: list every directory, write a file in it, read and open for writing every file; what succeeded. */
const PROBE = `
const fs = require("node:fs");
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const done = { listed: [], created: [], read: [], writable: [] };
  for (const e of JSON.parse(input)) {
    if (e.dir) {
      try { fs.readdirSync(e.path); done.listed.push(e.path); } catch {}
      const f = e.path + "/.probe-by-nobody";
      try { fs.closeSync(fs.openSync(f, "wx")); done.created.push(e.path); fs.unlinkSync(f); } catch {}
    } else {
      try { const fd = fs.openSync(e.path, "r"); fs.readSync(fd, Buffer.alloc(1)); fs.closeSync(fd); done.read.push(e.path); } catch {}
      try { fs.closeSync(fs.openSync(e.path, "r+")); done.writable.push(e.path); } catch {}
    }
  }
  process.stdout.write(JSON.stringify(done));
});`;

type Probe = { listed: string[]; created: string[]; read: string[]; writable: string[] };

function probeAsNobody(dir: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", PROBE], { uid: NOBODY, gid: NOBODY, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`probe exited ${code}: ${err.slice(0, 300)}`));
      resolve(JSON.parse(out) as Probe);
    });
    child.stdin.end(JSON.stringify(entries(dir).map(({ path, dir }) => ({ path, dir }))));
  });
}

const reached = (p: Probe) => p.listed.length + p.created.length + p.read.length + p.writable.length;

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  stop(): Promise<number | null>;
}

/** `company-data server --port 0 --data DIR`, started by sh after `umask 000`, once it listens. */
async function startWithUmask000(world: EmulatorWorld, dir: string): Promise<Started> {
  const child = spawn(
    "sh",
    ["-c", 'umask 000; exec "$0" "$@"', process.execPath, BIN, "server", "--port", "0", "--data", dir],
    {
      env: {
        ...process.env,
        COMPANY_DATA_API_KEY: world.key,
        COMPANY_DATA_BASE_URL: world.api.url,
        LANG: "de_DE.UTF-8",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err.slice(0, 500)}`)), 120_000);
    const failed = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err.slice(0, 500)}`));
    };
    child.once("exit", failed);
    const look = () => {
      if (!out.includes('"event":"listening"')) return;
      clearTimeout(timer);
      child.off("exit", failed);
      child.stdout.off("data", look);
      resolve();
    };
    child.stdout.on("data", look);
  });
  return {
    child,
    out: () => out,
    err: () => err,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        const kill = setTimeout(() => child.kill("SIGKILL"), 20_000);
        child.once("exit", (code) => {
          clearTimeout(kill);
          resolve(code);
        });
        child.kill("SIGTERM");
      }),
  };
}

function expectPrivate(dir: string): void {
  const loose = entries(dir).filter((e) => e.mode !== (e.dir ? 0o700 : 0o600));
  expect(loose.map((e) => `${e.mode.toString(8)} ${e.path}`)).toEqual([]);
}

describe.skipIf(!isRoot)("the data directory is the server's user's alone (started as root, umask 000)", () => {
  let world: EmulatorWorld;
  let parent: string;
  let dir: string;
  beforeAll(async () => {
    world = await startEmulatorWorld({ companies: 50, emulator: { faults: { latencyMs: 0, jitterMs: 0 } } });
    // The parent open to everyone (mkdtemp makes it 0700, which alone would keep nobody out): only --data's own modes count.
    parent = mkdtempSync(join(tmpdir(), "files-private-"));
    chmodSync(parent, 0o755);
    dir = join(parent, "data");
  }, 60_000);
  afterAll(async () => {
    await world?.api.close();
    if (parent) rmSync(parent, { recursive: true, force: true });
  });

  it("a fresh directory: nobody can list, read or write anything under --data, while serving and after", async () => {
    const server = await startWithUmask000(world, dir);
    let code: number | null = null;
    try {
      const running = await probeAsNobody(dir);
      expect(running).toEqual({ listed: [], created: [], read: [], writable: [] });
    } finally {
      code = await server.stop();
    }
    expect(code, server.err()).toBe(0);
    const all = entries(dir);
    expect(all.length).toBeGreaterThan(500); // PGlite's cluster is there
    expectPrivate(dir);
    expect(reached(await probeAsNobody(dir))).toBe(0);
  }, 300_000);

  it("a directory left with loose modes (chmod -R 777) is tightened at the start, and the log says how many entries", async () => {
    for (const e of entries(dir)) chmodSync(e.path, 0o777);
    // The control: the same probe reaches everything while the modes are loose, so it can fail.
    const before = await probeAsNobody(dir);
    expect(before.read.length).toBeGreaterThan(500);
    expect(before.writable.length).toBeGreaterThan(500);
    expect(before.created.length).toBeGreaterThan(10);
    const server = await startWithUmask000(world, dir);
    let code: number | null = null;
    try {
      const line = server
        .out()
        .split("\n")
        .find((l) => l.includes('"event":"data.tightened"'));
      expect(line, server.out()).toBeDefined();
      const count = (JSON.parse(line!) as { entries: number }).entries;
      expect(count).toBe(before.listed.length + before.read.length);
      expect(server.err()).toMatch(new RegExp(`: ${count} (entries|Einträge) .*0700.*0600`));
      expect(reached(await probeAsNobody(dir))).toBe(0);
    } finally {
      code = await server.stop();
    }
    expect(code, server.err()).toBe(0);
    expectPrivate(dir);
  }, 300_000);
});

describe.skipIf(isRoot)("the data directory is the server's user's alone", () => {
  it.skip("needs root to start the server and then probe as another uid (nobody); not root here", () => undefined);
});
