/**
 * Every keyed catalogue of texts (the rule in README.md, "Bilingual text"):
 * every key has German and English, neither empty, and both say the same
 * placeholders. A template's placeholders are its "{name}" and
 * "{n|one|many}" slots; a function is called with marked arguments (each
 * argument a proxy that prints as ‹i› and answers ‹i.prop› for any
 * property), so both languages must print the same markers: an argument one
 * language drops or a different field it reads shows here.
 */
import { describe, expect, test } from "vitest";
import type { Texts } from "../../shared/i18n/language.ts";
import { STRINGS } from "../../shared/ui/strings.ts";
import { MONITOR_PANEL_TEXTS } from "../../shared/ui/panels/monitor.ts";
import { MONITOR_STARTUP_TEXTS } from "../../shared/ui/panels/monitor-startup.ts";
import { ALERTS_PANEL_TEXTS, CHANNEL_LABEL } from "../../shared/ui/panels/monitor-alerts.ts";
import { FILTER_TEXTS } from "../../shared/ui/panels/search/filters.ts";
import { INSERT_ALL_TEXTS } from "../../shared/ui/panels/search/insert-all.ts";
import { SAVED_TEXTS } from "../../shared/ui/panels/search/saved.ts";
import { ROLE_LABEL, SEARCH_HEADER, USAGE_LABEL, msg } from "../../cli/i18n.ts";
import { FIELD_LABELS } from "../../shared/i18n/fields.ts";
import { GROUP_LABEL as FIELD_GROUP_LABEL } from "../../shared/enrich/fields.ts";
import { GROUP_LABEL as RISK_GROUP_LABEL } from "../../shared/monitor/risk.ts";
import { ANNOUNCEMENT_LABELS, LEGAL_FORMS, SIZE_LABELS, STATUS_LABELS } from "../../emulator/i18n.ts";
import { DOCTOR_TEXTS } from "../../shared/doctor/report.ts";
import { DOCTOR_SERVER_TEXTS } from "../../server/doctor/index.ts";
import { ACK_TEXTS } from "../../server/doctor/ack.ts";
import { PREVIEW_TEXTS } from "../../reconcile/preview.ts";
import { CONSOLE_TEXTS } from "../../console/texts.ts";

const CATALOGUES: Record<string, Readonly<Record<string, Texts>>> = {
  "shared/ui/strings.ts STRINGS": STRINGS,
  "shared/ui/panels/monitor.ts": MONITOR_PANEL_TEXTS,
  "shared/ui/panels/monitor-alerts.ts": ALERTS_PANEL_TEXTS,
  "shared/ui/panels/monitor-startup.ts": MONITOR_STARTUP_TEXTS,
  "shared/ui/panels/monitor-alerts.ts CHANNEL_LABEL": CHANNEL_LABEL,
  "shared/ui/panels/search/filters.ts": FILTER_TEXTS,
  "shared/ui/panels/search/insert-all.ts": INSERT_ALL_TEXTS,
  "shared/ui/panels/search/saved.ts": SAVED_TEXTS,
  "cli/i18n.ts msg": msg,
  "cli/i18n.ts ROLE_LABEL": ROLE_LABEL,
  "cli/i18n.ts SEARCH_HEADER": SEARCH_HEADER,
  "cli/i18n.ts USAGE_LABEL": USAGE_LABEL,
  "shared/i18n/fields.ts FIELD_LABELS": FIELD_LABELS,
  "shared/enrich/fields.ts GROUP_LABEL": FIELD_GROUP_LABEL,
  "shared/monitor/risk.ts GROUP_LABEL": RISK_GROUP_LABEL,
  "emulator/i18n.ts LEGAL_FORMS": LEGAL_FORMS,
  "emulator/i18n.ts SIZE_LABELS": SIZE_LABELS,
  "emulator/i18n.ts STATUS_LABELS": STATUS_LABELS,
  "emulator/i18n.ts ANNOUNCEMENT_LABELS": ANNOUNCEMENT_LABELS,
  "shared/doctor/report.ts": DOCTOR_TEXTS,
  "server/doctor/index.ts": DOCTOR_SERVER_TEXTS,
  "server/doctor/ack.ts": ACK_TEXTS,
  "reconcile/preview.ts": PREVIEW_TEXTS,
  "console/texts.ts": CONSOLE_TEXTS,
};

/** An argument that prints as ‹i› and answers ‹i.prop› for any property. */
function marked(i: number): unknown {
  return new Proxy(
    {},
    {
      get: (_, p) => (p === Symbol.toPrimitive ? () => `‹${i}›` : typeof p === "symbol" ? undefined : `‹${i}.${p}›`),
    },
  );
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)(?:\|[^|{}]*\|[^|{}]*)?\}|‹[^›]+›/g)].map((m) => m[1] ?? m[0]).sort();
}

/** What one language says for an entry: the template, or the function called with marked arguments. */
function said(v: unknown, arity: number): string {
  if (typeof v === "string") return v;
  if (typeof v === "function")
    return String((v as (...a: unknown[]) => unknown)(...Array.from({ length: arity }, (_, i) => marked(i))));
  throw new Error(`neither a text nor a function: ${typeof v}`);
}

describe.each(Object.entries(CATALOGUES))("%s", (_, cat) => {
  test("every key: German and English, the same kind, neither empty, the same placeholders", () => {
    const wrong: string[] = [];
    for (const [key, entry] of Object.entries(cat)) {
      const { de, en } = entry as { de: unknown; en: unknown };
      if (typeof de !== typeof en) {
        wrong.push(`${key}: German is a ${typeof de}, English a ${typeof en}`);
        continue;
      }
      const arity = typeof en === "function" ? Math.max((en as () => void).length, (de as () => void).length) : 0;
      if (typeof en === "function" && (en as () => void).length !== (de as () => void).length)
        wrong.push(`${key}: German takes ${(de as () => void).length} arguments, English ${(en as () => void).length}`);
      const d = said(de, arity),
        e = said(en, arity);
      if (!d.trim()) wrong.push(`${key}: German is empty`);
      if (!e.trim()) wrong.push(`${key}: English is empty`);
      const pd = placeholders(d),
        pe = placeholders(e);
      if (JSON.stringify(pd) !== JSON.stringify(pe))
        wrong.push(`${key}: German says ${pd.join(" ") || "nothing"}, English ${pe.join(" ") || "nothing"}`);
    }
    expect(wrong).toEqual([]);
  });
});

test("the check sees a dropped placeholder and a dropped argument", () => {
  const broken = {
    a: { de: "{n} Zeilen", en: "rows" },
    b: { de: (x: string, y: string) => `${x} ${y}`, en: (x: string) => x },
  };
  expect(placeholders(said(broken.a.de, 0))).not.toEqual(placeholders(said(broken.a.en, 0)));
  expect(placeholders(said(broken.b.de, 2))).not.toEqual(placeholders(said(broken.b.en, 2)));
});
