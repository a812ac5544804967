/**
 * The legal-form table and parser (issue 26): every spelling is read as its
 * form, only at the end of a name, the longest spelling winning; a form inside
 * a word or before other words is no form.
 */
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import {
  LEGAL_FORMS,
  legalFormByCode,
  legalFormOf,
  parseLegalForm,
  sameLegalForm,
} from "../../shared/operations/legal-form.ts";

const code = (name: string) => parseLegalForm(name).form?.code ?? null;

/** The spellings the issue names, with the form each must be read as. */
const NAMED: [string, string][] = [
  ["GmbH", "GMBH"],
  ["gGmbH", "GGMBH"],
  ["UG (haftungsbeschränkt)", "UG"],
  ["AG", "AG"],
  ["SE", "SE"],
  ["KGaA", "KGAA"],
  ["KG", "KG"],
  ["OHG", "OHG"],
  ["GmbH & Co. KG", "GMBH_CO_KG"],
  ["AG & Co. KG", "AG_CO_KG"],
  ["SE & Co. KGaA", "SE_CO_KGAA"],
  ["UG & Co. KG", "UG_CO_KG"],
  ["UG (haftungsbeschränkt) & Co. KG", "UG_CO_KG"],
  ["e.K.", "EK"],
  ["e.Kfm.", "EK"],
  ["e.Kfr.", "EK"],
  ["eG", "EG"],
  ["PartG", "PARTG"],
  ["PartG mbB", "PARTG_MBB"],
  ["Stiftung", "STIFTUNG"],
  ["e.V.", "EV"],
  ["Gesellschaft mit beschränkter Haftung", "GMBH"],
  ["mbH", "GMBH"],
  ["Gesellschaft mbH", "GMBH"],
  ["G.m.b.H.", "GMBH"],
  ["Aktiengesellschaft", "AG"],
  ["GmbH u. Co. KG", "GMBH_CO_KG"],
  ["GmbH&Co.KG", "GMBH_CO_KG"],
  ["GmbH + Co. KG", "GMBH_CO_KG"],
  ["GmbH und Co. KG", "GMBH_CO_KG"],
  ["GmbH & Co KG", "GMBH_CO_KG"],
  ["GmbH & Cie. KG", "GMBH_CO_KG"],
  ["Kommanditgesellschaft", "KG"],
  ["offene Handelsgesellschaft", "OHG"],
  ["eingetragene Genossenschaft", "EG"],
  ["Kommanditgesellschaft auf Aktien", "KGAA"],
  ["KG a.A.", "KGAA"],
  ["Unternehmergesellschaft (haftungsbeschränkt)", "UG"],
  ["eingetragener Kaufmann", "EK"],
  ["eingetragene Kauffrau", "EK"],
  ["Partnerschaftsgesellschaft mbB", "PARTG_MBB"],
  ["Societas Europaea", "SE"],
  ["gemeinnützige GmbH", "GGMBH"],
  ["eingetragener Verein", "EV"],
];

