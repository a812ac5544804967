/** Offline manifest checks, the build's output, and the icons. */
import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { inflateSync } from "node:zlib";
import vm from "node:vm";
import { checkManifest, manifestForHost, ribbonFunctionNames, manifestUrls, DEV_HOST_URL } from "../../excel-addin/build/manifest.ts";
import { parseXml } from "../../excel-addin/build/xml.ts";
import { crc32, iconPng } from "../../excel-addin/build/png.ts";
import { COMMAND_PANELS } from "../../excel-addin/commands/commands.ts";
import { build } from "../../scripts/build-excel.ts";
import { OFFICE_JS, taskpaneHtml } from "../../excel-addin/build/html.ts";
import { uiCss } from "../../scripts/build-ui.ts";
import { functionsFor } from "../../shared/functions/registry.ts";
import { excelDescription, excelText } from "../../excel-addin/build/localise.ts";

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

  it("functions-de.json: the same functions and parameters with the registry's German help, named in the manifest for de-DE", () => {
    type Meta = { functions: { id: string; name: string; description: string; parameters: { name: string; description: string; optional?: boolean }[] }[] };
    const en = JSON.parse(readFileSync(join(out, "functions.json"), "utf8")) as Meta;
    const de = JSON.parse(readFileSync(join(out, "functions-de.json"), "utf8")) as Meta;
    const shape = (m: Meta) => m.functions.map((f) => [f.id, f.name, f.parameters.map((p) => [p.name, p.optional ?? false])]);
    expect(shape(de)).toEqual(shape(en));
    const defs = functionsFor("excel");
    const names = defs.map((d) => d.name);
    for (const f of de.functions) {
      const def = defs.find((d) => d.name === f.id)!;
      expect(f.description).toBe(excelDescription(def, "de", names));
      for (const p of f.parameters) expect(p.description).toBe(excelText(def.params.find((x) => x.name === p.name)!.help.de, names));
    }
    expect(de.functions.find((f) => f.id === "CARD")!.description).toMatch(/6 Credits/);
    expect(en.functions.find((f) => f.id === "CARD")!.description).toMatch(/6 credits/);
    // Excel's spelling in the help: COMPANY.PEOPLE, never the Sheets name COMPANY_PEOPLE.
    for (const m of [en, de]) expect(JSON.stringify(m)).not.toMatch(/COMPANY_[A-Z]/);
    expect(JSON.stringify(en)).toContain("COMPANY.PEOPLE");
    // Cells calculated together are one batch in Excel: RESOLVE's help says what that costs.
    expect(en.functions.find((f) => f.id === "RESOLVE")!.description).toMatch(/1 credit per 10 names\)\.$/);
    expect(source).toMatch(/<bt:Url id="Functions\.Metadata\.Url"[^>]*>\s*<bt:Override Locale="de-DE" Value="https:\/\/localhost:3000\/functions-de\.json"\/>/);
    expect(manifestUrls(readFileSync(join(out, "manifest.xml"), "utf8"))).toContain("https://addin.example.com/excel/functions-de.json");
  });

  it("taskpane.html carries the UI's stylesheet inline, and inline CSS cannot close its <style>", async () => {
    const html = readFileSync(join(out, "taskpane.html"), "utf8");
    const css = await uiCss();
    expect(css).toContain(".cd-app{");
    const style = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? "";
    expect(style).toContain(css);
    expect(taskpaneHtml({ css: "a{}</style><script>x()</script>" }).match(/<\/style>/gi)).toHaveLength(1);
  });

  it("functions.json and the bundle's CustomFunctions.associate calls match both ways, each id associated once", () => {
    const meta = JSON.parse(readFileSync(join(out, "functions.json"), "utf8")) as { functions: { id: string; parameters: unknown[] }[] };
    const ids = meta.functions.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(functionsFor("excel").map((d) => d.name).sort());
    const associated = associations(readFileSync(join(out, "functions.js"), "utf8"));
    // Every id exactly once, nothing functions.json lacks, each bound to a function.
    expect([...associated.map((a) => a.id)].sort()).toEqual([...ids].sort());
    for (const a of associated) expect(a.kind, a.id).toBe("function");
  });

  it("the association check catches a missing, a doubled and an extra association", () => {
    const bundle = readFileSync(join(out, "functions.js"), "utf8");
    const ids = associations(bundle).map((a) => a.id).sort();
    const tail = (code: string) => `${bundle}\n${code}`;
    // An id associated twice, or one functions.json does not know, shows in the recorded calls.
    expect(associations(tail('CustomFunctions.associate("SEARCH", function () {});')).map((a) => a.id).sort()).not.toEqual(ids);
    expect(associations(tail('CustomFunctions.associate("NOPE", function () {});')).map((a) => a.id).sort()).not.toEqual(ids);
    // A bundle that never associates SEARCH.
    const dropped = bundle.replace(/(\.associate\()("SEARCH")/, '$1"SEARCH_GONE"');
    expect(dropped).not.toBe(bundle);
    expect(associations(dropped).map((a) => a.id)).not.toContain("SEARCH");
  });
});

/**
 * Evaluate functions.js in a fresh context whose CustomFunctions records every
 * associate(id, fn) call (in order, repeats kept), as Excel's runtime would see them.
 */
function associations(bundle: string): { id: string; kind: string }[] {
  const calls: { id: string; kind: string }[] = [];
  const context = vm.createContext({
    CustomFunctions: {
      associate: (id: unknown, fn: unknown) => void calls.push({ id: String(id), kind: typeof fn }),
      Error: class { constructor(readonly code: string, readonly message?: string) {} },
      ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A", invalidNumber: "#NUM!" },
    },
    Office: { context: { displayLanguage: "en-US", requirements: { isSetSupported: () => false }, document: { settings: { get: () => null, set() {}, saveAsync: (cb: () => void) => cb() } } } },
    OfficeRuntime: { storage: { getItem: async () => null, setItem: async () => undefined, removeItem: async () => undefined, getItems: async () => ({}), setItems: async () => undefined, removeItems: async () => undefined, getKeys: async () => [] } },
    console: { log() {}, warn() {}, error() {}, info() {} },
    setTimeout, clearTimeout, URL, TextEncoder, TextDecoder, crypto: globalThis.crypto,
  });
  vm.runInContext(bundle, context, { filename: "functions.js" });
  return calls;
}

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
