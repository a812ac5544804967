/**
 * The deployment files read as Docker and systemd read them, so a test can do
 * what they say without Docker or systemd:
 * - assembleImage: every instruction of server/deploy/Dockerfile applied to
 *   an empty folder that stands for the image's root (COPY from the build
 *   context, RUN through sh, WORKDIR, ENV…); an instruction it does not know
 *   fails the test, so the Dockerfile stays within what is proven. Container
 *   paths (/opt/…, /data) are mapped under that folder; system paths (/usr,
 *   /bin…) are the machine's. The image's `node` user exists only in the
 *   image: `chown` is checked (its target exists), not applied, and the
 *   command runs as the test's user (USER is asserted to be another one).
 * - readUnit: a systemd unit's sections and keys (Environment= and
 *   ExecStart= split as systemd splits them, quotes kept together).
 * Docker's reference: https://docs.docker.com/reference/dockerfile/ ;
 * systemd's: https://www.freedesktop.org/software/systemd/man/latest/systemd.service.html
 */
import { execFile } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface Instruction {
  op: string;
  args: string;
  line: number;
}

/** The instructions of a Dockerfile: comments and blank lines dropped, continued lines joined. */
export function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const first = i + 1;
    let line = lines[i]!.trim();
    if (!line || line.startsWith("#")) continue;
    while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + " " + lines[++i]!.trim();
    const m = /^(\S+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`Dockerfile line ${first}: no arguments: ${line}`);
    out.push({ op: m[1]!.toUpperCase(), args: m[2]!.trim(), line: first });
  }
  return out;
}

