/**
 * The built Code.js (and the app bundle it loads) in the Apps Script harness
 * (test/apps-script/harness.ts), driven as the sidebar drives it. Both are
 * bundled exactly as scripts/build-apps-script.ts does, but in memory, so a
 * benchmark or test never rewrites dist/ under a running test.
 */
import { buildProject, type AppsScriptProject } from "../../scripts/build-apps-script.ts";
import type { Emulator } from "../../emulator/index.ts";
import { DEFAULT_FIELDS } from "../../shared/enrich/fields.ts";
import { createSheetsFake } from "../apps-script/harness.ts";

export type { AppsScriptProject };
export const buildCodeJs = buildProject;

/** Run the sidebar's enrichment (enrichStart, then enrichStep until finished) on a sheet; returns the fake and the progress. */
export function sheetsEnrich(
  code: AppsScriptProject,
  emu: Emulator,
  key: string,
  names: string[],
  opts: { onFetch?: () => void } = {},
) {
  const fake = createSheetsFake({
    emulator: emu,
    sheets: { Liste: [["Firma"], ...names.map((n) => [n])] },
    onFetch: opts.onFetch,
  });
  fake.load(code);
  fake.setUser("apiKey", key);
  fake.setUser("language", "en");
  const config = {
    sheet: "Liste",
    headerRow: 1,
    col: 1,
    rows: names.length,
    cols: 1,
    mapping: { name: 0, city: null, zip: null, register: null, id: null },
    fields: [...DEFAULT_FIELDS],
    mode: "batch",
    rerun: { kind: "newOrFailed" },
  };
  // Server calls made, each one Apps Script execution (the enrichConfirm it answers for the user included).
  let executions = 0;
  const call = (method: string, input: unknown) => {
    executions++;
    const r = JSON.parse(fake.call("uiCall", method, JSON.stringify(input)) as string);
    if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    // A large list stops after matching and asks again with the exact price: this user continues.
    if (r.value?.afterMatching) return call("enrichConfirm", { jobId: r.value.jobId, proceed: true, firstStep: true });
    return r.value;
  };
  return { fake, config, call, executions: () => executions };
}
