/** `company-data server ack-drift`: an operator acknowledges the doctor's breaking findings, so paid requests go through again. */
import type { Language } from "../../shared/i18n/index.ts";
import { catalogue } from "../../shared/i18n/index.ts";
import type { Db } from "../db/db.ts";
import { acknowledge } from "./state.ts";

export const ACK_TEXTS = catalogue({
  none: {
    de: "Noch kein Bericht des Doktors: der Server hat noch nie gegen den Dienst geprüft. Nichts bestätigt.",
    en: "No doctor report yet: the server has never checked the service. Nothing acknowledged.",
  },
  clean: {
    de: "Der letzte Bericht hat keine Befunde, die bezahlte Anfragen brechen. Nichts zu bestätigen.",
    en: "The last report has no findings that break paid requests. Nothing to acknowledge.",
  },
  done: {
    de: (n: number, at: string) =>
      `Bestätigt (${n} Befund(e) vom ${at}): kostenpflichtige Anfragen gehen wieder durch. Ein neuer oder anderer Befund hält sie erneut an.`,
    en: (n: number, at: string) =>
      `Acknowledged (${n} finding(s) of ${at}): paid requests go through again. A new or different finding pauses them again.`,
  },
});

export async function ackDrift(db: Db, lang: Language, out: (line: string) => void): Promise<number> {
  const state = await acknowledge(db);
  if (!state) {
    out(ACK_TEXTS.none[lang]);
    return 3;
  }
  if (state.breaking === "") {
    out(ACK_TEXTS.clean[lang]);
    return 0;
  }
  for (const line of state.breaking.split("\n")) out(`  ${line}`);
  out(ACK_TEXTS.done[lang](state.breaking.split("\n").length, state.checkedAt));
  return 0;
}
