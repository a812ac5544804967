/**
 * The properties of the reconciliation service (Reconciliation Service API
 * 0.2, "Structure of a Reconciliation Query" and "Data Extension Service"):
 *
 * - query properties (`properties: [{pid, v}]` of a reconciliation query):
 *   what our matching takes beside the name: city, postcode and register
 *   number as hints of the resolve (contradictions are checked by
 *   shared/operations/contradiction.ts), the legal form as part of the name
 *   (the matching reads the legal form from the name), and the identifiers
 *   (website, VAT id, LEI, a register number without a name) that go to the
 *   free lookup, as the enrichment does (shared/enrich/chunk.ts lookupOf);
 * - extension properties: the enrichment's field catalogue
 *   (shared/enrich/fields.ts), labels in German and English, each with what
 *   it costs per company.
 */
import type { Bilingual, Language } from "../shared/i18n/index.ts";
import { field, FIELDS, GROUP_LABEL, type FieldDef } from "../shared/enrich/index.ts";

export type QueryPid = "city" | "zip" | "register" | "legalForm" | "website" | "vatId" | "lei";

/** The field of the catalogue whose header names each query property (one label per thing). */
const FIELD_OF: Record<QueryPid, string> = {
  city: "city",
  zip: "zip",
  register: "register",
  legalForm: "legalForm",
  website: "url",
  vatId: "vatId",
  lei: "lei",
};

const FREE_LOOKUP: Bilingual = { de: "kostenloses Nachschlagen statt Abgleich", en: "free lookup instead of matching" };
const ABOUT: Record<QueryPid, Bilingual> = {
  city: {
    de: "Sitz der Firma; ein anderer Ort macht den Treffer zur Prüfung",
    en: "the company's seat; a different city turns a match into a review",
  },
  zip: {
    de: "fünfstellig; eine andere PLZ macht den Treffer zur Prüfung",
    en: "five digits; a different postcode turns a match into a review",
  },
  register: {
    de: "z. B. HRB 6684 München; ohne Namen: kostenloses Nachschlagen",
    en: "e.g. HRB 6684 München; without a name: free lookup",
  },
  legalForm: {
    de: "z. B. GmbH; wird an den Namen angehängt, wenn er keine nennt",
    en: "e.g. GmbH; appended to the name when it names none",
  },
  website: FREE_LOOKUP,
  vatId: FREE_LOOKUP,
  lei: FREE_LOOKUP,
};

/** The query properties, in the order a client lists them. */
export const QUERY_PROPERTIES: readonly { id: QueryPid; label: Bilingual; about: Bilingual }[] = (
  Object.keys(FIELD_OF) as QueryPid[]
).map((id) => {
  const f = field(FIELD_OF[id]);
  if (!f) throw new Error(`reconcile: no field ${FIELD_OF[id]}`);
  return { id, label: f.header, about: ABOUT[id] };
});

/** Other names clients use for the same property (OpenRefine sends whatever the user typed or picked). */
const ALIASES: Record<string, QueryPid> = {
  city: "city",
  ort: "city",
  stadt: "city",
  sitz: "city",
  zip: "zip",
  postcode: "zip",
  postalcode: "zip",
  plz: "zip",
  register: "register",
  registernumber: "register",
  registernummer: "register",
  hr: "register",
  handelsregister: "register",
  legalform: "legalForm",
  rechtsform: "legalForm",
  website: "website",
  url: "website",
  domain: "website",
  homepage: "website",
  web: "website",
  vatid: "vatId",
  vat: "vatId",
  ustid: "vatId",
  ustidnr: "vatId",
  lei: "lei",
};

/** The query property a pid names, or null (a property we do not know is not used for matching). */
export function queryPid(pid: string): QueryPid | null {
  return ALIASES[pid.toLowerCase().replace(/[^a-z]/g, "")] ?? null;
}

/** The extension properties: every field of the catalogue. */
export const EXTEND_PROPERTIES: readonly FieldDef[] = FIELDS;

/** "Basisprofil (1 Credit)" / "Base profile (1 credit)": what a field costs per company, from the price table. */
export const fieldPrice = (f: FieldDef, lang: Language) => GROUP_LABEL[f.group][lang];

/** A label in the service's language, the other language beside it: "Umsatz / Revenue". */
export const bothLabels = (l: Bilingual, lang: Language) =>
  l.de === l.en ? l[lang] : lang === "de" ? `${l.de} / ${l.en}` : `${l.en} / ${l.de}`;
