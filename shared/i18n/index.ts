/**
 * The public surface of shared/i18n/: what the hosts and the layers above use.
 * Import from here, never from a module inside (eslint-rules/layers.js);
 * modules of this folder import each other directly.
 */
export { FIELD_LABELS, fieldLabel } from "./fields.ts";
export { foldGerman } from "./fold.ts";
export { acceptLanguage, catalogue, toLanguage } from "./language.ts";
export type { Bilingual, Language, Texts } from "./language.ts";
export { environmentLanguage, pageLanguage, processLanguage } from "./locale.ts";
export type { LocaleHost } from "./locale.ts";
export { formatPath, got, notAnId, rule, ruleOfIssue, schemaAt, valueAt } from "./rules.ts";
export type { Bound, IssueLike, Rule } from "./rules.ts";
