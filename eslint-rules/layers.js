// The floors of the tree and the layers of shared/ (docs/architecture.md, "Floors and layers"), as an
// ESLint rule run by `npm test`:
//  1. a top-level folder imports only folders on floors below its own (FLOORS): never one above it,
//     never one beside it, so no two folders depend on each other both ways; browser code (BROWSER)
//     never imports node/, and a Node-only folder only for its types;
//  2. a folder of shared/ imports only folders listed before it in LAYERS;
//  3. code outside a folder of shared/, or outside node/, imports it only through its index.ts, its
//     public surface (tests and benches may reach inside: they test the internals).
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SHARED = join(ROOT, "shared");

/** Lowest first: core → api → operations → table → features → app; the hosts sit on top. */
export const LAYERS = [
  ["core", ["i18n", "core"]],
  ["api", ["api"]],
  ["operations", ["batch", "operations", "credits"]],
  ["table", ["sheet"]],
  ["features", ["schedule", "enrich", "undo", "monitor", "refresh", "doctor"]],
  ["app", ["app", "functions", "web", "ui"]],
];
const ORDER = LAYERS.flatMap(([, folders]) => folders);

/**
 * The top-level folders, lowest floor first. The hosts stand side by side on node/ and shared/; the
 * team server hosts the reconciliation service (server/reconcile.ts); the team console's browser code
 * reads the server's answer types; cli/ is the one entry (bin/company-data.js → cli/main.ts), which
 * dispatches to the hosts; the tools (builds, benchmarks, tests) stand on top.
 */
export const FLOORS = [
  ["core", ["shared"]],
  ["node", ["node"]],
  ["hosts", ["apps-script", "excel-addin", "playground", "emulator", "mcp", "reconcile"]],
  ["team server", ["server"]],
  ["team console", ["console"]],
  ["entry", ["cli"]],
  ["tools", ["scripts", "bench", "test", "eslint-rules"]],
];
/** Code that runs in a browser or in Apps Script: it never imports node/, and other Node-only folders only for types. */
export const BROWSER = ["shared", "apps-script", "excel-addin", "playground", "console"];
const NODE_ONLY = ["node", "emulator", "mcp", "reconcile", "server", "cli", "scripts"];
const FLOOR_ORDER = FLOORS.map(([, folders]) => folders);
const floorOf = (top) => FLOOR_ORDER.findIndex((folders) => folders.includes(top));

/** The top-level folder a path lies in, or null for a file at the root or outside the tree. */
export function topOf(abs) {
  const r = relative(ROOT, abs);
  if (r.startsWith("..")) return null;
  const parts = r.split(sep);
  return parts.length > 1 ? parts[0] : null;
}

/** Why an import from top-level folder `from` of `to` breaks the floors, or null: "upward", "beside", "node", "types". */
export function floorProblem(from, to, typeOnly) {
  if (!from || !to || from === to) return null;
  if (BROWSER.includes(from) && to === "node") return "node";
  if (BROWSER.includes(from) && NODE_ONLY.includes(to) && !typeOnly) return "types";
  const a = floorOf(from);
  const b = floorOf(to);
  if (a < 0 || b < 0) return null;
  if (b > a) return "upward";
  if (b === a && FLOORS[a][0] !== "tools") return "beside";
  return null;
}
const layerOf = (folder) => LAYERS.find(([, folders]) => folders.includes(folder))?.[0];

/** The top folder of shared/ a path lies in, or null outside shared/ (and for shared/*.ts). */
function folderOf(abs) {
  const r = relative(SHARED, abs);
  if (r.startsWith("..")) return null;
  const parts = r.split(sep);
  return parts.length > 1 ? parts[0] : null;
}

const isTestCode = (abs) => {
  const r = relative(ROOT, abs);
  return r.startsWith(`test${sep}`) || r.startsWith(`bench${sep}`);
};

export const layersPlugin = {
  rules: {
    layers: {
      meta: {
        type: "problem",
        docs: {
          description:
            "folders import floors below their own only, shared/ folders lower layers only, and others through a folder's index.ts",
        },
        messages: {
          floorUpward:
            "{{from}}/ ({{fromFloor}}) may not import {{to}}/ ({{toFloor}}): a folder imports only folders on floors below it (FLOORS in eslint-rules/layers.js).",
          floorBeside:
            "{{from}}/ may not import {{to}}/: both stand on the floor '{{fromFloor}}', side by side; what both need goes one floor down (node/ or shared/).",
          floorNode: "{{from}}/ runs in a browser or Apps Script and may not import node/.",
          floorTypes:
            "{{from}}/ runs in a browser or Apps Script: it may import {{to}}/ for its types only (import type).",
          floorUnknown: "{{folder}}/ is on no floor: add it to FLOORS in eslint-rules/layers.js.",
          upward:
            "shared/{{from}} ({{fromLayer}}) may not import shared/{{to}} ({{toLayer}}): folders import only those before them in the layer order (eslint-rules/layers.js).",
          deep: "Import shared/{{to}} through its public surface shared/{{to}}/index.ts, not {{path}}.",
          unknown: "shared/{{folder}} is in no layer: add it to LAYERS in eslint-rules/layers.js.",
          deepNode: "Import node/ through its public surface node/index.ts, not {{path}}.",
        },
        schema: [],
      },
      create(context) {
        const file = context.filename;
        const from = folderOf(file);
        const test = isTestCode(file);
        const top = topOf(file);
        function checkFloors(node, target) {
          const to = topOf(target);
          // A data file (JSON: the emulator's reference data in the playground's grid) brings no code along.
          if (!top || !to || top === to || target.endsWith(".json")) return;
          for (const folder of [top, to])
            if (floorOf(folder) < 0) return context.report({ node, messageId: "floorUnknown", data: { folder } });
          const typeOnly = node.importKind === "type" || node.exportKind === "type";
          const problem = floorProblem(top, to, typeOnly);
          const messageId = {
            upward: "floorUpward",
            beside: "floorBeside",
            node: "floorNode",
            types: "floorTypes",
          }[problem];
          if (messageId)
            return context.report({
              node,
              messageId,
              data: { from: top, to, fromFloor: FLOORS[floorOf(top)][0], toFloor: FLOORS[floorOf(to)][0] },
            });
          if (to === "node" && !test && target !== join(ROOT, "node", "index.ts"))
            context.report({ node, messageId: "deepNode", data: { path: relative(ROOT, target) } });
        }
        function check(node) {
          const spec = node.source?.value;
          if (typeof spec !== "string" || !spec.startsWith(".")) return;
          const target = resolve(dirname(file), spec);
          checkFloors(node, target);
          const to = folderOf(target);
          if (!to || to === from) return;
          if (!ORDER.includes(to)) return context.report({ node, messageId: "unknown", data: { folder: to } });
          if (from) {
            if (!ORDER.includes(from)) return context.report({ node, messageId: "unknown", data: { folder: from } });
            if (ORDER.indexOf(to) > ORDER.indexOf(from)) {
              return context.report({
                node,
                messageId: "upward",
                data: { from, to, fromLayer: layerOf(from), toLayer: layerOf(to) },
              });
            }
          }
          if (!test && target !== join(SHARED, to, "index.ts")) {
            context.report({ node, messageId: "deep", data: { to, path: relative(ROOT, target) } });
          }
        }
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
  },
};
