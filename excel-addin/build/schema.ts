/**
 * The manifest checked by a real XML parser against Microsoft's published
 * schema: libxml2 (the library behind `xmllint --schema`), compiled to
 * WebAssembly by the npm package `xmllint-wasm`, with the XSDs of Office
 * add-in manifests (v1.1) vendored in `excel-addin/schemas/` (MIT; its
 * README names their source and the one local addition: the shared
 * runtime's <Runtimes>). It rejects what Excel, office-addin-manifest and
 * office-addin-debugging reject for well-formedness (a `--` in a comment, a
 * stray `&`) and what the schema forbids (element order, unknown elements,
 * bad enumerations).
 *
 * Decision: xmllint-wasm over the system program (needs an OS package a
 * stranger's machine may lack) and over libxml2-wasm (a lower-level binding
 * with manual memory management): it is the same libxml2 validator as
 * before, equally strict, runs on Node 20 with nothing installed, and sends
 * nothing anywhere (the XSDs are handed to it in memory; no network).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { validateXML } from "xmllint-wasm";

/** The vendored schema folder, inside the repository. */
export const SCHEMA_DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "schemas");
export const MAIN_SCHEMA = "OfficeAppManifestV1_1.xsd";

interface SchemaSet {
  main: { fileName: string; contents: string };
  imports: { fileName: string; contents: string }[];
}

let cached: SchemaSet | undefined;

/** The main XSD and the ones it imports (by file name, as its schemaLocation says), read once. */
function schemaSet(): SchemaSet {
  if (cached) return cached;
  const files = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".xsd"));
  if (!files.includes(MAIN_SCHEMA))
    throw new Error(`Office manifest schema missing from the repository: ${join(SCHEMA_DIR, MAIN_SCHEMA)}`);
  const read = (fileName: string) => ({ fileName, contents: readFileSync(join(SCHEMA_DIR, fileName), "utf8") });
  cached = { main: read(MAIN_SCHEMA), imports: files.filter((f) => f !== MAIN_SCHEMA).map(read) };
  return cached;
}

/**
 * Problems libxml2 finds (parse errors and schema violations, one per
 * line); an empty list means well formed and schema-valid. Throws when the
 * validator itself fails: that is a broken setup, not a pass.
 */
export async function validateManifestSchema(xml: string): Promise<string[]> {
  const { main, imports } = schemaSet();
  const result = await validateXML({
    xml: [{ fileName: "manifest.xml", contents: xml }],
    schema: [main],
    preload: imports,
  });
  if (result.valid) return [];
  const problems = result.errors.map((e) => e.rawMessage.trim()).filter((l) => l && !/ fails to validate$/.test(l));
  // Invalid with no message would read as a pass to a caller that only counts lines.
  return problems.length ? problems : [result.rawOutput.trim() || "manifest.xml: invalid (libxml2 gave no message)"];
}
