/**
 * `npm run sheets:push`: build dist/apps-script/, then upload it with the
 * pinned @google/clasp from devDependencies (never a version npx fetches).
 * `.clasp.json` names the user's own Apps Script project, so it is not in the
 * repository (`.clasp.json.example` is): when it is missing or still holds
 * the example's placeholder, say what to do instead of letting clasp fail.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWithReport } from "./build-apps-script.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CONFIG = join(ROOT, ".clasp.json");
const PLACEHOLDER = "REPLACE_WITH_YOUR_SCRIPT_ID";

/** What is wrong with .clasp.json, or null when it names a project. */
export function claspConfigProblem(path = CONFIG): string | null {
  const howTo = [
    "Copy the example and put your project's Script ID into it:",
    "  cp .clasp.json.example .clasp.json",
    "The Script ID is in the Apps Script editor under Project settings (see apps-script/README.md).",
    ".clasp.json is ignored by git, so your ID never dirties the repository.",
  ].join("\n");
  if (!existsSync(path)) return `.clasp.json is missing.\n${howTo}`;
  let id: unknown;
  try {
    id = (JSON.parse(readFileSync(path, "utf8")) as { scriptId?: unknown }).scriptId;
  } catch {
    return `.clasp.json is not valid JSON.\n${howTo}`;
  }
  if (typeof id !== "string" || id.trim() === "" || id === PLACEHOLDER)
    return `.clasp.json has no Script ID yet.\n${howTo}`;
  return null;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problem = claspConfigProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  await buildWithReport();
  const clasp = join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "clasp.cmd" : "clasp");
  if (!existsSync(clasp)) {
    console.error("@google/clasp is not installed: run `npm ci` first.");
    process.exit(1);
  }
  const r = spawnSync(clasp, ["push", ...process.argv.slice(2)], { cwd: ROOT, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
