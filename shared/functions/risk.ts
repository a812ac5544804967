/**
 * RISK: the portfolio screening as a formula (COMPANY_RISK in Sheets,
 * COMPANY.RISK in Excel). Per id: risk group and the flag behind it, as
 * shared/monitor/risk.ts screens, at the cheapest path (shared/monitor/screen-ids.ts).
 * Answers are cached like every formula answer.
 */
import { CompanyDataError } from "../core/index.ts";
import { GROUP_LABEL, SCREENING_NOTE } from "../monitor/index.ts";
import { screenIds } from "../monitor/index.ts";
import { h, langOf, param, perRow } from "./common.ts";
import type { CellOut, FunctionDef } from "./types.ts";

export const RISK: FunctionDef = {
  name: "RISK",
  description: h(
    `Risikogruppe und Hinweis je Firma (${SCREENING_NOTE.de}).`,
    `Risk group and flag per company (${SCREENING_NOTE.en}).`,
  ),
  params: [
    param(
      "ids",
      "id",
      "Firmen-ID (DE + 10 Zeichen) oder Spalte mit IDs",
      "Company id (DE + 10 characters) or a column of ids",
      { range: true },
    ),
  ],
  returns: h(
    "Je ID eine Zeile: Gruppe (Risiko, Beobachten, Keine Auffälligkeiten), Hinweis",
    "One row per id: group (Risk, Watch, No flags), flag",
  ),
  shape: "perRow",
  spendsCredits: true,
  *run(fctx, [idsArg]) {
    const lang = langOf(fctx);
    return yield* perRow(
      fctx,
      idsArg,
      2,
      (v, r) => r.id(v, "ids"),
      (k) => k,
      function* (ids) {
        const screened = yield* screenIds(fctx.ctx, ids);
        const out = new Map<string, CellOut[] | CompanyDataError>();
        for (const [k, v] of screened)
          out.set(k, v instanceof CompanyDataError ? v : [GROUP_LABEL[v.risk.group][lang], v.risk.flag.text[lang]]);
        return out;
      },
    );
  },
};
