/** The server's counted texts agree with their numbers in both languages (issue 27: "1 companies fit", "1 hits"). */
import { describe, expect, it } from "vitest";
import { countText } from "../../shared/credits/wording.ts";
import { ambiguousText, MCP_NOUNS, refusalDetail, spentText } from "../../mcp/i18n.ts";

describe("MCP texts count right", () => {
  it("ambiguity: the noun and the verb agree with the number", () => {
    expect(ambiguousText(1, "Muster", "A (DE1)", "de")).toMatch(
      /^Mehrdeutig: 1 Firma passt zu „Muster“; .*mit der id dieser Firma/,
    );
    expect(ambiguousText(2, "Muster", "A; B", "de")).toMatch(
      /^Mehrdeutig: 2 Firmen passen zu „Muster“; .*einer dieser Firmen/,
    );
    expect(ambiguousText(1, "Muster", "A (DE1)", "en")).toMatch(/^Ambiguous: 1 company fits "Muster"; .*the id of it:/);
    expect(ambiguousText(3, "Muster", "A; B; C", "en")).toMatch(/^Ambiguous: 3 companies fit "Muster"; .*one of them:/);
  });

  it("hits, changes, announcements, people, credits", () => {
    expect(countText(1, MCP_NOUNS.hit, "de")).toBe("1 Treffer");
    expect(countText(2, MCP_NOUNS.hit, "de")).toBe("2 Treffer");
    expect(countText(1, MCP_NOUNS.hit, "en")).toBe("1 hit");
    expect(countText(1200, MCP_NOUNS.hit, "en")).toBe("1,200 hits");
    expect(countText(1, MCP_NOUNS.change, "de")).toBe("1 Änderung");
    expect(countText(0, MCP_NOUNS.announcement, "en")).toBe("0 announcements");
    expect(countText(1, MCP_NOUNS.person, "en")).toBe("1 person");
    expect(countText(2, MCP_NOUNS.person, "de")).toBe("2 Personen");
    expect(countText(1, MCP_NOUNS.similarCompany, "de")).toBe("1 ähnliche Firma");
    expect(spentText(1, "en")).toBe("Spent: 1 credit.");
    expect(spentText(1, "de")).toBe("Verbraucht: 1 Credit.");
    expect(spentText(2, "de")).toBe("Verbraucht: 2 Credits.");
    const b = { limit: 3, spent: 3, remaining: 0 };
    expect(refusalDetail(1, "exact", b).en).toMatch(/costs 1 credit;/);
    expect(refusalDetail(1, "atMost", b).de).toMatch(/kostet höchstens 1 Credit;/);
  });
});
