/**
 * The project's own JSON Schemas of the Reconciliation Service API 0.2
 * (./schemas/README.md), compiled once with ajv in strict mode plus
 * ajv-formats, and an assertion that names every violation.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { expect } from "vitest";

export const SCHEMAS = [
  "manifest",
  "reconciliation-query-batch",
  "reconciliation-result-batch",
  "suggest-entities-response",
  "suggest-response",
  "data-extension-property-proposal",
  "data-extension-query",
  "data-extension-response",
] as const;
export type SchemaName = (typeof SCHEMAS)[number];

// ajv-formats is CommonJS: its function is the default export or the module itself, by loader.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const compiled = new Map<SchemaName, ValidateFunction>(
  SCHEMAS.map((name) => [
    name,
    ajv.compile(JSON.parse(readFileSync(join(import.meta.dirname, "schemas", `${name}.json`), "utf8")) as object),
  ]),
);

/** The violations of `value` against schema `name` ("" when it is valid). */
export function violations(name: SchemaName, value: unknown): string {
  const v = compiled.get(name)!;
  return v(value) ? "" : ajv.errorsText(v.errors, { separator: "\n" });
}

export function expectValid(name: SchemaName, value: unknown): void {
  expect(violations(name, value), `${name}: ${JSON.stringify(value).slice(0, 300)}`).toBe("");
}
