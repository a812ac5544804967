/**
 * The reference the specification promises at {base_url}/v2/docs: an OpenAPI
 * 3.1 document generated from the shared schemas and the endpoint catalogue
 * (so it cannot drift from what the core sends), and a readable HTML page.
 */
import * as z from "zod/mini";
import { ENDPOINTS, type Endpoint } from "../shared/api/index.ts";
import { ErrorBody, COMPANY_ID_PATTERN, PERSON_ID_PATTERN, MAX_SIZE, MAX_BATCH } from "../shared/api/index.ts";
import type { Lang } from "./i18n.ts";

const SAP = "DEJK7QV0PK24";
const SIEMENS = "DEPIYX8Y4M82";

/** One example request per operation (path parameters, query and body). */
export const EXAMPLES: Record<
  string,
  { params?: Record<string, string>; query?: Record<string, string>; body?: unknown }
> = {
  search: {
    body: {
      query: "Software München",
      size: 10,
      filters: { size: ["SMALL", "MEDIUM"] },
      near: { place: "München", radiusKm: 25 },
    },
  },
  resolve: { body: { name: "Siemens AG", city: "München" } },
  batchResolve: {
    body: {
      companies: [
        { ref: "row-2", name: "SAP SE", city: "Walldorf" },
        { ref: "row-3", name: "Robert Bosch GmbH" },
      ],
    },
  },
  suggest: { params: { prefix: "Sie" }, query: { size: "5" } },
  profile: { params: { id: SAP }, query: { include: "people,financials" } },
  availability: { params: { id: SAP } },
  changes: { params: { id: SAP }, query: { since: "2025-01-01" } },
  nearby: { params: { id: SIEMENS }, query: { radiusKm: "5", size: "10" } },
  people: { params: { id: SAP } },
  announcements: { params: { id: SAP }, query: { size: "20" } },
  financials: { params: { id: SAP } },
  peers: { params: { id: SAP }, query: { size: "10" } },
  similar: { body: { ids: [SAP, SIEMENS], size: 10 } },
  personCompanies: { params: { personId: "P0000000000" } },
  account: {},
  "v1.data": { params: { id: SAP } },
  "v1.dataMany": { body: { ids: [SAP, SIEMENS] } },
  "v1.people": { params: { id: SAP } },
  "v1.peopleMany": { body: { ids: [SAP, SIEMENS] } },
  "v1.events": { params: { id: SAP }, query: { type: "NEWS", size: "10" } },
  "v1.eventsMany": { body: { ids: [SAP] } },
  "v1.jobs": { params: { id: SAP }, query: { size: "10" } },
  "v1.jobsMany": { body: { ids: [SAP] } },
  "v1.financials": { params: { id: SAP } },
  "v1.financialsMany": { body: { ids: [SAP] } },
  "v1.lookup": { body: { name: "SAP SE", city: "Walldorf" } },
  "v1.financialsExists": { params: { id: SAP } },
  "v1.financialsExistsMany": { body: { ids: [SAP, SIEMENS] } },
  "v1.search": { body: { query: "Logistik Hamburg", size: 10 } },
  "v1.suggest": { params: { prefix: "Bos" } },
  "v1.recommend": {
    query: { size: "10" },
    body: { baseCompanies: [SAP], locationsFilter: [{ type: "state", code: "de-by" }] },
  },
};

function schemaOf(s: z.ZodMiniType, io: "input" | "output"): Record<string, unknown> {
  const j = z.toJSONSchema(s, { io, unrepresentable: "any" }) as Record<string, unknown>;
  delete j.$schema;
  return j;
}

const QUERY_DOC: Record<string, { description: string; schema: Record<string, unknown> }> = {
  size: {
    description: `Number of results (1..${MAX_SIZE}).`,
    schema: { type: "integer", minimum: 1, maximum: MAX_SIZE },
  },
  include: {
    description: "Comma-separated: people, announcements, financials (each adds its credit cost).",
    schema: { type: "string", pattern: "^(people|announcements|financials)(,(people|announcements|financials))*$" },
  },
  since: {
    description: "ISO date (start of that day, UTC) or date-time; only records strictly after it.",
    schema: { type: "string" },
  },
  from: {
    description:
      "Changes paging: skip this many of the newest-first list (0..10000); a page shorter than size is the last.",
    schema: { type: "integer", minimum: 0, maximum: 10000 },
  },
  radiusKm: {
    description: "Radius in km (0 < r <= 500, default 10).",
    schema: { type: "number", exclusiveMinimum: 0, maximum: 500 },
  },
  type: { description: "Event type: NEWS, BLOG, SOCIAL.", schema: { type: "string" } },
  category: { description: "Event category, e.g. MANAGEMENT_AND_TEAM.", schema: { type: "string" } },
  explain: { description: "true: add an explanation to each result.", schema: { type: "boolean" } },
};

function pathParam(name: string) {
  const pattern =
    name === "id" ? COMPANY_ID_PATTERN.source : name === "personId" ? PERSON_ID_PATTERN.source : undefined;
  return {
    name,
    in: "path",
    required: true,
    schema: { type: "string", ...(pattern ? { pattern } : { minLength: 1, maxLength: 100 }) },
  };
}

function exampleUrl(e: Endpoint): string {
  const ex = EXAMPLES[e.id] ?? {};
  const path = e.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(ex.params?.[n] ?? n));
  const q = ex.query ? "?" + new URLSearchParams(ex.query).toString() : "";
  return path + q;
}

/** The catalogue's price texts are English; their only words besides include names are "per company". */
const priceDe = (p: string) => p.replace(/\bper company\b/g, "je Firma");

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
});

