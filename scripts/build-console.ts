/**
 * dist/console/index.html: the team console's page (console/), one HTML
 * file with its script and styles inline (the add-ins' stylesheet and
 * console.css), which the team server serves at GET /console
 * (server/console/page.ts) with a Content-Security-Policy naming the
 * script's hash. Holds no secret and no figure: both come from the API.
 */
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle, inlineScript, minifyCss, uiCss } from "./build-ui.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CONSOLE_OUT = join(ROOT, "dist", "console");

export async function buildConsole(outDir = CONSOLE_OUT): Promise<{ file: string; bytes: number }> {
  const [template, js, css, own] = await Promise.all([
    readFile(join(ROOT, "console", "index.html"), "utf8"),
    bundle(join(ROOT, "console", "main.ts")),
    uiCss(),
    readFile(join(ROOT, "console", "console.css"), "utf8").then(minifyCss),
  ]);
  const html = template.replace("/*CC_CSS*/", () => css + own).replace("/*CC_JS*/", () => inlineScript(js));
  await mkdir(outDir, { recursive: true });
  const file = join(outDir, "index.html");
  await writeFile(file, html);
  for (const entry of await readdir(outDir))
    if (entry !== "index.html") await rm(join(outDir, entry), { recursive: true, force: true });
  return { file, bytes: Buffer.byteLength(html) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await buildConsole();
  console.log(`console: ${r.file} (${(r.bytes / 1024).toFixed(1)} KiB)`);
}
