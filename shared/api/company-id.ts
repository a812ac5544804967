/**
 * The company id's form, written once. Every reader of ids uses one of these
 * patterns: a whole value, an id as a word within text, an id that starts a
 * text. No dependencies (schemas.ts re-exports them; the UI bundle imports
 * this module without pulling in zod).
 */

/** Company ids: DE + 10 upper-case letters or digits (a third-party validator uses this form). */
const COMPANY_ID = "DE[A-Z0-9]{10}";
/** A value that is exactly a company id. */
export const COMPANY_ID_PATTERN = new RegExp(`^${COMPANY_ID}$`);
/** A company id as a whole word anywhere in a text (the first one; all of them: companyIdsIn). */
export const COMPANY_ID_IN_TEXT = new RegExp(`\\b${COMPANY_ID}\\b`);
/** A company id starting a text, blanks before it allowed; group 1 is the id. */
export const COMPANY_ID_AT_START = new RegExp(`^\\s*(${COMPANY_ID})\\b`);
/** Every company id in a text, in order, repeats included. */
export const companyIdsIn = (text: string): string[] => text.match(new RegExp(COMPANY_ID_IN_TEXT.source, "g")) ?? [];
