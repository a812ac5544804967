/** Offline manifest checks, the schema (libxml2 by xmllint-wasm, with Microsoft's XSDs vendored in excel-addin/schemas/), the build's output, and the icons. */
import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { inflateSync } from "node:zlib";
import vm from "node:vm";
import {
  checkManifest,
  manifestForHost,
  manifestInfo,
  manifestUrls,
  manifestVersion,
  devManifest,
  DEV_HOST_URL,
  DEV_ID,
  DEV_NAME,
  GERMAN_LOCALES,
} from "../../excel-addin/build/manifest.ts";
import { validateManifestSchema } from "../../excel-addin/build/schema.ts";
import { createHash } from "node:crypto";
import { parseXml } from "../../excel-addin/build/xml.ts";
import { crc32, iconPng } from "../../excel-addin/build/png.ts";
import { build } from "../../scripts/build-excel.ts";
import { OFFICE_JS, supportHtml, taskpaneHtml } from "../../excel-addin/build/html.ts";
import { uiCss } from "../../scripts/build-ui.ts";
import { functionsFor } from "../../shared/functions/registry.ts";
import { excelDescription, excelText } from "../../excel-addin/build/localise.ts";
import { nth } from "../helpers/indexed.ts";

const source = readFileSync("manifests/excel-manifest.xml", "utf8");
let out = "";

beforeAll(async () => {
  out = (
    await build({
      outDir: join(mkdtempSync(join(tmpdir(), "excel-build-")), "excel-addin"),
      quiet: true,
      hostUrl: "https://addin.example.com/excel/",
    })
  ).outDir;
}, 120_000);

