/**
 * COMPANY.CARD's answer as an Excel entity value (custom functions return
 * data types from CustomFunctionsRuntime 1.4 on, with
 * `allowCustomDataForDataTypeAny` in functions.json: Microsoft, "Use data
 * types with custom functions in Excel"): the cell shows the name, the card
 * lists the fields, and formulas read them by property name (`=A2.Revenue`).
 * Excel shows the property name as the card's label and has no separate
 * display label (propertyMetadata offers a sublabel only), so the names
 * cannot be stable keys and localised labels at once. Decision: the names
 * are readable labels in ONE language per workbook, pinned in the
 * workbook's settings by the task pane (host/identity.ts): a formula
 * written in a German workbook (`=A2.Umsatz`) keeps working when an English
 * colleague recalculates it. Section titles follow the user's language.
 *
 * Key figures are plain numbers (so `=A2.Revenue*2` works) with their year
 * as the card's sublabel and as their own property ("Financial year"). The
 * people are an array property (`=A2.People` spills name, role, since,
 * person id under a header row), which entity values allow since 1.16.
 */
import type { CardData, CardProperty } from "../../shared/functions/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import { FIELDS } from "../../shared/enrich/index.ts";
import { CARD_FIELDS, CARD_FIGURES } from "../../shared/functions/index.ts";

/** Excel's CellValueType strings, spelled out so no Excel global is needed to build a value. */
export type Basic =
  | { type: "String"; basicValue: string }
  | { type: "Double"; basicValue: number }
  | { type: "Boolean"; basicValue: boolean };
type WithMeta<T> = T & { propertyMetadata?: { sublabel?: string } };
export type ArrayValue = { type: "Array"; elements: Basic[][] };
export type EntityProperty = WithMeta<Basic> | ArrayValue;

export interface EntityValue {
  type: "Entity";
  text: string;
  properties: Record<string, EntityProperty>;
  layouts: {
    card: { title: { property: string }; sections: { layout: "List"; title?: string; properties: string[] }[] };
  };
}

function basic(v: CardProperty["value"]): Basic | undefined {
  if (v === null || v === "") return undefined;
  if (typeof v === "number") return Number.isFinite(v) ? { type: "Double", basicValue: v } : undefined;
  if (typeof v === "boolean") return { type: "Boolean", basicValue: v };
  return { type: "String", basicValue: String(v) };
}

const text = (s: string): Basic => ({ type: "String", basicValue: s });

/** Names of card keys that are not enrichment fields. */
const OWN_NAMES: Record<string, Record<Language, string>> = {
  id: { de: "Firmen-ID", en: "Company ID" },
  people: { de: "Personen", en: "People" },
};

/**
 * Property name in the workbook's pinned language: the field's title for
 * that language (the card's own label, made in the user's language, only
 * for a key nobody knows; the key where even that is missing).
 */
export function propertyName(p: { key: string; label: string }, names: Language): string {
  const pinned = OWN_NAMES[p.key]?.[names] ?? FIELDS.find((f) => f.id === p.key)?.header[names];
  return (pinned ?? p.label ?? p.key).trim() || p.key;
}

/** `lang`: the user's (section titles); `names`: the workbook's pinned language (property names). */
export function entityOf(card: CardData, lang: Language, names: Language = lang): EntityValue {
  const propName = (p: { key: string; label: string }) => propertyName(p, names);
  const nameLabel = "Name"; // the same word in both languages
  const properties: Record<string, EntityProperty> = { [nameLabel]: text(card.title) };
  const add = (p: CardProperty): string | undefined => {
    const b = basic(p.value);
    const name = propName(p);
    if (!b || name in properties) return undefined;
    // The year is the figure's own property too; a sublabel on it would repeat it.
    properties[name] =
      p.year !== undefined && p.key !== "financialYear" ? { ...b, propertyMetadata: { sublabel: String(p.year) } } : b;
    return name;
  };
  const listed = card.properties.map(add).filter((n): n is string => !!n);
  const sections: EntityValue["layouts"]["card"]["sections"] = [
    { layout: "List", title: lang === "de" ? "Firmendaten" : "Company data", properties: listed },
  ];
  const figures = (card.figures ?? []).map(add).filter((n): n is string => !!n);
  if (figures.length) {
    const year = card.figures?.[0]?.year;
    const title = lang === "de" ? "Kennzahlen" : "Key figures";
    sections.push({ layout: "List", title: year === undefined ? title : `${title} ${year}`, properties: figures });
  }
  for (const t of card.tables ?? []) {
    const name = propName(t);
    if (name in properties || t.rows.length === 0) continue;
    properties[name] = {
      type: "Array",
      elements: [t.columns.map(text), ...t.rows.map((r) => t.columns.map((_, i) => text(r[i] ?? "")))],
    };
    sections.push({ layout: "List", title: name, properties: [name] });
  }
  return {
    type: "Entity",
    text: card.title,
    properties,
    layouts: { card: { title: { property: nameLabel }, sections } },
  };
}

/**
 * The columns of a card as plain values, in this fixed order: the name,
 * the company id, the card's fields (CARD_FIELDS), the financial year and
 * the key figures (CARD_FIGURES). Fixed, so a column of =COMPANY.CARD(A2)
 * filled down lines up like a table.
 */
export const PLAIN_CARD_KEYS: readonly string[] = ["name", "id", ...CARD_FIELDS, "financialYear", ...CARD_FIGURES];

/**
 * Where Excel has no data types for custom functions (perpetual Office
 * 2021/2024, iPad): the card as one row of plain values in
 * PLAIN_CARD_KEYS order, "" where the company has no value (the people are
 * left out). One row, so cells filled down a column each spill to the
 * right and never into each other.
 */
export function plainCardRow(card: CardData): (string | number | boolean)[] {
  const values = new Map<string, CardProperty["value"]>([["name", card.title]]);
  for (const p of [...card.properties, ...(card.figures ?? [])]) values.set(p.key, p.value);
  return PLAIN_CARD_KEYS.map((k) => values.get(k) ?? "");
}
