/**
 * What the builds own in dist/, and removing what none of them writes any
 * more. Each build replaces its own folder, but a folder an older build wrote
 * (a renamed output, a scratch folder of an earlier layout, e.g. dist/.excel-gen)
 * would otherwise stay forever, be shipped by mistake or confuse a reader.
 */
import { readdir, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { APPS_SCRIPT_OUT } from "./build-apps-script.ts";
import { DEFAULT_OUT as EXCEL_OUT, genDirFor } from "./build-excel.ts";
import { CONSOLE_OUT, PLAYGROUND_OUT } from "./build-ui.ts";
import { NODE_OUT } from "./build-node.ts";

export const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "dist");

/** Every path directly under dist/ that a current build writes. */
export function ownedOutputs(): string[] {
  return [APPS_SCRIPT_OUT, EXCEL_OUT, genDirFor(EXCEL_OUT), PLAYGROUND_OUT, NODE_OUT, CONSOLE_OUT];
}

/** Remove the entries of `dir` that are not in `keep` (absolute paths); answers the names removed. */
export async function pruneStale(dir: string, keep: readonly string[]): Promise<string[]> {
  const kept = new Set(keep.filter((p) => resolve(dirname(p)) === resolve(dir)).map((p) => basename(p)));
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of entries.sort()) {
    if (kept.has(name)) continue;
    await rm(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
