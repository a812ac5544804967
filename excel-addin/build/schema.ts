/**
 * The manifest checked by a real XML parser against Microsoft's published
 * schema: libxml2's `xmllint --noout --schema` with the XSDs of Office
 * add-in manifests (v1.1), kept in `../shared/office-schemas/` beside the
 * repository (see its README for the one local addition: the shared
 * runtime's <Runtimes>). xmllint rejects what Excel, office-addin-manifest
 * and office-addin-debugging reject for well-formedness (a `--` in a
 * comment, a stray `&`) and what the schema forbids (element order,
 * unknown elements, bad enumerations).
 *
 * Decision: xmllint (Debian `libxml2-utils`, preinstalled on macOS) over an
 * npm XSD validator: it is libxml2 itself, no new dependency in the
 * lockfile, and CI installs it next to Chromium (.ci/run). Without it the
 * build fails and says how to install it; it never skips silently.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The schema folder: `shared/office-schemas` beside the repository (CI: the clean clone's sibling), or OFFICE_SCHEMA_DIR. */
export function schemaDir(env: Record<string, string | undefined> = process.env): string {
  return env.OFFICE_SCHEMA_DIR ?? join(ROOT, "..", "shared", "office-schemas");
}

export const MAIN_SCHEMA = "OfficeAppManifestV1_1.xsd";
export const XMLLINT = process.env.XMLLINT ?? "xmllint";

/** Whether xmllint runs here. */
export function hasXmllint(): boolean {
  const r = spawnSync(XMLLINT, ["--version"], { encoding: "utf8" });
  return r.status === 0 && !r.error;
}

/**
 * Problems xmllint finds (parse errors and schema violations, one per
 * line); an empty list means well formed and schema-valid. Throws when the
 * validator or the schema is missing: that is a broken setup, not a pass.
 */
export function validateManifestSchema(xml: string, dir = schemaDir()): string[] {
  const xsd = join(dir, MAIN_SCHEMA);
  if (!existsSync(xsd)) throw new Error(`Office manifest schema not found: ${xsd} (expected ../shared/office-schemas beside the repository, or set OFFICE_SCHEMA_DIR)`);
  const tmp = mkdtempSync(join(tmpdir(), "manifest-"));
  try {
    const file = join(tmp, "manifest.xml");
    writeFileSync(file, xml);
    const r = spawnSync(XMLLINT, ["--noout", "--nonet", "--schema", xsd, file], { encoding: "utf8" });
    if (r.error) throw new Error(`xmllint is needed to validate the Excel manifest: install it (Debian/Ubuntu: apt-get install libxml2-utils; macOS ships it) or set XMLLINT (${r.error.message})`);
    if (r.status === 0) return [];
    return r.stderr
      .split("\n")
      .map((l) => l.replace(file, "manifest.xml").trim())
      .filter((l) => l && !/ fails to validate$/.test(l));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
