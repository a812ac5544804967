/**
 * `npm run build`: every shipped artefact into dist/.
 *   dist/apps-script/  Code.js, appsscript.json, one HTML per sidebar (clasp pushes this)
 *   dist/excel-addin/  functions.json, bundles, taskpane.html, icons, manifests
 *   dist/playground/   the page `npm start` serves
 *   dist/node/         the Node programs (CLI, server, MCP, reconciliation, emulator) bundled: what the package runs
 *   dist/console/      the team console's page (the team server serves it at /console)
 * Anything else directly under dist/ was written by an older build and is
 * removed (scripts/dist.ts), so dist/ holds exactly what the builds write.
 * Options: --host-url https://… writes the Excel production manifest for that host;
 * --team-server https://…/ adds a team server to the Sheets deployment's allowlist
 * (scripts/apps-script-manifest.ts).
 */
import { build as buildAppsScript } from "./build-apps-script.ts";
import { build as buildExcel } from "./build-excel.ts";
import { buildConsole, buildPlayground } from "./build-ui.ts";
import { buildNode } from "./build-node.ts";
import { DIST, ownedOutputs, pruneStale } from "./dist.ts";
import { teamServerOption } from "./apps-script-manifest.ts";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const started = Date.now();
try {
  await buildAppsScript({ teamServer: teamServerOption(process.argv.slice(2)).teamServer });
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
console.log("built dist/apps-script");
await buildExcel({ hostUrl: option("--host-url") });
console.log("built dist/excel-addin");
await buildPlayground();
console.log("built dist/playground");
await buildNode();
console.log("built dist/node");
await buildConsole();
console.log("built dist/console");
for (const name of await pruneStale(DIST, ownedOutputs())) console.log(`removed stale dist/${name}`);
console.log(`build finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
