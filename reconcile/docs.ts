/**
 * The pages the manifest names beside the API (Reconciliation Service API
 * 0.2, "Service Manifest": `documentation`, "a URL with human-readable
 * documentation about the service"; `logo`, "a URL of a square image"):
 * served by the service itself, so they exist wherever it runs (the CLI's
 * service, the team server's mount) and say what holds there: how OpenRefine
 * adds it, the token it needs and how to send it, the properties, the prices.
 * Text only: every value escaped, no script (the Content-Security-Policy of
 * ./responses.ts html allows none), free, open like the manifest.
 */
import { fillPrices } from "../shared/credits/index.ts";
import { FIELD_GROUPS, GROUP_LABEL } from "../shared/enrich/index.ts";
import type { Language } from "../shared/i18n/index.ts";
import { SERVICE_NAME, teamServerOf, type ManifestAuth } from "./manifest.ts";
import { escapeHtml } from "./preview.ts";
import { EXTEND_PROPERTIES, QUERY_PROPERTIES } from "./properties.ts";

/** A square logo: the register's ledger lines on the product's blue, text-free so it reads in any language. */
export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">' +
  '<rect width="64" height="64" rx="12" fill="#1f5fa8"/>' +
  '<rect x="14" y="14" width="36" height="36" rx="3" fill="#fff"/>' +
  '<path d="M20 24h24M20 32h24M20 40h16" stroke="#1f5fa8" stroke-width="4" stroke-linecap="round"/>' +
  "</svg>";

/** How to send the token, for each kind the host requires. */
function tokenText(auth: ManifestAuth, url: string, lang: Language): string {
  const de = lang === "de";
  if (auth === "none")
    return de
      ? "Kein Token: der Dienst hört nur auf diesem Rechner, wie OpenRefine selbst."
      : "No token: the service listens on this machine only, as OpenRefine itself does.";
  if (auth === "service")
    return de
      ? "Jede Abfrage außer dem Manifest und diesen Seiten braucht Authorization: Bearer <COMPANY_DATA_RECONCILE_TOKEN des Dienstes>. OpenRefine kann keine Header senden; es nutzt einen Dienst auf dem eigenen Rechner ohne Token."
      : "Every request but the manifest and these pages needs Authorization: Bearer <the service's COMPANY_DATA_RECONCILE_TOKEN>. OpenRefine cannot send headers; it uses a service on its own machine, without a token.";
  const local = `COMPANY_DATA_SERVER=${teamServerOf(url)} COMPANY_DATA_TOKEN=cdt_… company-data reconcile --http 8791`;
  return de
    ? `Jede Abfrage außer dem Manifest und diesen Seiten braucht Ihr persönliches Token des Team-Servers (cdt_…, vom Admin): Authorization: Bearer cdt_…. OpenRefine kann keine Header senden. Für OpenRefine auf dem eigenen Rechner ${local} starten und http://127.0.0.1:8791/reconcile hinzufügen: der lokale Dienst fragt den Team-Server mit Ihrem Token (dieselben Budgets, geteilte Antworten). Das Token gehört nicht in eine URL: OpenRefine speichert die Dienst-URL im Projekt.`
    : `Every request but the manifest and these pages needs your personal token of the team server (cdt_…, from the admin): Authorization: Bearer cdt_…. OpenRefine cannot send headers. For OpenRefine run ${local} on your machine and add http://127.0.0.1:8791/reconcile: the local service asks the team server with your token (the same budgets, shared answers). The token does not belong in a URL: OpenRefine keeps the service URL in the project.`;
}

/** The extension properties by what they cost per company. */
function propertyList(lang: Language): string {
  return FIELD_GROUPS.map((g) => {
    const names = EXTEND_PROPERTIES.filter((f) => f.group === g).map((f) => `${f.header[lang]} (${f.id})`);
    return names.length ? `<li>${escapeHtml(GROUP_LABEL[g][lang])}: ${escapeHtml(names.join(", "))}</li>` : "";
  }).join("");
}

/** The documentation page in the service's language; `url` is the service URL as the client reached it. */
export function docsHtml(url: string, lang: Language, auth: ManifestAuth): string {
  const de = lang === "de";
  const e = escapeHtml;
  const hints = QUERY_PROPERTIES.map((p) => `<li>${e(p.id)}: ${e(p.label[lang])} — ${e(p.about[lang])}</li>`).join("");
  const price = fillPrices(
    de
      ? "Abgleich: {credits:batchResolve} je angefangene {n:batchGroup} Namen, die nicht im Zwischenspeicher sind; Kennungen (Website, USt-IdNr., LEI, Registernummer, Firmen-ID) kostenlos. Erweiterung: je Firma das Profil und seine Zusätze, jedes einmal gekauft (Preise unten). Vorschau und Vorschläge: kostenlos."
      : "Reconciliation: {credits:batchResolve} per started {n:batchGroup} names not in the cache; identifiers (website, VAT id, LEI, register number, company id) free. Extension: per company the profile and its additions, each bought once (prices below). Preview and suggestions: free.",
    lang,
  );
  const sections: [string, string][] = [
    [
      de ? "In OpenRefine" : "In OpenRefine",
      de
        ? `Spalte mit Firmennamen: Abgleichen ▸ Abgleich starten ▸ Standarddienst hinzufügen: ${e(url)}. Weitere Spalten als Eigenschaften (unten) verbessern den Treffer.`
        : `On the column of company names: Reconcile ▸ Start reconciling ▸ Add Standard Service: ${e(url)}. Further columns as properties (below) improve the match.`,
    ],
    [de ? "Token" : "Token", e(tokenText(auth, url, lang))],
    [de ? "Preise" : "Prices", e(price)],
    [
      de ? "Fehler" : "Errors",
      de
        ? "Eine Abfrage, die sich nicht stellen lässt (leerer Name ohne Eigenschaften, falsches limit, fehlerhafte USt-IdNr.), antwortet ohne Kandidaten und mit error (code, de, en); die übrigen Abfragen des Stapels werden beantwortet."
        : "A query that cannot be asked (an empty name with no properties, a wrong limit, a malformed VAT id) answers no candidates and an error (code, de, en); the other queries of the batch are answered.",
    ],
  ];
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${e(SERVICE_NAME[lang])}</title></head><body>
<h1>${e(SERVICE_NAME[lang])}</h1>
<p>${de ? "Abgleichdienst nach der Reconciliation Service API 0.2." : "A reconciliation service of the Reconciliation Service API 0.2."}</p>
${sections.map(([h, p]) => `<h2>${h}</h2><p>${p}</p>`).join("\n")}
<h2>${de ? "Eigenschaften für den Abgleich" : "Properties for matching"}</h2><ul>${hints}</ul>
<h2>${de ? "Eigenschaften der Erweiterung" : "Extension properties"}</h2><ul>${propertyList(lang)}</ul>
<p>${de ? "Finanzdaten: die Einstellung „Geschäftsjahr“ wählt ein Jahr statt des letzten berichteten (gleicher Preis)." : "Financials: the setting “Financial year” picks a year instead of the latest reported (same price)."}</p>
</body></html>`;
}
