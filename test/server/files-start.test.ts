/**
 * Issue 36 item 7: a start that cannot work says why and exits non-zero
 * within seconds: a data directory that cannot be created (a path under a
 * file; under /proc, where mkdir's recursive mode loops for ever), one of
 * another user's, a taken port (before PGlite is opened), a full disk (the
 * statfs check injected: no disk is filled) with its free space, and
 * PGlite's ErrnoError printed as text, never `[object Object]`.
 */
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runServerCli } from "../../server/cli.ts";
import { injectStatfs } from "../../server/db/data-dir.ts";
import { errorText } from "../../server/error-text.ts";
import { startFailure } from "../../server/start-failures.ts";
import { companyDataCommand } from "../support/team-server.ts";

const scratch = mkdtempSync(join(tmpdir(), "files-start-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ENV = { COMPANY_DATA_API_KEY: "cd_live_STARTTEST_1", COMPANY_DATA_BASE_URL: "http://127.0.0.1:9" };

/** `company-data server --lang en …` as an administrator runs it, and how long it took. */
async function start(args: string[]) {
  const t = Date.now();
  const r = await companyDataCommand(["server", "--lang", "en", "--port", "0", ...args], ENV);
  return { ...r, ms: Date.now() - t };
}

describe("a start that cannot work says why and exits", () => {
  it("a data directory under a file cannot be created: exit 2, the reason named", async () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "x");
    const r = await start(["--data", join(file, "data")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`The data directory ${join(file, "data")} cannot be created (ENOTDIR)`);
    expect(r.stdout).not.toContain('"event":"listening"');
  });

  it.skipIf(!existsSync("/proc/self"))(
    "a directory under /proc (where recursive mkdir never returns): exit 2 at once",
    async () => {
      const r = await start(["--data", "/proc/company-data-test/data"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("cannot be created (ENOENT)");
      // The process's own start (tsx) on a loaded machine is most of this; the check itself is a few system calls.
      expect(r.ms).toBeLessThan(30_000);
    },
  );

  it.skipIf(process.getuid?.() !== 0)("a directory of another user is refused, named, not opened", async () => {
    const dir = join(scratch, "theirs");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 65534, 65534);
    const r = await start(["--data", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${dir} (uid 65534) belongs to another user`);
  });

  it("a taken port is said before the database is opened", async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as AddressInfo).port;
    const dir = join(scratch, "port");
    try {
      const r = await companyDataCommand(["server", "--lang", "en", "--port", String(port), "--data", dir], ENV);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is not available`);
      expect(existsSync(join(dir, "PG_VERSION"))).toBe(false); // PGlite was never asked
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it("a full disk (statfs injected: 19.5 MB free) is refused with the free space, exit 9", async () => {
    const lines: string[] = [];
    injectStatfs(() => ({ bavail: 5000, bsize: 4096 }));
    try {
      const code = await runServerCli(
        ["--port", "0", "--data", join(scratch, "full")],
        ENV,
        { out: (l) => lines.push(l), err: (l) => lines.push(l) },
        "en",
      );
      expect(code).toBe(9);
      expect(lines.join("\n")).toContain(
        `No space on the disk of the data directory ${join(scratch, "full")}: 19.5 MB free`,
      );
      const de: string[] = [];
      await runServerCli(
        ["--port", "0", "--data", join(scratch, "full")],
        ENV,
        { out: () => {}, err: (l) => de.push(l) },
        "de",
      );
      expect(de.join("\n")).toContain("19.5 MB frei");
    } finally {
      injectStatfs(null);
    }
  });

  it("PGlite's ErrnoError is text: ENOSPC during the start becomes the full-disk message", () => {
    // What PGlite's emscripten file system throws (dist/pglite.js: ErrnoError:class{…constructor(errno){this.errno=errno}}).
    const enospc = { name: "ErrnoError", errno: 51 };
    expect(`${enospc.name}: ${String((enospc as { message?: string }).message ?? enospc)}`).toBe(
      "ErrnoError: [object Object]",
    );
    expect(errorText(enospc)).toBe("ErrnoError: ENOSPC (no space left on device)");
    expect(errorText({ name: "ErrnoError", errno: 2 })).toBe("ErrnoError: EACCES (permission denied)");
    expect(errorText({ name: "ErrnoError", errno: 999 })).toBe("ErrnoError: errno 999");
    expect(errorText(Object.assign(new Error("[object Object]"), { code: "EIO" }))).toBe("Error: EIO");
    expect(errorText({ reason: "odd" })).toBe('Error: {"reason":"odd"}');
    injectStatfs(() => ({ bavail: 1024, bsize: 1024 }));
    try {
      const f = startFailure(enospc, { kind: "pglite", dir: scratch }, "en");
      expect(f).toEqual({ exit: 9, text: expect.stringContaining("1.0 MB free") as unknown });
    } finally {
      injectStatfs(null);
    }
  });
});
