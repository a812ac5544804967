/**
 * Issue 38 items 4 and 5, as a new admin tries them: `npm pack` of the
 * checkout, `npm install --omit=dev` of the tarball in an empty folder, and
 * there `company-data --help`, `--version`, a token, the server on PGlite
 * answering that token's request (against the emulator on 127.0.0.1). Then
 * the image (server/deploy/Dockerfile, assembled without Docker:
 * deploy-files.ts) and the systemd unit's ExecStart, each starting the
 * installed package and answering. Figures in the output; the ≤ 0.3 s
 * `--help` target is the bench's (bench/cold-start.bench.ts), here a loose bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { startEmulatorWorld, type EmulatorWorld } from "../support/team-server.ts";
import { assembleImage, imageCommand, readUnit, unitEnvironment, words } from "./deploy-files.ts";
import {
  installPackage,
  ms,
  NPM_ENV,
  pack,
  ROOT,
  runToEnd,
  scratch,
  startServer,
  type Started,
} from "../support/installed-package.ts";

/** A PGlite database made and a server started under a loaded machine's slowness (about 10 s quiet). */
const SLOW = 180_000;
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe("the package, installed in an empty folder with npm only", () => {
  let world: EmulatorWorld;
  let packed: Awaited<ReturnType<typeof pack>>;
  let installed: string;
  /** The installed package's data directory and the token made there (the systemd unit serves them again). */
  let data: string;
  let anna: string;
  const cleanup: string[] = [];
  const bin = () => join(installed, "node_modules", ".bin", "company-data");
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: "de_DE.UTF-8",
    COMPANY_DATA_API_KEY: world.key,
    COMPANY_DATA_BASE_URL: world.api.url,
    ...extra,
  });

  beforeAll(async () => {
    [packed, world] = await Promise.all([pack(), startEmulatorWorld({ companies: 300, seed: 3 })]);
    installed = scratch("cd-installed-");
    cleanup.push(packed.dir, installed);
    const install = await installPackage(packed.tarball, installed);
    console.log(`npm pack ${ms(packed.ms)}, npm install --omit=dev ${ms(install.ms)}`);
  }, 240_000);

  afterAll(async () => {
    await world?.api.close();
    for (const d of cleanup) rmSync(d, { recursive: true, force: true });
  });

  /** A token for `user` (before the server holds the PGlite directory), then the server's answer to it. */
  async function tokenAnswered(
    server: () => Promise<Started>,
    tokenCommand: () => Promise<string>,
    alsoCheck: (srv: Started) => Promise<void> = async () => {},
  ) {
    const token = await tokenCommand();
    expect(token).toMatch(/^cdt_\S+$/);
    const srv = await server();
    try {
      const anonymous = await fetch(`${srv.url}/v2/account`);
      expect(anonymous.status).toBe(401);
      const answer = await fetch(`${srv.url}/v2/account`, { headers: { Authorization: `Bearer ${token}` } });
      expect(answer.status, srv.output()).toBe(200);
      expect(await answer.json()).toHaveProperty("credits");
      const suggest = await fetch(`${srv.url}/v2/suggest/${encodeURIComponent("Soft")}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(suggest.status, srv.output()).toBe(200);
      await alsoCheck(srv);
    } finally {
      expect(await srv.stop()).toBe(0);
    }
  }

  it("holds bundled JavaScript and production dependencies only", () => {
    const own = join(installed, "node_modules", "company-data");
    const files = filesUnder(own).map((f) => relative(own, f));
    expect(files).toContain("dist/node/company-data.js");
    expect(files).toContain("dist/node/THIRD-PARTY-LICENSES.txt");
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "CHANGELOG.md", "README.md", "bin/company-data.js"]));
    expect(files.filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"))).toEqual([]);
    const modules = readdirSync(join(installed, "node_modules"));
    for (const dev of ["tsx", "typescript", "esbuild", "vitest", "eslint"]) expect(modules).not.toContain(dev);
  });

  it("answers --help (best of 3) and --version with the database schema", async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await runToEnd(bin(), ["--help", "--lang", "en"], { cwd: installed, env: env() });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("company-data enrich");
      times.push(r.ms);
    }
    console.log(`installed company-data --help: best of 3 ${ms(Math.min(...times))} (${times.map(ms).join(", ")})`);
    // The target (≤ 0.3 s) is measured by the bench; here a bound that only a compiling start would miss.
    expect(Math.min(...times)).toBeLessThan(2_000);
    const v = await runToEnd(bin(), ["--version"], { cwd: installed, env: env() });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`^company-data ${VERSION.replace(/\./g, "\\.")}\\n`));
    expect(v.stdout).toMatch(/^database schema \d+ \(migrations [\d–, ]+\)$/m);
  });

  it(
    "starts `company-data server` on PGlite, which answers a token's request",
    async () => {
      data = scratch("cd-installed-data-");
      cleanup.push(data);
      await tokenAnswered(
        () => startServer(bin(), ["server", "--port", "0", "--data", data], { cwd: installed, env: env() }),
        async () => {
          const r = await runToEnd(bin(), ["server", "token", "create", "--user", "anna", "--data", data], {
            cwd: installed,
            env: env(),
          });
          expect(r.code, r.stderr).toBe(0);
          console.log(`installed: token create (a new PGlite database) ${ms(r.ms)}, peak RSS ${r.peakRssMb} MiB`);
          anna = r.stdout.trim();
          return anna;
        },
        // As a new admin would, while the server serves: the commands go through its admin channel.
        async (srv) => {
          const admin = async (args: string[]) => {
            const r = await runToEnd(bin(), ["server", ...args, "--data", data], { cwd: installed, env: env() });
            expect(r.code, r.stderr).toBe(0);
            console.log(
              `installed, while serving: ${args.slice(0, 2).join(" ")} ${ms(r.ms)}, peak RSS ${r.peakRssMb} MiB`,
            );
            return r;
          };
          const created = await admin(["token", "create", "--user", "bea"]);
          // Through the channel the command opens no database: well under the 150 MB.
          expect(created.peakRssMb).toBeLessThanOrEqual(150);
          // The 1 s target is the bench's and the admin-channel test's; here a bound only a database opened here would miss.
          expect(created.ms).toBeLessThan(5_000);
          await admin(["budget", "--user", "bea", "--month-budget", "50"]);
          const rotated = (await admin(["token", "rotate", "--user", "bea", "--grace", "0s"])).stdout
            .trim()
            .split("\n")
            .pop()!;
          const asks = (t: string) =>
            fetch(`${srv.url}/v2/account`, { headers: { Authorization: `Bearer ${t}` } }).then((a) => a.status);
          expect(await asks(rotated)).toBe(200);
          await admin(["token", "revoke", "--user", "bea"]);
          const revokedAt = Date.now();
          let status = await asks(rotated);
          while (status === 200 && Date.now() - revokedAt < 1_000) status = await asks(rotated);
          console.log(`installed: bea's token refused ${ms(Date.now() - revokedAt)} after the revoke returned`);
          expect(status).toBe(401);
        },
      );
    },
    SLOW,
  );

  it(
    "the Dockerfile's image, assembled without Docker, starts the server and answers",
    async () => {
      const root = scratch("cd-image-");
      cleanup.push(root);
      const dockerfile = readFileSync(join(ROOT, "server", "deploy", "Dockerfile"), "utf8");
      // Docker sends the build only what Dockerfile.dockerignore lets through: the package.
      const ignore = readFileSync(join(ROOT, "server", "deploy", "Dockerfile.dockerignore"), "utf8");
      expect(ignore.split("\n").filter((l) => l && !l.startsWith("#"))).toEqual(["*", "!company-data-*.tgz"]);
      const t0 = performance.now();
      const image = await assembleImage(dockerfile, packed.dir, root, NPM_ENV);
      console.log(`image assembled (COPY + RUN) in ${ms(performance.now() - t0)}`);
      expect(image.from).toMatch(/^node:20[.-]/);
      expect(image.user && !["root", "0"].includes(image.user)).toBe(true);
      const files = filesUnder(root).map((f) => relative(root, f));
      // No compiler, no sources: what runs is the bundle on production dependencies.
      expect(files.filter((f) => /node_modules\/(tsx|typescript|esbuild)\//.test(f))).toEqual([]);
      const own = files.filter((f) => !f.includes("node_modules/") || f.includes("node_modules/company-data/"));
      expect(own.filter((f) => /\.ts$/.test(f) && !f.endsWith(".d.ts"))).toEqual([]);
      const dataAt = image.cmd.indexOf("--data");
      expect(dataAt).toBeGreaterThan(0);
      expect(image.volumes).toContain(image.cmd[dataAt + 1]);
      const { file, args } = imageCommand(image);
      // Loopback and a free port for the test; the image listens on 0.0.0.0:8790 (EXPOSE).
      expect(image.exposed).toContain(args[args.indexOf("--port") + 1]);
      const served = args.map((a, i) => (args[i - 1] === "--host" ? "127.0.0.1" : args[i - 1] === "--port" ? "0" : a));
      const runEnv = { ...image.env, ...env({ PATH: image.env.PATH ?? "" }) };
      const dataDir = args[args.indexOf("--data") + 1]!;
      await tokenAnswered(
        () => startServer(file, served, { cwd: join(root, image.workdir), env: runEnv }),
        async () => {
          // As `docker exec CONTAINER company-data server token create …` runs it.
          const r = await runToEnd(file, ["server", "token", "create", "--user", "bert", "--data", dataDir], {
            cwd: join(root, image.workdir),
            env: runEnv,
          });
          expect(r.code, r.stderr).toBe(0);
          return r.stdout.trim();
        },
        async (srv) => {
          // The image's HEALTHCHECK, as Docker runs it inside the container (the port the test's server has).
          expect(image.healthcheck).toBeDefined();
          const [program, ...rest] = words(image.healthcheck!);
          const port = new URL(srv.url).port;
          const check = await runToEnd(
            program!,
            rest.map((a) => a.replaceAll(":8790/", `:${port}/`)),
            { env: runEnv },
          );
          expect(check.code, check.stderr).toBe(0);
        },
      );
    },
    SLOW,
  );

  it(
    "the systemd unit's ExecStart runs the installed package, which answers",
    async () => {
      const unit = readUnit(readFileSync(join(ROOT, "server", "deploy", "company-data-server.service"), "utf8"));
      const user = unit.get("Service", "User")[0];
      expect(user && user !== "root").toBe(true);
      const [exec] = unit.get("Service", "ExecStart");
      expect(exec).toBeDefined();
      // The data directory the installed package's test made (a fresh PGlite costs seconds): its token again.
      expect(anna).toBeDefined();
      const etc = scratch("cd-unit-etc-");
      cleanup.push(etc);
      writeFileSync(join(etc, "api-key"), world.key, { mode: 0o600 });
      // The paths the unit's comments install to, mapped to this test's folders.
      const paths: Record<string, string> = {
        "/usr/bin/node": process.execPath,
        "/opt/company-data": installed,
        "/var/lib/company-data-server": data,
        "/etc/company-data": etc,
      };
      const mapPath = (w: string) => {
        if (!w.startsWith("/")) return w;
        const prefix = Object.keys(paths).find((p) => w === p || w.startsWith(p + "/"));
        if (!prefix) throw new Error(`the unit names ${w}, which this test does not map`);
        return paths[prefix]! + w.slice(prefix.length);
      };
      const [program, ...args] = words(exec!).map(mapPath);
      expect(unit.get("Service", "ReadWritePaths").flatMap(words).map(mapPath)).toContain(
        args[args.indexOf("--data") + 1],
      );
      expect(args).toContain("--key-file");
      const unitEnv = unitEnvironment(unit.get("Service", "Environment"));
      // An admin's drop-in would point it at another API; here the emulator's address.
      // The key comes from --key-file only.
      const { COMPANY_DATA_API_KEY: _inFile, ...base } = env();
      const runEnv = { ...base, ...unitEnv, COMPANY_DATA_BASE_URL: world.api.url };
      const served = args.map((a, i) => (args[i - 1] === "--port" ? "0" : a));
      const cwd = mapPath(unit.get("Service", "WorkingDirectory")[0] ?? "/opt/company-data");
      await tokenAnswered(
        () => startServer(program!, served, { cwd, env: runEnv }),
        async () => anna,
      );
    },
    SLOW,
  );
});
