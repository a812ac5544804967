/**
 * This server's release (package.json "version"): recorded beside each
 * migration it applies, named when a database is newer than the server.
 * Found by walking up from this module, so it holds from the sources, a
 * bundle (dist/) and an installed package alike.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const v = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
      if (typeof v === "string") return v;
    }
    dir = dirname(dir);
  }
  return "unknown";
}

export const SERVER_VERSION = findVersion();
