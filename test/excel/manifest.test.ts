/** Offline manifest checks, the build's output, and the icons. */
import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { inflateSync } from "node:zlib";
import { checkManifest, manifestForHost, ribbonFunctionNames, manifestUrls, DEV_HOST_URL } from "../../excel-addin/build/manifest.ts";
import { parseXml } from "../../excel-addin/build/xml.ts";
import { crc32, iconPng } from "../../excel-addin/build/png.ts";
import { COMMAND_PANELS } from "../../excel-addin/commands/commands.ts";
import { build } from "../../scripts/build-excel.ts";
import { OFFICE_JS, taskpaneHtml } from "../../excel-addin/build/html.ts";
import { uiCss } from "../../scripts/build-ui.ts";

const source = readFileSync("manifests/excel-manifest.xml", "utf8");
let out = "";

beforeAll(async () => {
  out = (await build({ outDir: join(mkdtempSync(join(tmpdir(), "excel-build-")), "excel-addin"), quiet: true, hostUrl: "https://addin.example.com/excel/" })).outDir;
}, 120_000);

describe("Excel manifest", () => {
  it("passes every offline check", () => {
    expect(checkManifest(source)).toEqual([]);
  });

  it("catches what it is meant to catch", () => {
    expect(checkManifest(source.replace("</OfficeApp>", ""))[0]).toMatch(/not well-formed/);
    expect(checkManifest(source.replace('resid="Search.Tip"', 'resid="Search.Nope"')).join()).toMatch(/resid Search.Nope is not defined/);
    expect(checkManifest(source.replace("https://localhost:3000/functions.js", "http://localhost:3000/functions.js")).join()).toMatch(/not https/);
    expect(checkManifest(source.replace('id="CompanyData.Enrich"', 'id="CompanyData.Search"')).join()).toMatch(/used twice/);
    expect(checkManifest(source.replace('<Runtime resid="Taskpane.Url" lifetime="long"/>', '<Runtime resid="Functions.Script.Url" lifetime="long"/>')).join()).toMatch(/shared runtime/);
    expect(checkManifest(source.replace('Name="SharedRuntime"', 'Name="CustomFunctionsRuntime"')).join()).toMatch(/SharedRuntime/);
    expect(checkManifest(source.replace('DefaultValue="COMPANY"', 'DefaultValue="CONTOSO"')).join()).toMatch(/COMPANY/);
    expect(checkManifest(source.replace("<Permissions>ReadWriteDocument", "<Permissions>ReadDocument")).join()).toMatch(/ReadWriteDocument/);
  });

  it("ribbon: Search, Enrich, Find similar, Monitor, Settings, each a command the bundle registers", () => {
    const names = ribbonFunctionNames(source);
    expect(names).toEqual(Object.keys(COMMAND_PANELS));
    const labels = [...source.matchAll(/<bt:String id="(\w+)\.Label" DefaultValue="([^"]+)"/g)].map((m) => m[2]);
    expect(labels).toEqual(expect.arrayContaining(["Search", "Enrich", "Find similar", "Monitor", "Settings"]));
  });

  it("the production manifest points at the host URL only and still passes", () => {
    const prod = manifestForHost(source, "https://addin.example.com/excel/");
    expect(prod).not.toContain(DEV_HOST_URL);
    expect(checkManifest(prod)).toEqual([]);
    expect(() => manifestForHost(source, "http://insecure.example.com")).toThrow(/https/);
    expect(readFileSync(join(out, "manifest.xml"), "utf8")).toBe(prod);
  });

  it("every file the manifest loads exists in the build", () => {
    const prod = readFileSync(join(out, "manifest.xml"), "utf8");
    for (const url of manifestUrls(prod)) {
      if (!url.startsWith("https://addin.example.com/excel/")) continue;
      const file = url.slice("https://addin.example.com/excel/".length);
      expect(existsSync(join(out, file)), file).toBe(true);
    }
  });

  it("taskpane.html loads Office.js from Microsoft's CDN, then the functions, commands and task pane", () => {
    const html = readFileSync(join(out, "taskpane.html"), "utf8");
    expect(html).toContain(`<script src="${OFFICE_JS}"></script>`);
    const order = ["functions.js", "commands.js", "taskpane.js"].map((f) => html.indexOf(f));
    expect(order.every((i, k) => i > html.indexOf(OFFICE_JS) && (k === 0 || i > order[k - 1]))).toBe(true);
  });

  it("taskpane.html carries the UI's stylesheet inline, and inline CSS cannot close its <style>", async () => {
    const html = readFileSync(join(out, "taskpane.html"), "utf8");
    const css = await uiCss();
    expect(css).toContain(".cd-app{");
    const style = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? "";
    expect(style).toContain(css);
    expect(taskpaneHtml({ css: "a{}</style><script>x()</script>" }).match(/<\/style>/gi)).toHaveLength(1);
  });

  it("functions.json has every registry function under the ids the bundle associates", () => {
    const meta = JSON.parse(readFileSync(join(out, "functions.json"), "utf8")) as { functions: { id: string; parameters: unknown[] }[] };
    const bundle = readFileSync(join(out, "functions.js"), "utf8");
    expect(meta.functions.length).toBeGreaterThanOrEqual(17);
    for (const f of meta.functions) expect(bundle).toContain(`"${f.id}"`);
    const ids = meta.functions.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("icons", () => {
  it("writes valid PNGs at every size the ribbon and the store ask for", () => {
    for (const size of [16, 32, 64, 80, 128]) {
      const png = readFileSync(join(out, "assets", `icon-${size}.png`));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.readUInt32BE(16)).toBe(size);
      expect(png.readUInt32BE(20)).toBe(size);
      // Chunk CRCs hold, and the image data inflates to size rows of 1 + 4*size bytes.
      let at = 8;
      let idat = Buffer.alloc(0);
      while (at < png.length) {
        const len = png.readUInt32BE(at);
        const type = png.subarray(at + 4, at + 8).toString("ascii");
        expect(png.readUInt32BE(at + 8 + len)).toBe(crc32(png.subarray(at + 4, at + 8 + len)));
        if (type === "IDAT") idat = Buffer.concat([idat, png.subarray(at + 8, at + 8 + len)]);
        at += 12 + len;
      }
      expect(inflateSync(idat).length).toBe(size * (1 + 4 * size));
    }
    expect(iconPng(16).equals(iconPng(16))).toBe(true);
  });

  it("the XML reader rejects what is not well formed", () => {
    expect(() => parseXml("<a><b></a>")).toThrow();
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow(/duplicate/);
    expect(() => parseXml("<a>&nope;</a>")).toThrow(/entity/);
    expect(() => parseXml("<a/><b/>")).toThrow(/second root/);
    expect(parseXml('<a x="&amp;"><b>t</b></a>').children[0].text).toBe("t");
  });
});