describe("Excel manifest", () => {
  it("passes every offline check", () => {
    expect(checkManifest(source)).toEqual([]);
  });

  it("is well formed for a real XML parser and valid against Microsoft's schema, as source, dev and production manifest", async () => {
    expect(await validateManifestSchema(source)).toEqual([]);
    expect(await validateManifestSchema(await devManifest(source))).toEqual([]);
    expect(await validateManifestSchema(manifestForHost(source, "https://addin.example.com/excel/"))).toEqual([]);
    // The build wrote both, each validated.
    expect(await validateManifestSchema(readFileSync(join(out, "manifest-dev.xml"), "utf8"))).toEqual([]);
    expect(await validateManifestSchema(readFileSync(join(out, "manifest.xml"), "utf8"))).toEqual([]);
  });

  it("the schema check catches what Excel and the Office tools reject", async () => {
    // The blocker of issue 13: "--" inside a comment is not well-formed XML.
    const dashes = source.replace("<OfficeApp ", "<!-- build with --host-url -->\n<OfficeApp ");
    expect((await validateManifestSchema(dashes)).join()).toMatch(/comment/i);
    expect(checkManifest(dashes)[0]).toMatch(/not well-formed.*comment/);
    // Elements out of the schema's order, unknown elements, bad enumerations.
    expect(
      (
        await validateManifestSchema(
          source.replace("<Permissions>ReadWriteDocument</Permissions>", "<Permissions>Everything</Permissions>"),
        )
      ).join(),
    ).toMatch(/Permissions/);
    expect((await validateManifestSchema(source.replace("<Version>", "<Colour>red</Colour><Version>"))).join()).toMatch(
      /Colour/,
    );
    expect(
      (await validateManifestSchema(source.replace(/<Version>[^<]*<\/Version>/, "<Version>one</Version>"))).join(),
    ).toMatch(/Version/);
    expect(
      (await validateManifestSchema(source.replace("&quot;Siemens AG&quot;", "& Siemens"))).length,
    ).toBeGreaterThan(0);
  });

  it("catches what it is meant to catch", () => {
    expect(checkManifest(source.replace("</OfficeApp>", ""))[0]).toMatch(/not well-formed/);
    expect(checkManifest(source.replace('resid="Open.Tip"', 'resid="Open.Nope"')).join()).toMatch(
      /resid Open.Nope is not defined/,
    );
    expect(
      checkManifest(source.replace("https://localhost:3000/functions.js", "http://localhost:3000/functions.js")).join(),
    ).toMatch(/not https/);
    expect(checkManifest(source.replace('id="CompanyData.Group"', 'id="CompanyData.Tab"')).join()).toMatch(
      /used twice/,
    );
    expect(
      checkManifest(
        source.replace(
          '<Runtime resid="Taskpane.Url" lifetime="long"/>',
          '<Runtime resid="Functions.Script.Url" lifetime="long"/>',
        ),
      ).join(),
    ).toMatch(/shared runtime/);
    expect(checkManifest(source.replace('Name="SharedRuntime"', 'Name="CustomFunctionsRuntime"')).join()).toMatch(
      /SharedRuntime/,
    );
    expect(checkManifest(source.replace('<Set Name="CustomFunctionsRuntime" MinVersion="1.2"/>', "")).join()).toMatch(
      /CustomFunctionsRuntime requirement set is missing/,
    );
    expect(
      checkManifest(
        source.replace(
          '<Set Name="CustomFunctionsRuntime" MinVersion="1.2"/>',
          '<Set Name="CustomFunctionsRuntime" MinVersion="1.1"/>',
        ),
      ).join(),
    ).toMatch(/at least 1.2/);
    expect(checkManifest(source.replace('DefaultValue="COMPANY"', 'DefaultValue="CONTOSO"')).join()).toMatch(/COMPANY/);
    expect(checkManifest(source.replace("<Permissions>ReadWriteDocument", "<Permissions>ReadDocument")).join()).toMatch(
      /ReadWriteDocument/,
    );
    // A button that runs a function to call showAsTaskpane (ignored for Marketplace add-ins since 2026-02-23).
    const execute = source.replace(
      /<Action xsi:type="ShowTaskpane">[\s\S]*?<\/Action>/,
      '<Action xsi:type="ExecuteFunction"><FunctionName>open</FunctionName></Action>',
    );
    expect(checkManifest(execute).join()).toMatch(/must be ShowTaskpane/);
    // The shared-runtime guidance (2026-07-30): no <TaskpaneId> under an Action of a long-lifetime runtime's Host.
    expect(source).not.toMatch(/<TaskpaneId>/);
    const withId = source.replace(
      '<Action xsi:type="ShowTaskpane">',
      '<Action xsi:type="ShowTaskpane">\n                    <TaskpaneId>CompanyData.Taskpane</TaskpaneId>',
    );
    expect(checkManifest(withId).join()).toMatch(/TaskpaneId.*long-lifetime shared runtime/);
    expect(
      checkManifest(
        source.replace(
          '<SourceLocation resid="Taskpane.Url"/>\n                  </Action>',
          '<SourceLocation resid="GetStarted.LearnMoreUrl"/>\n                  </Action>',
        ),
      ).join(),
    ).toMatch(/other than the shared runtime/);
    // A German text without its Austrian and Swiss twins.
    expect(checkManifest(source.replace(/\s*<Override Locale="de-CH" Value="Firmendaten"\/>/, "")).join()).toMatch(
      /no de-CH override/,
    );
  });

  it("the ribbon's button opens the shared runtime's page with ShowTaskpane; no ExecuteFunction, no showAsTaskpane anywhere", () => {
    const root = parseXml(source);
    const all = (el: ReturnType<typeof parseXml>): ReturnType<typeof parseXml>[] => [el, ...el.children.flatMap(all)];
    const actions = all(root).filter((e) => e.name === "Action");
    expect(actions.map((a) => a.attrs["xsi:type"])).toEqual(["ShowTaskpane"]);
    expect(nth(actions, 0).children.find((c) => c.name === "SourceLocation")!.attrs.resid).toBe("Taskpane.Url");
    expect(source).not.toContain("ExecuteFunction");
    const built = ["functions.js", "taskpane.js"].map((f) => readFileSync(join(out, f), "utf8")).join("\n");
    expect(built).not.toContain("showAsTaskpane");
    expect(existsSync(join(out, "commands.js"))).toBe(false);
  });

  it("German texts for de-DE, de-AT and de-CH alike, the German functions.json for all three", () => {
    const deDe = [...source.matchAll(/<(?:bt:)?Override Locale="de-DE" Value="([^"]*)"/g)].map((m) => m[1]);
    expect(deDe.length).toBeGreaterThan(5);
    for (const loc of GERMAN_LOCALES)
      expect(
        [...source.matchAll(new RegExp(`<(?:bt:)?Override Locale="${loc}" Value="([^"]*)"`, "g"))].map((m) => m[1]),
      ).toEqual(deDe);
    for (const loc of GERMAN_LOCALES)
      expect(source).toContain(`<bt:Override Locale="${loc}" Value="https://localhost:3000/functions-de.json"/>`);
  });

  it("the dev manifest has its own Id and display name; the production manifest keeps the source's", () => {
    const dev = readFileSync(join(out, "manifest-dev.xml"), "utf8");
    const prod = readFileSync(join(out, "manifest.xml"), "utf8");
    const id = (x: string) => /<Id>([^<]+)<\/Id>/.exec(x)![1];
    expect(id(dev)).toBe(DEV_ID);
    expect(id(prod)).toBe(id(source));
    expect(id(dev)).not.toBe(id(source));
    expect(dev).toContain(`<DisplayName DefaultValue="${DEV_NAME.en}">`);
    for (const loc of GERMAN_LOCALES) expect(dev).toContain(`<Override Locale="${loc}" Value="${DEV_NAME.de}"/>`);
    expect(prod).not.toContain(DEV_NAME.en);
    expect(dev).toContain(DEV_HOST_URL);
    expect(checkManifest(dev)).toEqual([]);
  });

  it("Microsoft's manifest reader (office-addin-manifest) reads both manifests as Office would: Id, name, version, host", async () => {
    const dev = await manifestInfo(readFileSync(join(out, "manifest-dev.xml"), "utf8"));
    const prod = await manifestInfo(readFileSync(join(out, "manifest.xml"), "utf8"));
    const src = await manifestInfo(source);
    expect(dev.id).toBe(DEV_ID);
    expect(dev.displayName).toBe(DEV_NAME.en);
    expect(prod.id).toBe(src.id);
    expect(prod.displayName).toBe(src.displayName);
    for (const m of [dev, prod]) {
      expect(m.version).toBe(src.version);
      expect(m.hosts).toEqual(["Workbook"]);
      expect(m.officeAppType).toBe("TaskPaneApp");
    }
    expect(prod.defaultSettings?.sourceLocation).toBe("https://addin.example.com/excel/taskpane.html");
  });

  it("<Version> is bumped whenever functions.json changes (Excel keeps the functions' metadata until the manifest changes)", () => {
    // manifests/excel-functions-versions.json: one line per Version, the fingerprint of the metadata Excel loads with it.
    const record = JSON.parse(readFileSync("manifests/excel-functions-versions.json", "utf8")) as {
      versions: { version: string; sha256: string }[];
    };
    const fingerprint = createHash("sha256")
      .update(readFileSync(join(out, "functions.json")))
      .update(readFileSync(join(out, "functions-de.json")))
      .digest("hex");
    const latest = nth(record.versions, record.versions.length - 1);
    const version = manifestVersion(source);
    const fix = `functions.json changed: raise <Version> in manifests/excel-manifest.xml (now ${version}) and add {"version": "<the new one>", "sha256": "${fingerprint}"} at the end of manifests/excel-functions-versions.json`;
    expect(latest.sha256, fix).toBe(fingerprint);
    expect(
      latest.version,
      `manifests/excel-functions-versions.json's last entry must be the manifest's <Version> ${version}`,
    ).toBe(version);
    // Versions only go up, and no Version is reused for other metadata.
    const parts = (v: string) => v.split(".").map(Number);
    const later = (a: string, b: string) => {
      const x = parts(a);
      const y = parts(b);
      for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return (x[i] ?? 0) > (y[i] ?? 0);
      return false;
    };
    record.versions
      .slice(1)
      .forEach((v, i) =>
        expect(
          later(v.version, nth(record.versions, i).version),
          `${v.version} after ${nth(record.versions, i).version}`,
        ).toBe(true),
      );
  });

  it("the support page is a real page: key, credits, every function, troubleshooting, privacy, contact, in English and German", () => {
    const html = readFileSync(join(out, "help.html"), "utf8");
    for (const id of ["key", "credits", "functions", "trouble", "privacy", "contact"])
      expect(html).toContain(`id="${id}"`);
    for (const d of functionsFor("excel")) expect(html).toContain(`COMPANY.${d.name}</code>`);
    expect(html).toContain("COMPANY.RISK</code>");
    expect(html).toContain("Firmendaten für Excel");
    expect(html).not.toMatch(/<script/);
    expect(supportHtml([{ name: "X<", en: "<b>", de: "&" }])).toContain("COMPANY.X&lt;</code> – &lt;b&gt;");
    expect(manifestUrls(source)).toContain("https://localhost:3000/help.html");
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

  it("taskpane.html loads Office.js from Microsoft's CDN, then the functions and the task pane", () => {
    const html = readFileSync(join(out, "taskpane.html"), "utf8");
    expect(html).toContain(`<script src="${OFFICE_JS}"></script>`);
    const order = ["functions.js", "taskpane.js"].map((f) => html.indexOf(f));
    expect(order.every((i, k) => i > html.indexOf(OFFICE_JS) && (k === 0 || i > nth(order, k - 1)))).toBe(true);
  });

  it("functions-de.json: the same functions and parameters with the registry's German help, named in the manifest for de-DE", () => {
    type Meta = {
      functions: {
        id: string;
        name: string;
        description: string;
        parameters: { name: string; description: string; optional?: boolean }[];
      }[];
    };
    const en = JSON.parse(readFileSync(join(out, "functions.json"), "utf8")) as Meta;
    const de = JSON.parse(readFileSync(join(out, "functions-de.json"), "utf8")) as Meta;
    const shape = (m: Meta) =>
      m.functions.map((f) => [f.id, f.name, f.parameters.map((p) => [p.name, p.optional ?? false])]);
    expect(shape(de)).toEqual(shape(en));
    const defs = functionsFor("excel");
    const names = defs.map((d) => d.name);
    for (const f of de.functions) {
      const def = defs.find((d) => d.name === f.id)!;
      expect(f.description).toBe(excelDescription(def, "de", names));
      for (const p of f.parameters)
        expect(p.description).toBe(excelText(def.params.find((x) => x.name === p.name)!.help.de, names));
    }
    expect(de.functions.find((f) => f.id === "CARD")!.description).toMatch(/6 Credits/);
    expect(en.functions.find((f) => f.id === "CARD")!.description).toMatch(/6 credits/);
    // Excel's spelling in the help: COMPANY.PEOPLE, never the Sheets name COMPANY_PEOPLE.
    for (const m of [en, de]) expect(JSON.stringify(m)).not.toMatch(/COMPANY_[A-Z]/);
    expect(JSON.stringify(en)).toContain("COMPANY.PEOPLE");
    // Cells calculated together are one batch in Excel: RESOLVE's help says what that costs.
    expect(en.functions.find((f) => f.id === "RESOLVE")!.description).toMatch(/1 credit per 10 names\)\.$/);
    expect(source).toMatch(
      /<bt:Url id="Functions\.Metadata\.Url"[^>]*>\s*<bt:Override Locale="de-DE" Value="https:\/\/localhost:3000\/functions-de\.json"\/>/,
    );
    // Data types (COMPANY.CARD's entity) are allowed in both files.
    expect(en).toHaveProperty("allowCustomDataForDataTypeAny", true);
    expect(de).toHaveProperty("allowCustomDataForDataTypeAny", true);
    expect(manifestUrls(readFileSync(join(out, "manifest.xml"), "utf8"))).toContain(
      "https://addin.example.com/excel/functions-de.json",
    );
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
    const meta = JSON.parse(readFileSync(join(out, "functions.json"), "utf8")) as {
      functions: { id: string; parameters: unknown[] }[];
    };
    const ids = meta.functions.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(
      functionsFor("excel")
        .map((d) => d.name)
        .sort(),
    );
    const associated = associations(readFileSync(join(out, "functions.js"), "utf8"));
    // Every id exactly once, nothing functions.json lacks, each bound to a function.
    expect([...associated.map((a) => a.id)].sort()).toEqual([...ids].sort());
    for (const a of associated) expect(a.kind, a.id).toBe("function");
  });

  it("the association check catches a missing, a doubled and an extra association", () => {
    const bundle = readFileSync(join(out, "functions.js"), "utf8");
    const ids = associations(bundle)
      .map((a) => a.id)
      .sort();
    const tail = (code: string) => `${bundle}\n${code}`;
    // An id associated twice, or one functions.json does not know, shows in the recorded calls.
    expect(
      associations(tail('CustomFunctions.associate("SEARCH", function () {});'))
        .map((a) => a.id)
        .sort(),
    ).not.toEqual(ids);
    expect(
      associations(tail('CustomFunctions.associate("NOPE", function () {});'))
        .map((a) => a.id)
        .sort(),
    ).not.toEqual(ids);
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
      Error: class {
        constructor(
          readonly code: string,
          readonly message?: string,
        ) {}
      },
      ErrorCode: { invalidValue: "#VALUE!", notAvailable: "#N/A", invalidNumber: "#NUM!" },
    },
    Office: {
      context: {
        displayLanguage: "en-US",
        requirements: { isSetSupported: () => false },
        document: { settings: { get: () => null, set() {}, saveAsync: (cb: () => void) => cb() } },
      },
    },
    OfficeRuntime: {
      storage: {
        getItem: async () => null,
        setItem: async () => undefined,
        removeItem: async () => undefined,
        getItems: async () => ({}),
        setItems: async () => undefined,
        removeItems: async () => undefined,
        getKeys: async () => [],
      },
    },
    console: { log() {}, warn() {}, error() {}, info() {} },
    setTimeout,
    clearTimeout,
    URL,
    TextEncoder,
    TextDecoder,
    crypto: globalThis.crypto,
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
    expect(nth(parseXml('<a x="&amp;"><b>t</b></a>').children, 0).text).toBe("t");
    expect(() => parseXml("<!-- a -- b --><a/>")).toThrow(/comment/);
    expect(() => parseXml("<!-- a ---><a/>")).toThrow(/comment/);
    expect(parseXml("<!-- a - b --><a/>").name).toBe("a");
  });

  it("the XML reader knows only XML's entities and its own attributes, not Object's inherited names", () => {
    expect(() => parseXml("<a>&constructor;</a>")).toThrow(/unknown entity/);
    expect(() => parseXml("<a>&toString;</a>")).toThrow(/unknown entity/);
    expect(parseXml('<a constructor="x"/>').attrs).toEqual({ constructor: "x" });
    expect(parseXml("<a x='&lt;&#65;'/>").attrs).toEqual({ x: "<A" });
  });
});
