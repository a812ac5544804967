/**
 * COMPANY.CARD's answer as an Excel entity value (ExcelApi 1.16): the cell
 * shows the name, the card lists the fields, and formulas read them by the
 * label the card shows (`=A2.Revenue` in English, `=A2.Umsatz` in German).
 * Decision: Excel shows property names as the card's labels, so readable
 * labels in the user's language beat stable technical keys.
 *
 * Key figures are plain numbers (so `=A2.Revenue*2` works) with their year
 * as the card's sublabel and as their own property ("Financial year"). The
 * people are an array property (`=A2.People` spills name, role, since,
 * person id under a header row), which entity values allow since 1.16.
 */
import type { CardData, CardProperty } from "../../shared/functions/types.ts";
import type { Language } from "../../shared/i18n/language.ts";

/** Excel's CellValueType strings, spelled out so no Excel global is needed to build a value. */
export type Basic = { type: "String"; basicValue: string } | { type: "Double"; basicValue: number } | { type: "Boolean"; basicValue: boolean };
type WithMeta<T> = T & { propertyMetadata?: { sublabel?: string } };
export type ArrayValue = { type: "Array"; elements: Basic[][] };
export type EntityProperty = WithMeta<Basic> | ArrayValue;

export interface EntityValue {
  type: "Entity";
  text: string;
  properties: Record<string, EntityProperty>;
  layouts: { card: { title: { property: string }; sections: { layout: "List"; title?: string; properties: string[] }[] } };
}

function basic(v: CardProperty["value"]): Basic | undefined {
  if (v === null || v === "") return undefined;
  if (typeof v === "number") return Number.isFinite(v) ? { type: "Double", basicValue: v } : undefined;
  if (typeof v === "boolean") return { type: "Boolean", basicValue: v };
  return { type: "String", basicValue: String(v) };
}

const text = (s: string): Basic => ({ type: "String", basicValue: s });

/** Property name: the label (unique and non-empty; the key where the label is missing). */
const propName = (p: { key: string; label: string }) => (p.label || p.key).trim() || p.key;

export function entityOf(card: CardData, lang: Language): EntityValue {
  const nameLabel = "Name"; // the same word in both languages
  const properties: Record<string, EntityProperty> = { [nameLabel]: text(card.title) };
  const add = (p: CardProperty): string | undefined => {
    const b = basic(p.value);
    const name = propName(p);
    if (!b || name in properties) return undefined;
    // The year is the figure's own property too; a sublabel on it would repeat it.
    properties[name] = p.year !== undefined && p.key !== "financialYear" ? { ...b, propertyMetadata: { sublabel: String(p.year) } } : b;
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
    properties[name] = { type: "Array", elements: [t.columns.map(text), ...t.rows.map((r) => t.columns.map((_, i) => text(r[i] ?? "")))] };
    sections.push({ layout: "List", title: name, properties: [name] });
  }
  return {
    type: "Entity",
    text: card.title,
    properties,
    layouts: { card: { title: { property: nameLabel }, sections } },
  };
}

export const cardsUnsupportedMessage = (lang: Language) =>
  lang === "de"
    ? "Diese Excel-Version kann keine Datenkarten (Entitätswerte) anzeigen. Bitte COMPANY.PROFILE verwenden."
    : "This version of Excel cannot show data cards (entity values). Please use COMPANY.PROFILE instead.";
