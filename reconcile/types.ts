/**
 * The one type of entity this service knows: a company of the German
 * registers (the manifest's defaultTypes, every candidate's type).
 */
import type { Language } from "../shared/i18n/index.ts";

export const COMPANY_TYPE_ID = "company";
const NAME = { de: "Firma (deutsche Register)", en: "Company (German registers)" };

export const companyType = (lang: Language) => ({ id: COMPANY_TYPE_ID, name: NAME[lang] });
