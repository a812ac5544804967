/**
 * The preview (Reconciliation Service API 0.2, "Preview Service"): a small
 * HTML card for one company, shown by clients in an iframe of the manifest's
 * size. Free by construction: it reads only what this service has already
 * shown or bought (./seen.ts) and sends nothing to the API. Every value is
 * text from the API, so every value is escaped; the page has no script and
 * its Content-Security-Policy (set by ./service.ts) allows none.
 */
import type { CompanySummary } from "../shared/api/index.ts";
import { formatRegister } from "../shared/enrich/index.ts";
import { catalogue, type Language } from "../shared/i18n/index.ts";

export const PREVIEW_WIDTH = 400;
export const PREVIEW_HEIGHT = 160;

/** Text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export const PREVIEW_TEXTS = catalogue({
  legalForm: { de: "Rechtsform", en: "Legal form" },
  address: { de: "Anschrift", en: "Address" },
  register: { de: "Register", en: "Register" },
  status: { de: "Status", en: "Status" },
  unknown: {
    de: "Zu dieser Firmen-ID sind noch keine Daten bekannt: die Vorschau ist kostenlos und zeigt nur, was dieser Dienst bei einem Abgleich oder einer Erweiterung schon erhalten hat.",
    en: "No data is known for this company id yet: the preview is free and shows only what this service already received while matching or extending.",
  },
});

const label = (l: { code: string; name?: string | null } | null | undefined) => (l ? (l.name ?? l.code) : "");

/** The card: name, legal form, address, register, status; or the id and why nothing more is shown. */
export function previewHtml(id: string, c: CompanySummary | undefined, lang: Language): string {
  const rows: [string, string][] = [];
  if (c) {
    const address = [c.street, [c.zip, c.city].filter(Boolean).join(" ")].filter(Boolean).join(", ");
    rows.push(
      [PREVIEW_TEXTS.legalForm[lang], label(c.legalForm)],
      [PREVIEW_TEXTS.address[lang], address],
      [PREVIEW_TEXTS.register[lang], formatRegister(c.register ?? null)],
      [PREVIEW_TEXTS.status[lang], label(c.status)],
    );
  }
  const body = c
    ? `<table>${rows
        .filter(([, v]) => v)
        .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
        .join("")}</table>`
    : `<p class="note">${escapeHtml(PREVIEW_TEXTS.unknown[lang])}</p>`;
  return [
    "<!DOCTYPE html>",
    `<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(c?.name ?? id)}</title>`,
    "<style>body{font:13px/1.35 system-ui,sans-serif;margin:8px;color:#222}h1{font-size:15px;margin:0 0 2px}.id{color:#666;margin:0 0 6px}th{text-align:left;font-weight:normal;color:#666;padding-right:8px;vertical-align:top}.note{color:#666}</style>",
    "</head><body>",
    `<h1>${escapeHtml(c?.name ?? id)}</h1><p class="id">${escapeHtml(id)}</p>`,
    body,
    "</body></html>",
  ].join("");
}
