/**
 * The top-level functions of Code.js. Apps Script only sees top-level
 * `function` declarations (menus, triggers, google.script.run, custom
 * functions), and Sheets builds a custom function's autocomplete and help
 * from the JSDoc on that very declaration, so both are generated here from
 * the shared registry; each stub only delegates to the bundle.
 */
import type { FunctionDef, ParamDef } from "../shared/functions/index.ts";
import { hostName } from "../shared/functions/index.ts";

/** The bundle is built on first use, not when Apps Script evaluates the file. */
export const LAZY_GLOBAL = "companyData_";

/**
 * The app bundle (apps-script/app-main.ts: what the sidebars and the trigger
 * call) is kept in this HTML file of the project, not in a script file:
 * Apps Script evaluates every script file of a project on every call, a
 * custom function's included
 * (https://developers.google.com/apps-script/guides/v8-runtime: the files
 * share one global scope), but reads an HTML file only when asked
 * (HtmlService.createHtmlOutputFromFile(name).getContent(),
 * https://developers.google.com/apps-script/reference/html/html-output#getContent()).
 * Code.js reads and evaluates it on the first call that needs it.
 */
export const APP_FILE = "app-bundle";

/**
 * The app bundle as the HTML file holds it: one <script> element, the shape
 * of the long-standing "include a file" pattern of Google's HTML service
 * guide (https://developers.google.com/apps-script/guides/html/best-practices,
 * "Separate HTML, CSS, and JavaScript"), so that HtmlService, which refuses
 * malformed HTML (createHtmlOutput: "Error if the HTML is malformed"), reads
 * well-formed HTML. Inside <script> nothing is markup until "</script", which
 * the bundle must therefore not contain.
 */
export const APP_FILE_OPEN = "<script>\n";
export const APP_FILE_CLOSE = "\n</script>\n";
export function appFileText(bundle: string): string {
  if (/<\/script/i.test(bundle)) throw new Error('the app bundle contains "</script", which would end its HTML file');
  return APP_FILE_OPEN + bundle + APP_FILE_CLOSE;
}
export const APP_LAZY_GLOBAL = "companyDataApp_";

/**
 * A custom function's answer as Sheets takes it: the cells, or the error of
 * a single-value call thrown (functions.ts says when). Thrown here, in a
 * short generated function, rather than inside the one-line bundle: where a
 * host decorates an uncaught error with its source line (Node's vm does),
 * that line is this one, not 200 KB of minified code.
 */
export const CELLS = "companyDataCells_";
const CELLS_FN = [
  `function ${CELLS}(answer) {`,
  '  if (answer && !Array.isArray(answer) && typeof answer.thrown === "string") throw new Error(answer.thrown);',
  "  return answer;",
  "}",
].join("\n");

