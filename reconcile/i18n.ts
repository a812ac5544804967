/** The reconciliation service's own texts, German and English; everything else comes from the core's taxonomy. */
import type { CompanyDataError, ErrorCode } from "../shared/core/index.ts";
import type { Bilingual, Language } from "../shared/i18n/index.ts";

/** The service is configured by the environment and flags: errors that point at settings say where. */
const OWN: Partial<Record<ErrorCode, (e: CompanyDataError, lang: Language) => string>> = {
  MISSING_KEY: (_e, lang) =>
    lang === "de"
      ? "Kein API-Schlüssel: bitte COMPANY_DATA_API_KEY in der Umgebung des Abgleichdienstes setzen."
      : "No API key: please set COMPANY_DATA_API_KEY in the reconciliation service's environment.",
  INVALID_KEY: (_e, lang) =>
    lang === "de"
      ? "Der API-Schlüssel wurde abgelehnt. Bitte COMPANY_DATA_API_KEY prüfen."
      : "The API key was rejected. Please check COMPANY_DATA_API_KEY.",
  BUDGET_EXCEEDED: (e, lang) => {
    const d = e.details.detail?.[lang];
    return lang === "de"
      ? `Abgelehnt, nichts wurde gekauft: das Tagesbudget dieses Abgleichdienstes reicht nicht${d ? " (" + d + ")" : ""}. Anpassbar mit --budget oder COMPANY_DATA_BUDGET.`
      : `Refused, nothing was bought: this reconciliation service's daily budget is not enough${d ? " (" + d + ")" : ""}. Change it with --budget or COMPANY_DATA_BUDGET.`;
  },
};

/** An error as the service says it. */
export const errorMessage = (e: CompanyDataError, lang: Language) => OWN[e.code]?.(e, lang) ?? e.text(lang);

export const refusal = {
  foreignOrigin: (origin: string): Bilingual => ({
    de: `kostenpflichtige Abfragen nur vom eigenen Rechner oder erlaubten Seiten (--allow-origin), nicht von „${origin}“`,
    en: `paid requests only from this machine or allowed pages (--allow-origin), not from "${origin}"`,
  }),
  noFeature: (id: string): Bilingual => ({ de: `kein Merkmal „${id}“`, en: `no feature "${id}"` }),
  noRoute: (path: string): Bilingual => ({
    de: `kein Endpunkt „${path}“ (Dienst-URL, /suggest/entity, /suggest/property, /suggest/type, /propose_properties, /preview, /view, /estimate, /docs, /logo.svg, /feature)`,
    en: `no endpoint "${path}" (service URL, /suggest/entity, /suggest/property, /suggest/type, /propose_properties, /preview, /view, /estimate, /docs, /logo.svg, /feature)`,
  }),
};
