import { describe, expect, it } from "vitest";
import { candidateLabel, parseCandidateLabel } from "../../shared/enrich/candidate-label.ts";
import { reviewCandidates, statusText } from "../../shared/enrich/rows.ts";
import { idFromCell } from "../../shared/monitor/layout.ts";
import { idFromCell as enrichIdFromCell } from "../../shared/enrich/rows.ts";

describe("the one candidate label and its inverse", () => {
  const mueller = { id: "DEAAAAAAAAA1", name: "Müller GmbH", city: "Köln" };
  const idOnly = { id: "DEAAAAAAAAA4", name: "", city: "" };
  const cases = [
    mueller,
    { id: "DEAAAAAAAAA2", name: "Müller, Schmidt & Co. KG", city: "Bonn" },
    { id: "DEAAAAAAAAA3", name: "Nur Name GmbH", city: "" },
    idOnly,
  ];

  it("reads back what it wrote: id, name (commas included) and city", () => {
    for (const c of cases) expect(parseCandidateLabel(candidateLabel(c))).toEqual(c);
    expect(candidateLabel(mueller)).toBe("DEAAAAAAAAA1 – Müller GmbH, Köln");
    expect(candidateLabel({ id: "DEAAAAAAAAA4", name: null, city: null })).toBe("DEAAAAAAAAA4");
  });

  it("reads the portfolio's labels of the earlier version", () => {
    expect(parseCandidateLabel("Müller GmbH, Köln (DEAAAAAAAAA1)")).toEqual(mueller);
    expect(parseCandidateLabel("DEAAAAAAAAA4 (DEAAAAAAAAA4)")).toEqual(idOnly);
  });

  it("is no label: text without an id where a label has it", () => {
    for (const t of [
      "",
      "Müller GmbH",
      "DEAAAAAAAAA1x – Müller",
      "DEAAAAAAAAA1 Müller",
      "Müller (Köln) DEAAAAAAAAA1",
      "Müller (DEAAAA)",
    ])
      expect(parseCandidateLabel(t)).toBeNull();
  });

  it("a review status lists its candidates in the one label, and they read back", () => {
    const status = statusText(
      { outcome: "review", id: null, confidence: null, candidates: cases.slice(0, 2), asOf: null, values: [] },
      "de",
    );
    expect(status).toBe("prüfen: DEAAAAAAAAA1 – Müller GmbH, Köln | DEAAAAAAAAA2 – Müller, Schmidt & Co. KG, Bonn");
    expect(reviewCandidates(status)).toEqual(cases.slice(0, 2));
  });

  it("a picked label in an ID cell is the id, in the enriched table and the portfolio, old labels too", () => {
    for (const c of cases) {
      expect(enrichIdFromCell(candidateLabel(c))).toBe(c.id);
      expect(idFromCell(candidateLabel(c))).toEqual({ id: c.id, bare: c.name === "" && c.city === "" });
    }
    expect(idFromCell("Müller GmbH, Köln (DEAAAAAAAAA1)")).toEqual({ id: "DEAAAAAAAAA1", bare: false });
  });
});
