/**
 * German custom-function metadata. Office localises custom functions by a
 * second metadata file per language, named in the manifest through a
 * <bt:Override Locale="de-DE"> of the Functions.Metadata.Url resource; Excel
 * picks it by the Office UI language. custom-functions-metadata reads one
 * language of JSDoc only, so the German file is the generated functions.json
 * with every description replaced by the registry's German text.
 * Decision: ids, names and the COMPANY namespace stay the same in German
 * (formulas and the docs read alike in both languages; only help changes).
 */
import type { FunctionDef } from "../../shared/functions/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import { priced } from "../../shared/credits/index.ts";

export const LOCALISED_METADATA: Partial<Record<Language, { file: string; locale: string }>> = {
  de: { file: "functions-de.json", locale: "de-DE" },
};

/**
 * Help text as Excel shows it: the registry's texts name the Sheets
 * spelling (COMPANY_PEOPLE); Excel's is COMPANY.PEOPLE.
 */
export function excelText(s: string, names: readonly string[]): string {
  return s.replace(/\bCOMPANY_([A-Z][A-Z_]*[A-Z])\b/g, (m, name: string) =>
    names.includes(name) ? `COMPANY.${name}` : m,
  );
}

/**
 * What differs in Excel, appended to the registry's description: Excel
 * gathers the cells that calculate together (functions/gather.ts), so
 * single-name RESOLVE cells filled down a column are one paid batch.
 */
const EXCEL_NOTES: Record<string, Record<Language, string>> = {
  RESOLVE: priced({
    de: " In Excel werden viele gleichzeitig berechnete Zellen zusammen im Stapel abgeglichen ({credits:batchResolve} je {n:batchGroup} Namen).",
    en: " In Excel, many cells calculated at once are matched together in batches ({credits:batchResolve} per {n:batchGroup} names).",
  }),
};

/** A function's description as Excel shows it, in one language. */
export function excelDescription(def: FunctionDef, lang: Language, names: readonly string[]): string {
  return excelText(def.description[lang], names) + (EXCEL_NOTES[def.name]?.[lang] ?? "");
}

interface Metadata {
  functions: {
    id: string;
    name: string;
    description?: string;
    parameters?: { name: string; description?: string }[];
  }[];
}

/** functions.json in another language; throws when a function or parameter has no registry text (the build then fails). */
export function localisedMetadata(json: string, defs: readonly FunctionDef[], lang: Language): string {
  const meta = JSON.parse(json) as Metadata;
  const names = defs.map((d) => d.name);
  for (const f of meta.functions) {
    const def = defs.find((d) => d.name === f.id);
    if (!def) throw new Error(`functions.json: ${f.id} is not in the registry`);
    f.description = excelDescription(def, lang, names);
    for (const p of f.parameters ?? []) {
      const pd = def.params.find((x) => x.name === p.name);
      if (!pd) throw new Error(`functions.json: ${f.id} has parameter ${p.name}, the registry does not`);
      p.description = excelText(pd.help[lang], names);
    }
  }
  return JSON.stringify(meta, null, 2);
}
