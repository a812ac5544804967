/** Issue 28, item 9: the playground's pre-filled demo list is what a prospect sees first: no injection probe in it. */
import { describe, expect, it } from "vitest";
import { initialSheets } from "../../playground/data.ts";

describe("the playground's demo list", () => {
  it("holds company names only: no markup, no formula, no script", () => {
    const cells = initialSheets(["Müller GmbH", "Schmidt KG"])
      .flatMap((s) => s.cells.flat())
      .map(String);
    expect(cells.length).toBeGreaterThan(20);
    for (const c of cells) expect(c).not.toMatch(/[<>]|onerror|^[=+@]|HYPERLINK/i);
  });
});
