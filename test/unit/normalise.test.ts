import { describe, expect, test } from "vitest";
import {
  normaliseCity,
  normaliseKey,
  normaliseName,
  normaliseRegister,
  normaliseZip,
} from "../../shared/batch/normalise.ts";

const same = (a: string, b: string) => expect(normaliseName(a), `${a} = ${b}`).toBe(normaliseName(b));
const differ = (a: string, b: string) => expect(normaliseName(a), `${a} ≠ ${b}`).not.toBe(normaliseName(b));

describe("normaliseName", () => {
  test("case and white space", () => {
    same("Siemens AG", "  SIEMENS   ag ");
    same("Siemens\tAG", "siemens ag");
  });
  test("umlauts and ß", () => {
    same("Müller Bäckerei GmbH", "Mueller Baeckerei GmbH");
    same("Großhandel Köln", "GROSSHANDEL KOELN");
    same("MÜLLER", "mueller");
    same("Café René", "Cafe Rene");
  });
  test("legal-form spellings", () => {
    same("Muster Gesellschaft mit beschränkter Haftung", "Muster GmbH");
    same("Muster Gesellschaft mit beschraenkter Haftung", "Muster G.m.b.H.");
    same("Muster Gesellschaft mbH", "Muster GmbH");
    same("SIEMENS  Aktiengesellschaft", "Siemens AG");
    same("Muster GmbH & Co. KG", "Muster Gesellschaft mit beschränkter Haftung und Compagnie Kommanditgesellschaft");
    same("Muster GmbH & Co. KG", "Muster GmbH + Co KG");
    same("Muster UG (haftungsbeschränkt)", "Muster Unternehmergesellschaft (haftungsbeschränkt)");
    same("Muster UG (haftungsbeschränkt)", "Muster UG");
    same("Merck KGaA", "Merck Kommanditgesellschaft auf Aktien");
    same("Merck KGaA", "Merck KG a.A.");
    same("SAP SE", "SAP Societas Europaea");
    same("Volksbank eG", "Volksbank eingetragene Genossenschaft");
    same("Hans Meier e.K.", "Hans Meier eingetragener Kaufmann");
    same("Hans Meier e.K.", "Hans Meier e. Kfm.");
    same("Schmidt OHG", "Schmidt offene Handelsgesellschaft");
  });
  test("different companies stay different", () => {
    differ("Siemens AG", "Siemens GmbH");
    differ("Siemens AG", "Siemens");
    differ("Muster GmbH", "Muster GmbH & Co. KG");
    differ("Meier KG", "Meier KGaA");
    differ("Bayer AG", "Bayer Agrar");
  });
  test("punctuation separates words", () => {
    same("Müller-Lüdenscheid GmbH", "Mueller Luedenscheid GmbH");
    expect(normaliseName("")).toBe("");
    expect(normaliseName("  ...  ")).toBe("");
  });
  test("the key is readable", () => {
    expect(normaliseName("Muster Gesellschaft mit beschränkter Haftung & Co. KG")).toBe("muster gmbh und co kg");
  });
});

describe("hints", () => {
  test("city, zip, register", () => {
    expect(normaliseCity("Frankfurt a.M.")).toBe(normaliseCity("frankfurt a M"));
    expect(normaliseCity("München")).toBe("muenchen");
    expect(normaliseZip(" 80333 ")).toBe("80333");
    expect(normaliseRegister("HRB 6684 München")).toBe(normaliseRegister("München HRB6684"));
    expect(normaliseRegister("Amtsgericht München HRB 6684")).toBe(normaliseRegister("HRB 6684 München"));
    expect(normaliseRegister("HRB 6684")).not.toBe(normaliseRegister("HRA 6684"));
  });
  test("normaliseKey combines name and hints", () => {
    expect(normaliseKey({ name: "Siemens AG", city: "München" })).toBe(
      normaliseKey({ name: "SIEMENS  Aktiengesellschaft", city: "MUENCHEN" }),
    );
    expect(normaliseKey({ name: "Siemens AG", city: "München" })).not.toBe(
      normaliseKey({ name: "Siemens AG", city: "Berlin" }),
    );
    expect(normaliseKey({ name: "Siemens AG" })).not.toBe(normaliseKey({ name: "Siemens AG", zip: "80333" }));
  });
});
