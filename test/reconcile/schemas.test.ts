/**
 * The schemas can fail: each rejects what the 0.2 specification rules out,
 * and accepts the minimal and fuller forms its sections describe (examples
 * written here, after the sections' wording).
 */
import { describe, expect, it } from "vitest";
import { violations } from "./schemas.ts";

const minimalManifest = {
  versions: ["0.2"],
  name: "Example",
  identifierSpace: "https://example.com/id/",
  schemaSpace: "https://example.com/type",
};

describe("the project's 0.2 schemas", () => {
  it("manifest: the four required members, 0.2 among the versions, templates with {{id}}", () => {
    expect(violations("manifest", minimalManifest)).toBe("");
    expect(
      violations("manifest", {
        ...minimalManifest,
        preview: { url: "https://example.com/p/{{id}}", width: 300, height: 100 },
        view: { url: "https://example.com/{{id}}" },
      }),
    ).toBe("");
    const { versions: _v, ...noVersions } = minimalManifest;
    expect(violations("manifest", noVersions)).toMatch(/versions/);
    expect(violations("manifest", { ...minimalManifest, versions: ["0.1"] })).not.toBe("");
    expect(violations("manifest", { ...minimalManifest, view: { url: "https://example.com/" } })).not.toBe("");
    expect(violations("manifest", { ...minimalManifest, preview: { url: "https://example.com/{{id}}" } })).toMatch(
      /width/,
    );
    expect(violations("manifest", { ...minimalManifest, authentication: { foo: "bar" } })).not.toBe("");
    expect(
      violations("manifest", {
        ...minimalManifest,
        authentication: { type: "apiKey", in: "header", name: "Authorization" },
      }),
    ).toBe("");
    expect(violations("manifest", { ...minimalManifest, defaultTypes: [{ id: "a" }] })).toMatch(/name/);
  });

  it("query batch: a query or properties, a positive whole limit, no other members", () => {
    expect(violations("reconciliation-query-batch", { q0: { query: "Siemens AG" } })).toBe("");
    expect(
      violations("reconciliation-query-batch", {
        q0: {
          query: "Siemens AG",
          type: "company",
          type_strict: "should",
          limit: 3,
          properties: [
            { pid: "city", v: "München" },
            { pid: "zip", v: ["80333", 80333] },
          ],
        },
      }),
    ).toBe("");
    expect(violations("reconciliation-query-batch", { q0: { properties: [{ pid: "vatId", v: "DE129273398" }] } })).toBe(
      "",
    );
    expect(violations("reconciliation-query-batch", { q0: { query: "" } })).not.toBe("");
    expect(violations("reconciliation-query-batch", { q0: { properties: [] } })).not.toBe("");
    expect(violations("reconciliation-query-batch", { q0: { query: "x", limit: 0 } })).not.toBe("");
    expect(
      violations("reconciliation-query-batch", { q0: { query: "x", properties: [{ p: "city", v: "x" }] } }),
    ).not.toBe("");
    expect(violations("reconciliation-query-batch", { q0: { query: "x", extra: 1 } })).not.toBe("");
  });

  it("result batch: a result per query, candidates with id, name and score", () => {
    expect(
      violations("reconciliation-result-batch", {
        q0: { result: [{ id: "DE1", name: "A", score: 90, match: true, type: [{ id: "company", name: "Company" }] }] },
        q1: { result: [] },
      }),
    ).toBe("");
    expect(violations("reconciliation-result-batch", { q0: { result: [{ name: "A", score: 1 }] } })).toMatch(/id/);
    expect(violations("reconciliation-result-batch", { q0: {} })).toMatch(/result/);
    expect(violations("reconciliation-result-batch", [{ result: [] }])).not.toBe("");
    expect(
      violations("reconciliation-result-batch", { q0: { result: [{ id: "DE1", name: "A", score: "high" }] } }),
    ).not.toBe("");
  });

  it("suggest responses: items with id and name; notable only for entities", () => {
    expect(
      violations("suggest-entities-response", {
        result: [{ id: "DE1", name: "A", notable: [{ id: "company", name: "Company" }] }],
      }),
    ).toBe("");
    expect(violations("suggest-entities-response", { result: [{ id: "DE1" }] })).toMatch(/name/);
    expect(violations("suggest-response", { result: [{ id: "city", name: "City", notable: ["x"] }] })).not.toBe("");
  });

  it("data extension: query with ids and properties; typed values only", () => {
    expect(violations("data-extension-query", { ids: ["DE1"], properties: [{ id: "revenue" }] })).toBe("");
    expect(violations("data-extension-query", { ids: ["DE1"] })).toMatch(/properties/);
    const ok = {
      meta: [{ id: "revenue", name: "Revenue" }],
      rows: {
        DE1: { revenue: [{ int: 5 }], founded: [{ date: "1972-04-01T00:00:00Z" }], name: [{ str: "A" }], none: [] },
      },
    };
    expect(violations("data-extension-response", ok)).toBe("");
    expect(violations("data-extension-response", { ...ok, rows: { DE1: { revenue: [{ int: 5.5 }] } } })).not.toBe("");
    expect(
      violations("data-extension-response", { ...ok, rows: { DE1: { founded: [{ date: "1972-04-01" }] } } }),
    ).not.toBe("");
    expect(violations("data-extension-response", { ...ok, rows: { DE1: { name: ["A"] } } })).not.toBe("");
    expect(violations("data-extension-response", { rows: {} })).toMatch(/meta/);
    expect(
      violations("data-extension-property-proposal", {
        type: "company",
        properties: [{ id: "revenue", name: "Revenue" }],
      }),
    ).toBe("");
    expect(violations("data-extension-property-proposal", { properties: [{ id: "revenue" }] })).not.toBe("");
  });
});
