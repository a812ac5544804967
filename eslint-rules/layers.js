// The layer rule of shared/ (docs/architecture.md, "Layers"), as an ESLint rule run by `npm test`:
//  1. a folder of shared/ imports only folders listed before it in LAYERS (so layers point
//     downwards and no two folders depend on each other both ways);
//  2. code outside a folder imports it only through its index.ts, its public surface
//     (tests and benches may reach inside: they test the internals).
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
        docs: { description: "shared/ folders import downwards only, and others through a folder's index.ts" },
        messages: {
          upward:
            "shared/{{from}} ({{fromLayer}}) may not import shared/{{to}} ({{toLayer}}): folders import only those before them in the layer order (eslint-rules/layers.js).",
          deep: "Import shared/{{to}} through its public surface shared/{{to}}/index.ts, not {{path}}.",
          unknown: "shared/{{folder}} is in no layer: add it to LAYERS in eslint-rules/layers.js.",
        },
        schema: [],
      },
      create(context) {
        const file = context.filename;
        const from = folderOf(file);
        const test = isTestCode(file);
        function check(node) {
          const spec = node.source?.value;
          if (typeof spec !== "string" || !spec.startsWith(".")) return;
          const target = resolve(dirname(file), spec);
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
