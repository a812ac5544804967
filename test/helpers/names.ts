/** Lists of company names for enrichment tests against the emulator. */
import type { Emulator } from "../../emulator/index.ts";

/** Names the emulator holds once each (after skipping `skip` of them), as a user's list would have them. */
export function uniqueNames(e: Emulator, n: number, skip = 0): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const c of e.world.companies) {
    if (seen.has(c.name)) continue;
    seen.add(c.name);
    if (e.companies.findByName(c.name).length !== 1) continue;
    if (skip > 0) {
      skip--;
      continue;
    }
    out.push(c.name);
    if (out.length >= n) break;
  }
  return out;
}