/** The answers an endpoint can give, each with its error body. */
function responsesOf(e: Endpoint): Record<string, unknown> {
  return {
    "200": { description: "Success", content: { "application/json": { schema: schemaOf(e.response, "output") } } },
    "400": errorResponse("Invalid input (the error names the field)"),
    "401": errorResponse("Missing or unknown API key"),
    ...(e.billing === "credits" ? { "402": errorResponse("Balance does not cover the call; nothing is charged") } : {}),
    ...(e.path.includes("{") ? { "404": errorResponse("Unknown id") } : {}),
    "413": errorResponse("Body over 1 MiB"),
    ...(e.rateBucket ? { "429": errorResponse("Rate limited; see Retry-After") } : {}),
  };
}

export function openapiDocument(examplePersonId?: string) {
  if (examplePersonId) EXAMPLES.personCompanies = { params: { personId: examplePersonId } };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const raw of ENDPOINTS) {
    const e = raw as Endpoint;
    const ex = EXAMPLES[e.id] ?? {};
    const params = [
      ...[...e.path.matchAll(/\{(\w+)\}/g)].map(([, name = ""]) => ({
        ...pathParam(name),
        example: ex.params?.[name],
      })),
      ...e.query.map((q) => ({
        name: q,
        in: "query",
        required: false,
        description: QUERY_DOC[q]?.description,
        schema: QUERY_DOC[q]?.schema ?? { type: "string" },
        ...(ex.query?.[q] !== undefined ? { example: ex.query[q] } : {}),
      })),
    ];
    const curlBody =
      ex.body !== undefined ? ` -H 'Content-Type: application/json' -d '${JSON.stringify(ex.body)}'` : "";
    const op: Record<string, unknown> = {
      operationId: e.id,
      summary: e.summary.en,
      description: `${e.summary.en}. Credits: ${e.priceText}${e.billing === "rate-limited" ? " (rate-limited)" : ""}.`,
      "x-description-de": `${e.summary.de}. Credits: ${priceDe(e.priceText)}${e.billing === "rate-limited" ? " (mit Ratenbegrenzung)" : ""}.`,
      tags: [e.version === "v2" ? "v2" : "older listing"],
      "x-credits": e.priceText,
      "x-billing": e.billing,
      ...(e.rateBucket ? { "x-rate-bucket": e.rateBucket } : {}),
      "x-example-request": {
        method: e.method,
        url: exampleUrl(e),
        ...(ex.body !== undefined ? { body: ex.body } : {}),
      },
      // Double quotes around the header, so the shell expands the key variable.
      "x-codeSamples": [
        {
          lang: "shell",
          label: "curl",
          source: `curl -X ${e.method} '{base_url}${exampleUrl(e)}' -H "Authorization: Bearer $COMPANY_DATA_API_KEY"${curlBody}`,
        },
      ],
      security: e.version === "v1" ? [{ bearer: [] }, { basic: [] }] : [{ bearer: [] }],
      parameters: params,
      responses: responsesOf(e),
    };
    if (e.request) {
      op.requestBody = {
        required: true,
        content: { "application/json": { schema: schemaOf(e.request, "input"), example: ex.body } },
      };
    }
    (paths[e.path] ??= {})[e.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "German company data API (local emulator)",
      version: "2",
      description: `Generated from shared/api/schemas.ts and shared/api/endpoints.ts. Maximum size ${MAX_SIZE}, maximum batch ${MAX_BATCH}. Labels follow Accept-Language (DE default, EN).`,
      "x-description-de": `Erzeugt aus shared/api/schemas.ts und shared/api/endpoints.ts. Höchstens ${MAX_SIZE} Ergebnisse je Seite, höchstens ${MAX_BATCH} Einträge je Stapel. Bezeichnungen folgen Accept-Language (Standard DE, sonst EN).`,
    },
    servers: [{ url: "http://127.0.0.1:8787" }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" }, basic: { type: "http", scheme: "basic" } },
      schemas: { ErrorBody: schemaOf(ErrorBody, "output") },
    },
    paths,
  };
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function docsPage(doc: unknown, lang: Lang): string {
  const d = doc as ReturnType<typeof openapiDocument>;
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(d.paths)) {
    for (const [method, raw] of Object.entries(ops)) {
      const op = raw as {
        operationId: string;
        description: string;
        "x-description-de": string;
        "x-credits": string;
        "x-example-request": { url: string; body?: unknown };
      };
      const ex = op["x-example-request"];
      rows.push(
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${esc(path)}</code></td><td>${esc(lang === "de" ? op["x-description-de"] : op.description)}</td><td>${esc(lang === "de" ? priceDe(op["x-credits"]) : op["x-credits"])}</td><td><code>${esc(ex.url)}</code>${ex.body !== undefined ? `<pre>${esc(JSON.stringify(ex.body, null, 2))}</pre>` : ""}</td></tr>`,
      );
    }
  }
  const h =
    lang === "de"
      ? {
          title: "Referenz der Firmendaten-API (Emulator)",
          method: "Methode",
          path: "Pfad",
          what: "Zweck",
          credits: "Credits",
          example: "Beispiel",
        }
      : {
          title: "Company data API reference (emulator)",
          method: "Method",
          path: "Path",
          what: "Purpose",
          credits: "Credits",
          example: "Example",
        };
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${h.title}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top;text-align:left}pre{margin:.3rem 0;font-size:.8rem}</style></head>
<body><h1>${h.title}</h1><p>${esc(lang === "de" ? d.info["x-description-de"] : d.info.description)} <a href="/v2/openapi.json">openapi.json</a></p>
<table><thead><tr><th>${h.method}</th><th>${h.path}</th><th>${h.what}</th><th>${h.credits}</th><th>${h.example}</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table></body></html>`;
}
