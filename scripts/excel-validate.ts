/**
 * npm run excel:validate [-- --host-url https://… | --manifest FILE] — the
 * step before a Marketplace (AppSource) submission: builds the add-in (the
 * production manifest for --host-url, else the dev manifest) and sends the
 * manifest to Microsoft's online validation service through
 * office-addin-manifest's validateManifest (the same call as `npx
 * office-addin-manifest validate -p FILE`), which checks what the offline
 * schema cannot: the Marketplace's rules for the add-in's details and
 * requirement sets. Needs a connection to Microsoft's service; the build and
 * `npm test` validate offline (excel-addin/build/schema.ts) and never need it.
 */
import { join } from "node:path";
import { validateManifest, type ManifestValidationIssue } from "office-addin-manifest";
import { build, DEFAULT_OUT } from "./build-excel.ts";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const line = (kind: string, i: ManifestValidationIssue) =>
  `  ${kind}${i.code ? ` ${i.code}` : ""}${i.line !== undefined ? ` (line ${i.line})` : ""}: ${i.title ?? ""}${i.content ? ` — ${i.content}` : ""}${i.helpUrl ? ` ${i.helpUrl}` : ""}`;

async function main(): Promise<number> {
  let manifest = option("--manifest");
  if (!manifest) {
    const hostUrl = option("--host-url");
    await build({ hostUrl, quiet: true });
    manifest = join(DEFAULT_OUT, hostUrl ? "manifest.xml" : "manifest-dev.xml");
  }
  console.log(`Validating ${manifest} with Microsoft's online service …`);
  let result;
  try {
    result = await validateManifest(manifest, Boolean(option("--host-url")));
  } catch (e) {
    console.error(
      `The validation service could not be reached (${e instanceof Error ? e.message : String(e)}). It needs an internet connection; the offline schema check runs in npm run build and npm test.`,
    );
    return 2;
  }
  const report = result.report;
  for (const i of report?.errors ?? []) console.log(line("error", i));
  for (const i of report?.warnings ?? []) console.log(line("warning", i));
  for (const i of report?.notes ?? []) console.log(line("note", i));
  if (!report) console.log(`  the service answered ${result.status ?? "?"} ${result.statusText ?? ""}`.trimEnd());
  console.log(result.isValid ? "The manifest is valid." : "The manifest is not valid.");
  return result.isValid ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