const jsdocText = (s: string) => s.replace(/\*\//g, "* /").replace(/[\r\n]+/g, " ");

function paramType(p: ParamDef): string {
  const scalar = p.kind === "integer" || p.kind === "number" ? "number" : p.kind === "date" ? "Date|string" : "string";
  return p.acceptsRange ? `${scalar}|Array<Array<${scalar}>>` : scalar;
}

export function customFunctionStub(def: FunctionDef): string {
  const name = hostName(def, "sheets");
  const params = def.params.map((p) => p.name);
  const lines = [
    "/**",
    ` * ${jsdocText(def.description.en)} ${jsdocText(def.description.de)}`,
    ...def.params.map(
      (p) =>
        ` * @param {${paramType(p)}} ${p.name} ${p.optional ? "(optional) " : ""}${jsdocText(p.help.en)} / ${jsdocText(p.help.de)}`,
    ),
    ` * @return {Array<Array<string|number|boolean>>} ${jsdocText(def.returns.en)}`,
    " * @customfunction",
    " */",
    `function ${name}(${params.join(", ")}) {`,
    `  return ${CELLS}(${LAZY_GLOBAL}().fn(${JSON.stringify(def.name)}, [${params.join(", ")}]));`,
    "}",
  ];
  return lines.join("\n");
}

/** Entry points besides the custom functions: name, parameters, what it is. */
export interface EntryPoint {
  name: string;
  params: string[];
  doc: string;
  /** Served by the app bundle (app-main.ts) rather than Code.js's own (main.ts). */
  app?: true;
}

export const ENTRY_POINTS: EntryPoint[] = [
  { name: "onOpen", params: ["e"], doc: "Adds the add-on menu; works in every authorization mode." },
  { name: "onInstall", params: ["e"], doc: "Runs onOpen right after installation." },
  { name: "showSearch", params: [], doc: "Opens the search sidebar." },
  { name: "showEnrich", params: [], doc: "Opens the enrichment sidebar." },
  { name: "showSimilar", params: [], doc: "Opens the similar-companies sidebar." },
  { name: "showMonitor", params: [], doc: "Opens the portfolio-monitoring sidebar." },
  { name: "showSettings", params: [], doc: "Opens the settings sidebar." },
  { name: "showHelp", params: [], doc: "Opens the help sidebar." },
  {
    name: "getSettings",
    app: true,
    params: [],
    doc: "The settings as the sidebar sees them: never the key, only whether one is set and a masked hint.",
  },
  {
    name: "saveSettings",
    app: true,
    params: ["settings"],
    doc: "Saves connection, apiKey, baseUrl, serverUrl, serverToken, language, formulaDailyBudget, cacheHours, matchFloor.",
  },
  {
    name: "useMyKeyForFormulas",
    params: [],
    doc: "Menu: this document's formulas use the clicking user's API key (stored for the document, never shown).",
  },
  {
    name: "stopMyKeyForFormulas",
    params: [],
    doc: "Menu: this document's formulas use the spreadsheet owner's key again.",
  },
  {
    name: "uiCall",
    app: true,
    params: ["method", "inputJson"],
    doc: "The sidebars' one server call: an app-service method by name, JSON in and out.",
  },
  {
    name: "monitorTick",
    app: true,
    params: ["e"],
    doc: "Time-driven trigger: one step of the scheduled portfolio check (see apps-script/monitor.ts); e.triggerUid names the spreadsheet it belongs to.",
  },
];

export function entryStub(e: EntryPoint): string {
  return [
    `/** ${jsdocText(e.doc)} */`,
    `function ${e.name}(${e.params.join(", ")}) {`,
    `  return ${e.app ? APP_LAZY_GLOBAL : LAZY_GLOBAL}().${e.name}(${e.params.join(", ")});`,
    "}",
  ].join("\n");
}

/**
 * The app bundle's loader: reads APP_FILE and evaluates it once per
 * execution. The app bundle is self-contained (its own copy of the shared
 * core): one execution runs either Code.js's functions or the app's, never
 * both, so no state has to be shared between the two.
 */
const APP_LOADER = [
  "var companyDataAppInstance_;",
  `function ${APP_LAZY_GLOBAL}() {`,
  "  if (!companyDataAppInstance_) {",
  `    var html = HtmlService.createHtmlOutputFromFile(${JSON.stringify(APP_FILE)}).getContent();`,
  // The file is one <script> element (appFileText): its text is the bundle.
  `    var source = html.slice(html.indexOf(">") + 1, html.lastIndexOf("</script>"));`,
  // sourceURL names the evaluated code in stack traces (V8).
  `    companyDataAppInstance_ = new Function(source + "\\nreturn CompanyDataApp;\\n//# sourceURL=${APP_FILE}.js")();`,
  "  }",
  "  return companyDataAppInstance_;",
  "}",
].join("\n");

/**
 * Code.js: the bundle wrapped in a function that builds it on first call,
 * the app bundle's loader, then the stubs. Evaluating the file defines
 * functions and nothing else.
 */
export function codeJs(bundle: string, defs: readonly FunctionDef[]): string {
  return [
    "// Generated by scripts/build-apps-script.ts from apps-script/ and shared/. Do not edit.",
    "var companyDataInstance_;",
    `function ${LAZY_GLOBAL}() {`,
    "  if (!companyDataInstance_) {",
    `    companyDataInstance_ = (function () {\n${bundle.trim()}\nreturn CompanyData;\n    })();`,
    "  }",
    "  return companyDataInstance_;",
    "}",
    APP_LOADER,
    CELLS_FN,
    "",
    ...ENTRY_POINTS.map(entryStub),
    "",
    ...defs.map(customFunctionStub),
    "",
  ].join("\n");
}
