import { describe, expect, test } from "vitest";
import {
  CompanyDataError,
  ERROR_CODES,
  invalid,
  isCompanyDataError,
  toCompanyDataError,
  type ErrorCode,
} from "../../shared/core/errors.ts";

const CODES: ErrorCode[] = [
  "MISSING_KEY",
  "INVALID_KEY",
  "OUT_OF_CREDITS",
  "NOT_FOUND",
  "AMBIGUOUS",
  "RATE_LIMITED",
  "SERVER_ERROR",
  "NETWORK",
  "TIMEOUT",
  "MALFORMED_RESPONSE",
  "INVALID_INPUT",
  "BUDGET_EXCEEDED",
  "STORAGE_FULL",
  "INTERNAL",
];

describe("error taxonomy", () => {
  test.each(CODES)("%s has distinct German and English messages", (code) => {
    const e = new CompanyDataError(code);
    expect(e.code).toBe(code);
    expect(e.text("de").length).toBeGreaterThan(5);
    expect(e.text("en").length).toBeGreaterThan(5);
    expect(e.text("de")).not.toBe(e.text("en"));
    expect(e.message).toBe(e.text("en"));
    expect(e).toBeInstanceOf(Error);
    expect(isCompanyDataError(e)).toBe(true);
  });
  test("transient codes are exactly the retryable ones", () => {
    const transient = CODES.filter((c) => new CompanyDataError(c).transient);
    expect(transient.sort()).toEqual(["NETWORK", "RATE_LIMITED", "SERVER_ERROR", "TIMEOUT"]);
  });
  test("the list of codes is complete", () => {
    expect([...ERROR_CODES].sort()).toEqual([...CODES].sort());
  });
  test("invalid() names the field by its label and says what is wrong, each in its language", () => {
    const e = invalid("id", { de: "keine Firmen-ID", en: "not a company ID" });
    expect(e.code).toBe("INVALID_INPUT");
    expect(e.details.field).toBe("id");
    expect(e.text("de")).toBe("Ungültige Eingabe (Firmen-ID): keine Firmen-ID.");
    expect(e.text("en")).toBe("Invalid input (company ID): not a company ID.");
    expect(invalid("baseUrl", { de: "x", en: "y" }).text("de")).toBe("Ungültige Eingabe (Basis-URL): x.");
    expect(invalid("rows[3].name", { de: "x", en: "y" }).text("en")).toBe("Invalid input (row 4 › company name): y.");
    expect(invalid("k", { de: "x.", en: "y." }, { de: "Schlüssel", en: "key" }).text("de")).toBe(
      "Ungültige Eingabe (Schlüssel): x.",
    );
  });
  test("a detail that is not bilingual is left out, never shown in the wrong language", () => {
    const e = new CompanyDataError("INVALID_INPUT", { field: "size", detail: "English only" as never });
    expect(e.text("de")).toBe("Ungültige Eingabe (Anzahl Treffer).");
  });
  test("STORAGE_FULL has its own code and text", () => {
    const e = new CompanyDataError("STORAGE_FULL");
    expect(e.text("de")).toMatch(/^Der Speicher dieses Dokuments ist voll\. /);
    expect(e.text("en")).toMatch(/^This document's storage is full\. /);
    expect(e.transient).toBe(false);
    const d = new CompanyDataError("STORAGE_FULL", { detail: { de: "höchstens 500 KB", en: "at most 500 KB" } });
    expect(d.text("de")).toBe("Der Speicher dieses Dokuments ist voll: höchstens 500 KB.");
  });
  test("RATE_LIMITED says when to retry", () => {
    const at = new Date(2025, 0, 15, 14, 5, 9).getTime();
    const e = new CompanyDataError("RATE_LIMITED", { retryAt: at });
    expect(e.text("de")).toContain("14:05:09 Uhr");
    expect(e.text("en")).toContain("14:05:09");
    expect(new CompanyDataError("RATE_LIMITED").text("en")).toMatch(/shortly/);
  });
  test("AMBIGUOUS lists candidates; SERVER_ERROR shows the status", () => {
    expect(new CompanyDataError("AMBIGUOUS", { candidates: ["A GmbH", "A AG"] }).text("en")).toContain("A GmbH; A AG");
    expect(new CompanyDataError("SERVER_ERROR", { status: 503 }).text("de")).toContain("HTTP 503");
  });
  test("toCompanyDataError keeps ours and neutralises anything else", () => {
    const ours = new CompanyDataError("NOT_FOUND");
    expect(toCompanyDataError(ours)).toBe(ours);
    const other = toCompanyDataError(new TypeError("x is undefined at deep/inside.ts:12"));
    expect(other.code).toBe("INTERNAL");
    expect(other.text("en")).not.toContain("deep/inside");
    expect(toCompanyDataError("string").code).toBe("INTERNAL");
  });
});