/** Words as a shell splits them (single and double quotes; no expansion). */
export function words(text: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** The exec form `["a", "b"]`, which CMD and ENTRYPOINT must use (no shell between Docker and Node's signals). */
function execForm(args: string, where: string): string[] {
  if (!args.startsWith("[")) throw new Error(`${where}: use the exec form ["program", "arg", …]`);
  return JSON.parse(args) as string[];
}

/** First segments of paths that are the machine's, not the image's own. */
const SYSTEM = new Set(["usr", "bin", "sbin", "lib", "lib64", "proc", "dev", "sys", "etc"]);

export interface Image {
  root: string;
  from: string;
  workdir: string;
  env: Record<string, string>;
  user: string | undefined;
  volumes: string[];
  exposed: string[];
  cmd: string[];
  healthcheck: string | undefined;
  /** Every absolute container path the Dockerfile named, mapped: container path → folder here. */
  mapped: Map<string, string>;
}

export async function assembleImage(
  dockerfile: string,
  context: string,
  root: string,
  runEnv: Record<string, string>,
): Promise<Image> {
  const mapped = new Map<string, string>();
  const map = (p: string, cwd = "/"): string => {
    const abs = posix.resolve(cwd, p);
    if (SYSTEM.has(abs.split("/")[1] ?? "")) return abs;
    const here = join(root, abs);
    mapped.set(abs, here);
    return here;
  };
  const mapIn = (text: string) =>
    text.replace(/(^|[\s=:'"])(\/[\w.\-/]*)/g, (_, pre: string, p: string) => pre + map(p));
  // chown: the user exists in the image only; the test checks the target is there.
  const shims = join(root, ".test-shims");
  mkdirSync(shims, { recursive: true });
  writeFileSync(
    join(shims, "chown"),
    '#!/bin/sh\nfor a in "$@"; do case "$a" in /*) test -e "$a" || exit 1;; esac; done\n',
  );
  chmodSync(join(shims, "chown"), 0o755);
  const image: Image = {
    root,
    from: "",
    workdir: "/",
    env: {},
    user: undefined,
    volumes: [],
    exposed: [],
    cmd: [],
    healthcheck: undefined,
    mapped,
  };
  for (const { op, args, line } of parseDockerfile(dockerfile)) {
    const where = `Dockerfile line ${line} (${op})`;
    switch (op) {
      case "FROM":
        image.from = args;
        break;
      case "WORKDIR":
        image.workdir = posix.resolve(image.workdir, args);
        mkdirSync(map(image.workdir), { recursive: true });
        break;
      case "COPY": {
        const parts = words(args);
        if (parts.some((p) => p.startsWith("--"))) throw new Error(`${where}: flags are not read here: ${args}`);
        const dest = parts.pop()!;
        for (const src of parts) {
          const pattern = new RegExp(`^${src.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
          const found = readdirSync(context).filter((f) => pattern.test(f));
          if (!found.length) throw new Error(`${where}: nothing in the build context matches ${src}`);
          for (const f of found) {
            const target = map(dest, image.workdir);
            const into = dest.endsWith("/") ? join(target, f) : target;
            mkdirSync(dirname(into), { recursive: true });
            cpSync(join(context, f), into, { recursive: true });
          }
        }
        break;
      }
      case "RUN": {
        // Build-time options (cache mounts, network) change nothing in what the image holds.
        const command = args.replace(/^(--(mount|network|security)=\S+\s+)+/, "");
        if (command.startsWith("[")) throw new Error(`${where}: use the shell form`);
        await run("sh", ["-c", mapIn(command)], {
          cwd: map(image.workdir),
          env: { ...image.env, ...runEnv, PATH: `${shims}:${image.env.PATH ?? process.env.PATH}` },
          maxBuffer: 16 << 20,
        }).catch((e: Error & { stderr?: string }) => {
          throw new Error(`${where} failed: ${command}\n${e.stderr ?? e.message}`);
        });
        break;
      }
      case "ENV":
        for (const w of words(args)) {
          const eq = w.indexOf("=");
          if (eq < 1) throw new Error(`${where}: write ENV NAME=value`);
          // The image's own paths mapped first, then $NAME from the image (or this machine: the base image's PATH).
          image.env[w.slice(0, eq)] = mapIn(w.slice(eq + 1)).replace(
            /\$(\w+)|\$\{(\w+)\}/g,
            (_, a?: string, b?: string) => {
              const name = (a ?? b)!;
              return image.env[name] ?? process.env[name] ?? "";
            },
          );
        }
        break;
      case "USER":
        image.user = args;
        break;
      case "VOLUME":
        image.volumes.push(...(args.startsWith("[") ? (JSON.parse(args) as string[]) : words(args)));
        break;
      case "EXPOSE":
        image.exposed.push(...words(args));
        break;
      case "CMD":
        image.cmd = execForm(args, where);
        break;
      case "HEALTHCHECK":
        image.healthcheck = /\bCMD\s+(.*)$/.exec(args)?.[1];
        break;
      default:
        throw new Error(
          `${where}: not read by this test; add it to assembleImage or keep to the instructions it reads`,
        );
    }
  }
  return image;
}

/** The image's command as the machine runs it: its program found on the image's PATH, its paths mapped. */
export function imageCommand(image: Image): { file: string; args: string[] } {
  const [program, ...args] = image.cmd;
  if (!program) throw new Error("the Dockerfile has no CMD");
  const dirs = (image.env.PATH ?? "").split(":");
  const file = program.includes("/")
    ? program
    : dirs.map((d) => join(d, program)).find((p) => existsSync(p) && !p.startsWith(join(image.root, ".test-shims")));
  if (!file) throw new Error(`${program} is on no folder of the image's PATH`);
  return { file, args: args.map((a) => (a.startsWith("/") ? join(image.root, a) : a)) };
}

export interface Unit {
  sections: Map<string, Map<string, string[]>>;
  get(section: string, key: string): string[];
}

/** A systemd unit file: every value of every key, per section, continued lines joined. */
export function readUnit(text: string): Unit {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + " " + lines[++i]!.trim();
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1]!, current);
      continue;
    }
    const eq = line.indexOf("=");
    if (!current || eq < 1) throw new Error(`unit line ${i + 1}: ${line}`);
    const key = line.slice(0, eq).trim();
    current.set(key, [...(current.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return { sections, get: (s, k) => sections.get(s)?.get(k) ?? [] };
}

/** Environment= values as systemd reads them: NAME=value words, quotes kept together. */
export function unitEnvironment(values: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const w of values.flatMap(words)) {
    const eq = w.indexOf("=");
    if (eq > 0) env[w.slice(0, eq)] = w.slice(eq + 1);
  }
  return env;
}
