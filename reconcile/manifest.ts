/**
 * The service manifest (Reconciliation Service API 0.2, "Service Manifest"):
 * answered to a GET of the service URL without parameters. Every other URL
 * it names is below the service URL, so a host that mounts the service
 * elsewhere (the team server) gets a manifest that points at its own mount.
 *
 * Fields are 0.2's, none of the 1.0 draft's (`lang`, `featureView`,
 * `propertySettings`, `proposeProperties`: true, …). `batchSize` is 0.2's: the
 * section lists it ("The maximum number of reconciliation queries in a single
 * reconciliation query batch"; added to the specification by
 * reconciliation-api/specs#80 before the 0.2 release; 0.2's own example
 * manifest getty.json carries it) although the published 0.2 JSON schema does
 * not name it (that schema allows further members); the 1.0 draft dropped it.
 * OpenRefine reads it since 3.8 (OpenRefine#5603) to send bigger batches than
 * its default ten.
 */
import type { Bilingual, Language } from "../shared/i18n/index.ts";
import { PREVIEW_HEIGHT, PREVIEW_WIDTH } from "./preview.ts";
import { companyType } from "./types.ts";
import { PACKAGE_VERSION } from "../node/index.ts";
import { financialYearSetting } from "./settings.ts";

/** The API versions this service speaks. */
export const VERSIONS = ["0.2"];
/** Queries per batch the service asks clients to send (OpenRefine reads it): one batch resolve call of 100 names, priced in full groups of ten. */
export const BATCH_SIZE = 100;
/**
 * The identifier and schema spaces (0.2 "Identifier and Schema Spaces"): a
 * company id is the data provider's (DE + ten characters), the same for every
 * instance of this service, so two instances can extend each other's matches.
 */
export const IDENTIFIER_SPACE = "https://api.implisense.com/v2/companies/";
export const SCHEMA_SPACE = "https://api.implisense.com/v2/schema/company";

export const SERVICE_NAME: Bilingual = {
  de: "Firmendaten (deutsche Handels-, Partnerschafts- und Genossenschaftsregister)",
  en: "Company data (German commercial, partnership and cooperative registers)",
};

/**
 * The token the host requires on every request but the manifest and its
 * pages: none (loopback), the standalone service's own
 * (COMPANY_DATA_RECONCILE_TOKEN), or a team server's personal token.
 */
export type ManifestAuth = "none" | "service" | "personal";

export interface ManifestOptions {
  /** The service URL as clients reach it, e.g. http://127.0.0.1:8791/reconcile (no trailing slash). */
  serviceUrl: string;
  lang: Language;
  auth: ManifestAuth;
  /** The current year (UTC), for the financial year setting's choices; default today's. */
  year?: number;
}

/** The team server a personal token belongs to: the service URL's origin (the server mounts the service at /reconcile). */
export const teamServerOf = (serviceUrl: string) => new URL(serviceUrl).origin;

/**
 * How a client sends the token (0.2 "Authentication": an OpenAPI security
 * scheme). OpenRefine sends no header to a reconciliation service
 * (OpenRefine#2015, open), so the personal token's text says what works for
 * it: a local `company-data reconcile` that forwards to the team server.
 */
function authentication(auth: Exclude<ManifestAuth, "none">, url: string, lang: Language) {
  const scheme = { type: "apiKey", in: "header", name: "Authorization" };
  if (auth === "service")
    return {
      ...scheme,
      description:
        lang === "de"
          ? "Bearer <Token> (COMPANY_DATA_RECONCILE_TOKEN des Dienstes)"
          : "Bearer <token> (the service's COMPANY_DATA_RECONCILE_TOKEN)",
    };
  const local = `COMPANY_DATA_SERVER=${teamServerOf(url)} COMPANY_DATA_TOKEN=cdt_… company-data reconcile --http 8791`;
  return {
    ...scheme,
    description:
      lang === "de"
        ? `Bearer <persönliches Token> (cdt_…, vom Admin des Team-Servers). OpenRefine kann keine Header senden: auf dem eigenen Rechner ${local} starten und in OpenRefine http://127.0.0.1:8791/reconcile hinzufügen.`
        : `Bearer <personal token> (cdt_…, from the team server's admin). OpenRefine cannot send headers: run ${local} on your machine and add http://127.0.0.1:8791/reconcile in OpenRefine.`,
  };
}

export function manifest(o: ManifestOptions) {
  const url = o.serviceUrl.replace(/\/+$/, "");
  const suggest = (kind: string) => ({ service_url: url, service_path: `/suggest/${kind}` });
  return {
    versions: VERSIONS,
    name: SERVICE_NAME[o.lang],
    identifierSpace: IDENTIFIER_SPACE,
    schemaSpace: SCHEMA_SPACE,
    documentation: `${url}/docs`,
    logo: `${url}/logo.svg`,
    serviceVersion: PACKAGE_VERSION,
    defaultTypes: [companyType(o.lang)],
    batchSize: BATCH_SIZE,
    view: { url: `${url}/view?id={{id}}` },
    feature_view: { url: `${url}/feature?id={{id}}` },
    preview: { url: `${url}/preview?id={{id}}`, width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT },
    suggest: { entity: suggest("entity"), property: suggest("property"), type: suggest("type") },
    extend: {
      propose_properties: { service_url: url, service_path: "/propose_properties" },
      property_settings: [financialYearSetting(o.lang, o.year ?? new Date().getUTCFullYear())],
    },
    ...(o.auth !== "none" ? { authentication: authentication(o.auth, url, o.lang) } : {}),
  };
}
