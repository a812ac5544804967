/**
 * RISK: the portfolio screening as a formula (COMPANY_RISK in Sheets,
 * COMPANY.RISK in Excel). Per id: risk group and the flag behind it, as
 * shared/monitor/risk.ts screens. Cheapest path: the free availability check
 * says whether financials exist; the profile is fetched with financials only
 * then (1 + 4 credits), otherwise alone (1 credit, "no financials" is known).
 * Answers are cached like every formula answer.
 */
import { CompanyDataError } from "../core/errors.ts";
import { getAvailability, getProfiles } from "../operations/company.ts";
import { GROUP_LABEL, SCREENING_NOTE, screen } from "../monitor/risk.ts";
import { h, langOf, param, perRow } from "./common.ts";
import type { CellOut, FunctionDef } from "./types.ts";

export const RISK: FunctionDef = {
  name: "RISK",
  description: h(
    `Risikogruppe und Hinweis je Firma (${SCREENING_NOTE.de}).`,
    `Risk group and flag per company (${SCREENING_NOTE.en}).`,
  ),
  params: [param("ids", "id", "Firmen-ID (DE + 10 Zeichen) oder Spalte mit IDs", "Company id (DE + 10 characters) or a column of ids", { range: true })],
  returns: h("Je ID eine Zeile: Gruppe (Risiko, Beobachten, Keine Auffälligkeiten), Hinweis", "One row per id: group (Risk, Watch, No flags), flag"),
  shape: "perRow",
  spendsCredits: true,
  *run(fctx, [idsArg]) {
    const lang = langOf(fctx);
    return yield* perRow(fctx, idsArg, 2, (v, r) => r.id(v, "ids"), (k) => k, function* (ids) {
      const avail = yield* getAvailability(fctx.ctx, ids);
      const hasFin = (k: string) => {
        const a = avail.get(k);
        return !!a && !(a instanceof CompanyDataError) && a.financials === true && (a.financialYears?.length ?? 0) > 0;
      };
      const withFin = ids.filter((k) => hasFin(k));
      const plain = ids.filter((k) => !hasFin(k));
      const [a, b] = [yield* getProfiles(fctx.ctx, withFin, ["financials"]), yield* getProfiles(fctx.ctx, plain)];
      const out = new Map<string, CellOut[] | CompanyDataError>();
      for (const k of ids) {
        const p = a.get(k) ?? b.get(k);
        if (!p) out.set(k, new CompanyDataError("INTERNAL"));
        else if (p instanceof CompanyDataError) out.set(k, p);
        else {
          const r = screen(p, hasFin(k) ? p.financials ?? [] : null);
          out.set(k, [GROUP_LABEL[r.group][lang], r.flag.text[lang]]);
        }
      }
      return out;
    });
  },
};
