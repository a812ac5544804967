/**
 * The side files of one enrichment's output, and its document store as
 * files. The core job (shared/enrich/job-stream.ts) keeps its checkpoint and the
 * resolve phase's answers through the store effects; here they become
 *
 *   OUT.checkpoint.json  the checkpoint, rewritten whole (beside it, then
 *                        renamed over it: a kill leaves the old one or the new)
 *   OUT.resolved.jsonl   the resolve phase's answers, one line per group,
 *                        appended and synced as each group returns (a torn
 *                        last line from a kill is skipped: its answers are
 *                        replayed from the answer journal)
 *
 * beside OUT.partial (the rows so far), OUT.journal.jsonl (the answers of the
 * chunk in progress, ../node/driver.ts), OUT.spent (the intent journal,
 * ./ledger.ts) and OUT.lock (../node/lock.ts). Every write goes through `written`
 * (../node/disk.ts): a full disk is said with the file.
 */
import { closeSync, createReadStream, existsSync, fsyncSync, readFileSync, realpathSync } from "node:fs";
import { renameSync, unlinkSync, writeSync } from "node:fs";
import { createHash } from "node:crypto";
import { resolve as resolvePath } from "node:path";
import * as z from "zod/mini";
import { readPart, type AsyncDriver } from "../shared/core/index.ts";
import { STREAM_CHECKPOINT_KEY, STREAM_RESOLVED_PREFIX } from "../shared/enrich/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { openPrivate, writePrivate, written } from "../node/index.ts";
import { ExitError } from "./io.ts";
import { EXIT, msg } from "./i18n.ts";

export function paths(out: string) {
  return {
    partial: out + ".partial",
    checkpoint: out + ".checkpoint.json",
    journal: out + ".journal.jsonl",
    resolved: out + ".resolved.jsonl",
    spent: out + ".spent",
    lock: out + ".lock",
  };
}
export type EnrichFiles = ReturnType<typeof paths>;

/** The side files of every output end so: a file named so is never an input list. */
const SIDE_SUFFIXES = Object.values(paths("")).concat(".tmp");

/** The file's path with symbolic links resolved (as given when it does not exist). */
function realPath(f: string): string {
  try {
    return realpathSync(f);
  } catch {
    return resolvePath(f);
  }
}

/** The input is not the output, nor a side file of it, nor the unfinished output of another run. */
export function checkInputIsNoOutput(input: string, out: string, lang: Language) {
  const real = realPath(input);
  if (real === realPath(out)) throw new ExitError(EXIT.USAGE, msg.sameFile[lang]);
  const own = Object.values(paths(out)).some((f) => realPath(f) === real);
  const other = SIDE_SUFFIXES.some(
    (x) => real.endsWith(x) && existsSync(real.slice(0, -x.length) + ".checkpoint.json"),
  );
  if (own || other) throw new ExitError(EXIT.USAGE, msg.sideFile[lang](input));
}

/** SHA-256 of a file's bytes, read in pieces. */
export async function contentHash(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) h.update(chunk as Buffer);
  return h.digest("hex");
}

/** One line of the answers file: the parts one storePut wrote (null: dropped). */
const PARTS_LINE = z.record(z.string(), z.nullable(z.string()));

/** A line of the answers file as versions before the streamed job wrote it: one `[key, answer]` a line. */
const OLD_LINE = z.tuple([z.string(), z.unknown()]);

/** The job's document store over the checkpoint file and the answers file. */
export class EnrichStore {
  private readonly parts = new Map<string, string>();

  constructor(private readonly files: Pick<EnrichFiles, "checkpoint" | "resolved">) {
    if (!existsSync(files.resolved)) return;
    for (const line of readFileSync(files.resolved, "utf8").split("\n")) {
      if (!line) continue;
      // A run interrupted by an earlier version resumes with its answers: each old line becomes a part.
      const old = readPart(OLD_LINE, line);
      if (old) this.parts.set(`${STREAM_RESOLVED_PREFIX}${this.parts.size}`, JSON.stringify([old]));
      for (const [k, v] of Object.entries(old ? {} : (readPart(PARTS_LINE, line) ?? {})))
        v === null ? this.parts.delete(k) : this.parts.set(k, v);
    }
  }

  get(keys: readonly string[]): (string | null)[] {
    return keys.map((k) => {
      if (k !== STREAM_CHECKPOINT_KEY) return this.parts.get(k) ?? null;
      try {
        return readFileSync(this.files.checkpoint, "utf8");
      } catch {
        return null;
      }
    });
  }

  put(entries: Record<string, string | null>): void {
    const parts: Record<string, string | null> = {};
    for (const [k, v] of Object.entries(entries)) {
      if (k === STREAM_CHECKPOINT_KEY) this.putCheckpoint(v);
      else if (k.startsWith(STREAM_RESOLVED_PREFIX)) parts[k] = v;
      else throw new Error(`no file for store key ${k}`);
    }
    if (Object.keys(parts).length) this.putParts(parts);
  }

  private putCheckpoint(v: string | null): void {
    const file = this.files.checkpoint;
    if (v === null) {
      if (existsSync(file)) unlinkSync(file);
      return;
    }
    written(file, () => writePrivate(file + ".tmp", v));
    renameSync(file + ".tmp", file);
  }

  private putParts(parts: Record<string, string | null>): void {
    for (const [k, v] of Object.entries(parts)) v === null ? this.parts.delete(k) : this.parts.set(k, v);
    const file = this.files.resolved;
    // Every part dropped (a fresh start, or the job done): the file goes rather than growing by the drops.
    if (this.parts.size === 0) {
      if (existsSync(file)) unlinkSync(file);
      return;
    }
    const fd = openPrivate(file, "a");
    try {
      written(file, () => writeSync(fd, JSON.stringify(parts) + "\n"));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** A driver whose store effects are these files. */
  driver<D extends AsyncDriver>(base: D): D {
    return { ...base, storeGet: async (keys) => this.get(keys), storePut: async (entries) => this.put(entries) };
  }
}
