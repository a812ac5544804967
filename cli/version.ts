/**
 * `company-data --version`: the package's version (semver, CHANGELOG.md) and
 * the database schema this build migrates a team server's database to: the
 * highest migration id, with every id (server/db/migrations.ts numbers them
 * by owner, so the list says which parts a database holds). An admin compares
 * them before an upgrade; a database with a migration this build lacks is
 * refused at start (NewerDatabaseError).
 */
import { PACKAGE_VERSION } from "../node/index.ts";
import "../server/extensions.ts";
import { migrations } from "../server/db/migrations.ts";

/** 1, 2, 3, 100, 101, 300 → "1–3, 100–101, 300". */
export function idRanges(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
    parts.push(i === j ? `${ids[i]}` : `${ids[i]}–${ids[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}

export function schemaVersion(): { highest: number; ids: number[] } {
  const ids = migrations().map((m) => m.id);
  return { highest: ids.at(-1) ?? 0, ids };
}

export function versionText(): string {
  const schema = schemaVersion();
  return [
    `company-data ${PACKAGE_VERSION}`,
    `database schema ${schema.highest} (migrations ${idRanges(schema.ids)})`,
    `node ${process.version}`,
  ].join("\n");
}
