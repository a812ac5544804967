/**
 * `npm run sheets:push`: build dist/apps-script/, then upload it with the
 * pinned @google/clasp from devDependencies (never a version npx fetches).
 * `.clasp.json` names the user's own Apps Script project, so it is not in the
 * repository (`.clasp.json.example` is): when it is missing or still holds
 * the example's placeholder, say what to do instead of letting clasp fail.
 * `--team-server https://…/` builds the deployment for a team's server: its
 * prefix goes into the pushed appsscript.json's urlFetchWhitelist
 * (scripts/apps-script-manifest.ts); the other arguments go to clasp.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { APPS_SCRIPT_OUT, buildWithReport } from "./build-apps-script.ts";
import { teamServerOption } from "./apps-script-manifest.ts";

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
  let args: { teamServer?: string; rest: string[] } = { rest: [] };
  try {
    args = teamServerOption(process.argv.slice(2));
    const problem = claspConfigProblem();
    if (problem) throw new Error(problem);
    const built = await buildWithReport(APPS_SCRIPT_OUT, { teamServer: args.teamServer });
    if (args.teamServer) console.log(`appsscript.json allows ${args.teamServer} (${built.outDir})`);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
  const clasp = join(ROOT, "node_modules", ".bin", process.platform === "win32" ? "clasp.cmd" : "clasp");
  if (!existsSync(clasp)) {
    console.error("@google/clasp is not installed: run `npm ci` first.");
    process.exit(1);
  }
  const r = spawnSync(clasp, ["push", ...args.rest], { cwd: ROOT, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
