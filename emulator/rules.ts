/**
 * Why a value is wrong, in German and English: the rule a 400 names after the
 * field ("Ungültiger Wert für companies: höchstens 100 Einträge."). The
 * generic rules and their derivation from zod issues live in
 * shared/i18n/rules.ts (the core's input checks speak the same text); only
 * the emulator's own clock and query-parameter rules are added here.
 */
import { rule as sharedRule, type Rule } from "../shared/i18n/index.ts";

export { formatPath, ruleOfIssue, schemaAt, type Bound, type IssueLike, type Rule } from "../shared/i18n/index.ts";

const r = (de: string, en: string): Rule => ({ de, en });

export const rule = {
  ...sharedRule,
  boolean: r("true, false, 1 oder 0", "true, false, 1 or 0"),
  notBefore(date: string): Rule {
    return r(
      `frühestens das Startdatum ${date} (hinter ihren Start läuft die Uhr nicht zurück)`,
      `not before the start date ${date} (the clock does not go back past its start)`,
    );
  },
  /** Later than the clock's today (`today` as a day number or a date, whichever the caller used). */
  afterToday(today: string | number): Rule {
    return r(
      `später als der heutige Tag der Uhr (${today}); die Uhr läuft nur vorwärts`,
      `later than the clock's today (${today}); the clock only moves forward`,
    );
  },
};
