/**
 * PropertiesService's storage limit: 500 KB per store (9 KB per value, which
 * properties.ts handles by splitting). Since issue 25 the document's
 * properties keep only what formulas write (their daily budget, their part
 * of the spend ledger) and the durable answer cache; monitor state, job
 * checkpoints and the rest live in the state sheet (doc-state.ts). When a
 * write does not fit, the answer cache gives way first (its entries can be
 * asked again); a write that still does not fit is a clear message.
 */
import { CompanyDataError } from "../shared/core/index.ts";
// The core's UTF-8 count: plain code-unit arithmetic, as Apps Script has neither Buffer nor TextEncoder.
import { utf8Length } from "../shared/operations/index.ts";
import type { Bilingual, Language } from "../shared/i18n/index.ts";

/** Bytes one property store may hold (keys and values). */
export const STORE_QUOTA_BYTES = 500 * 1024;

/** Bytes a set of properties takes (keys and values). */
export function storeBytes(all: Record<string, string>): number {
  let n = 0;
  for (const k of Object.keys(all)) n += utf8Length(k) + utf8Length(String(all[k]));
  return n;
}

/** A CompanyDataError whose text is this host's own DE/EN message (code INTERNAL: for host failures the core has no code for). */
export class HostError extends CompanyDataError {
  constructor(
    private readonly says: Bilingual,
    field?: string,
  ) {
    super("INTERNAL", field ? { field } : {});
  }
  override text(lang: Language): string {
    return this.says[lang];
  }
}

/** Why this host's document store is full and what to do, after the core's "this document's storage is full". */
const STORAGE_FULL_DETAIL: Bilingual = {
  de: "Google erlaubt Add-ons 500 KB Dokument-Eigenschaften je Tabelle, und der Antwort-Cache ist bereits geräumt.",
  en: "Google allows add-ons 500 KB of document properties per spreadsheet, and the answer cache has already been cleared.",
};

/** STORAGE_FULL (its own code, so the UI can tell it apart), with this host's limits. */
export const storageFull = () =>
  new CompanyDataError("STORAGE_FULL", { field: "storage", detail: STORAGE_FULL_DETAIL });

/** The full message a user reads. */
export const STORAGE_FULL: Bilingual = { de: storageFull().text("de"), en: storageFull().text("en") };
