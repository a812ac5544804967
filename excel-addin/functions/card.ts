/**
 * COMPANY.CARD's answer as an Excel entity value (ExcelApi 1.16): the cell
 * shows the name, the card lists the fields, and formulas read them by the
 * label the card shows (`=A2.Revenue` in English, `=A2.Umsatz` in German).
 * Decision: Excel shows property names as the card's labels, so readable
 * labels in the user's language beat stable technical keys.
 */
import type { CardData, CardProperty } from "../../shared/functions/types.ts";
import type { Language } from "../../shared/i18n/language.ts";

/** Excel's CellValueType strings, spelled out so no Excel global is needed to build a value. */
type Basic = { type: "String"; basicValue: string } | { type: "Double"; basicValue: number } | { type: "Boolean"; basicValue: boolean };

export interface EntityValue {
  type: "Entity";
  text: string;
  properties: Record<string, Basic>;
  layouts: { card: { title: { property: string }; sections: { layout: "List"; title?: string; properties: string[] }[] } };
}

export const ENTITY_API = { set: "ExcelApi", version: "1.16" } as const;

function basic(v: CardProperty["value"]): Basic | undefined {
  if (v === null || v === "") return undefined;
  if (typeof v === "number") return Number.isFinite(v) ? { type: "Double", basicValue: v } : undefined;
  if (typeof v === "boolean") return { type: "Boolean", basicValue: v };
  return { type: "String", basicValue: String(v) };
}

/** Property name: the label (unique and non-empty; the key where the label is missing). */
const propName = (p: CardProperty) => (p.label || p.key).trim() || p.key;

export function entityOf(card: CardData, lang: Language): EntityValue {
  const nameLabel = "Name"; // the same word in both languages
  const properties: Record<string, Basic> = { [nameLabel]: { type: "String", basicValue: card.title } };
  const listed: string[] = [];
  for (const p of card.properties) {
    const b = basic(p.value);
    const name = propName(p);
    if (!b || name in properties) continue;
    properties[name] = b;
    listed.push(name);
  }
  return {
    type: "Entity",
    text: card.title,
    properties,
    layouts: {
      card: {
        title: { property: nameLabel },
        sections: [{ layout: "List", title: lang === "de" ? "Firmendaten" : "Company data", properties: listed }],
      },
    },
  };
}

export const cardsUnsupportedMessage = (lang: Language) =>
  lang === "de"
    ? "Diese Excel-Version kann keine Datenkarten (Entitätswerte) anzeigen. Bitte COMPANY.PROFILE verwenden."
    : "This version of Excel cannot show data cards (entity values). Please use COMPANY.PROFILE instead.";