describe("parseLegalForm", () => {
  test.each(NAMED)("“Müller Bau %s” is read as %s, the rest is “Müller Bau”", (spelling, form) => {
    expect(parseLegalForm(`Müller Bau ${spelling}`)).toMatchObject({ form: { code: form }, rest: "Müller Bau" });
  });

  test("anchored at the end, whole words, longest spelling first", () => {
    expect(code("Leistungs GmbH")).toBe("GMBH");
    expect(code("Rossi Partners GmbH & Co. KG")).toBe("GMBH_CO_KG");
    expect(code("Rossi Partners GmbH")).toBe("GMBH");
    expect(code("Schulze Großhandel UG (haftungsbeschränkt)")).toBe("UG");
    expect(code("Müller & Co. KG")).toBe("KG");
    expect(code("Bauverlag")).toBeNull(); // "ag" inside a word
    expect(code("Hagen Verlag")).toBeNull();
    expect(code("AG Bau Müller")).toBeNull(); // not at the end
    expect(code("Stiftung Warentest")).toBeNull();
    expect(code("Siemens AG")).toBe("AG");
    expect(code("SIEMENS AKTIENGESELLSCHAFT")).toBe("AG");
    expect(code("Henkel AG & Co. KGaA")).toBe("AG_CO_KGAA");
    expect(code("Merck KGaA")).toBe("KGAA");
    expect(code("Fresenius SE & Co. KGaA")).toBe("SE_CO_KGAA");
    expect(code("Bertelsmann SE & Co. KGaA")).toBe("SE_CO_KGAA");
    expect(code("Musterbau Gesellschaft mbH")).toBe("GMBH");
    expect(code("")).toBeNull();
  });

  test("a status after the form is skipped", () => {
    expect(parseLegalForm("Müller Bau GmbH i.L.")).toMatchObject({ form: { code: "GMBH" }, rest: "Müller Bau" });
    expect(code("Müller Bau GmbH in Liquidation")).toBe("GMBH");
    expect(code("Neu Tech UG (haftungsbeschränkt) i.G.")).toBe("UG");
  });

  test("separators before the form go with it", () => {
    expect(parseLegalForm("Müller, GmbH").rest).toBe("Müller");
    expect(parseLegalForm("  SAP SE ").rest).toBe("SAP");
  });

  test("property: any name followed by any spelling of a form is read as that form", () => {
    const spellings = LEGAL_FORMS.flatMap((f) => f.spellings.map((s) => [s, f.code] as const));
    const word = fc
      .stringMatching(/^[A-ZÄÖÜ][a-zäöüß]{2,11}$/)
      // A head word may itself be a spelling ("Stiftung", "Partnerschaft"): those are tested above.
      .filter((w) => legalFormOf(w) === null);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...spellings),
        fc.boolean(),
        (head, [spelling, form], upper) => {
          const name = `${head.join(" ")} ${upper ? spelling.toUpperCase() : spelling}`;
          const p = parseLegalForm(name);
          expect(p.form?.code).toBe(form);
          expect(p.rest).toBe(head.join(" "));
        },
      ),
      { numRuns: 500 },
    );
  });

  test("property: a spelling followed by other words, or glued into a word, is no form", () => {
    const spellings = LEGAL_FORMS.flatMap((f) => f.spellings).filter((s) => /^[A-Za-z]+$/.test(s));
    const word = fc
      .stringMatching(/^[A-Z][a-z]{3,10}$/)
      .filter((w) => legalFormOf(w) === null && code(`x ${w}`) === null);
    fc.assert(
      fc.property(fc.constantFrom(...spellings), word, (s, w) => {
        expect(code(`${s} ${w}`)).toBeNull();
        expect(code(`${w}${s.toLowerCase()}`)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe("the table", () => {
  test("codes are unique; every form has labels in both languages and reads its own short name", () => {
    expect(new Set(LEGAL_FORMS.map((f) => f.code)).size).toBe(LEGAL_FORMS.length);
    for (const f of LEGAL_FORMS) {
      expect(f.label.de && f.label.en).toBeTruthy();
      expect(legalFormOf(f.short)?.code).toBe(f.code);
      expect(legalFormByCode(f.code)).toBe(f);
    }
  });
  test("the API's filter values: a code or a filter value names a form; foundations and associations have none", () => {
    expect(legalFormByCode("GMBH_CO_KG")?.short).toBe("GmbH & Co. KG");
    expect(legalFormByCode("gmbh")?.code).toBe("GMBH");
    expect(legalFormByCode("GGMBH")?.filter).toBe("GMBH");
    expect(legalFormByCode("EV")?.filter).toBeNull();
    expect(legalFormByCode("NOPE")).toBeNull();
    expect(legalFormOf("gmbh & co kg")?.code).toBe("GMBH_CO_KG");
    expect(legalFormOf("Aktiengesellschaft")?.code).toBe("AG");
    expect(legalFormOf("Müller GmbH")).toBeNull();
  });
  test("sameLegalForm: by code; at the filter's level only when asked", () => {
    const f = (c: string) => legalFormByCode(c)!;
    expect(sameLegalForm(f("GMBH"), f("GMBH"))).toBe(true);
    expect(sameLegalForm(f("GMBH"), f("GMBH_CO_KG"))).toBe(false);
    expect(sameLegalForm(f("PARTG_MBB"), f("PARTG"))).toBe(false);
    expect(sameLegalForm(f("PARTG_MBB"), f("PARTG"), true)).toBe(true);
    expect(sameLegalForm(f("UG"), f("GMBH"), true)).toBe(false);
    expect(sameLegalForm(f("EV"), f("STIFTUNG"), true)).toBe(false);
  });
});
