/**
 * The service manifest (Reconciliation Service API 0.2, "Service Manifest"):
 * answered to a GET of the service URL without parameters. Every other URL
 * it names is below the service URL, so a host that mounts the service
 * elsewhere (the team server) gets a manifest that points at its own mount.
 */
import type { Language } from "../shared/i18n/index.ts";
import { PREVIEW_HEIGHT, PREVIEW_WIDTH } from "./preview.ts";
import { companyType } from "./types.ts";
import { PACKAGE_VERSION } from "../node/index.ts";

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

const NAME = {
  de: "Firmendaten (deutsche Handels-, Partnerschafts- und Genossenschaftsregister)",
  en: "Company data (German commercial, partnership and cooperative registers)",
};

export interface ManifestOptions {
  /** The service URL as clients reach it, e.g. http://127.0.0.1:8791/reconcile (no trailing slash). */
  serviceUrl: string;
  lang: Language;
  /** A token is required on every request but the manifest: declared as the 0.2 "Authentication" security scheme. */
  tokenRequired: boolean;
}

export function manifest(o: ManifestOptions) {
  const url = o.serviceUrl.replace(/\/+$/, "");
  const suggest = (kind: string) => ({ service_url: url, service_path: `/suggest/${kind}` });
  return {
    versions: VERSIONS,
    name: NAME[o.lang],
    identifierSpace: IDENTIFIER_SPACE,
    schemaSpace: SCHEMA_SPACE,
    serviceVersion: PACKAGE_VERSION,
    defaultTypes: [companyType(o.lang)],
    batchSize: BATCH_SIZE,
    view: { url: `${url}/view?id={{id}}` },
    preview: { url: `${url}/preview?id={{id}}`, width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT },
    suggest: { entity: suggest("entity"), property: suggest("property"), type: suggest("type") },
    extend: { propose_properties: { service_url: url, service_path: "/propose_properties" } },
    ...(o.tokenRequired
      ? {
          authentication: {
            type: "apiKey",
            in: "header",
            name: "Authorization",
            description:
              o.lang === "de"
                ? "Bearer <Token> (COMPANY_DATA_RECONCILE_TOKEN des Dienstes)"
                : "Bearer <token> (the service's COMPANY_DATA_RECONCILE_TOKEN)",
          },
        }
      : {}),
  };
}
