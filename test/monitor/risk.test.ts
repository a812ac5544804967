import { describe, expect, it } from "vitest";
import {
  latestKeyFigure,
  screen,
  RISK_FLAG_CODES,
  GROUP_OF,
  describeRisk,
  type RiskProfile,
} from "../../shared/monitor/risk.ts";
import type { FinancialYear } from "../../shared/api/schemas.ts";

const active: RiskProfile = {
  active: true,
  status: { code: "ACTIVE", name: "aktiv" },
  warningExists: false,
  insolvencyDate: null,
  liquidationDate: null,
  deletionDate: null,
};
const profit = (year: number, p: number | null, extra: Partial<FinancialYear> = {}): FinancialYear => ({
  year,
  profit: p,
  revenue: 1000,
  ...extra,
});
const good = [profit(2022, -5), profit(2023, 10)];

describe("risk screening: one case per flag", () => {
  it("INSOLVENT from the status or an insolvency date", () => {
    const r = screen({ ...active, active: false, status: { code: "INSOLVENT" }, insolvencyDate: "2026-03-05" }, good);
    expect(r.group).toBe("risk");
    expect(r.flag.code).toBe("INSOLVENT");
    expect(r.flag.text.en).toBe("Insolvent (since 2026-03-05)");
    expect(r.flag.text.de).toBe("Insolvenz (seit 2026-03-05)");
    expect(screen({ ...active, insolvencyDate: "2026-01-01" }, good).flag.code).toBe("INSOLVENT");
  });
  it("DELETED (being deleted) from the status or a deletion date", () => {
    expect(screen({ ...active, active: false, status: { code: "DELETED" } }, good).flag.code).toBe("DELETED");
    const r = screen({ ...active, deletionDate: "2026-02-01" }, good);
    expect([r.group, r.flag.code]).toEqual(["risk", "DELETED"]);
  });
  it("IN_LIQUIDATION from the status or a liquidation date", () => {
    expect(screen({ ...active, status: { code: "IN_LIQUIDATION" } }, good).flag.code).toBe("IN_LIQUIDATION");
    const r = screen({ ...active, liquidationDate: "2025-12-01" }, good);
    expect([r.group, r.flag.code, r.flag.text.en]).toEqual([
      "risk",
      "IN_LIQUIDATION",
      "In liquidation (since 2025-12-01)",
    ]);
  });
  it("NOT_ACTIVE when inactive without a more specific reason", () => {
    expect(screen({ ...active, active: false }, good).flag.code).toBe("NOT_ACTIVE");
    expect(screen({ ...active, status: { code: "INACTIVE" } }, good).flag.code).toBe("NOT_ACTIVE");
    // Not listed twice when the reason is known.
    const codes = screen({ ...active, active: false, status: { code: "INSOLVENT" } }, good).flags.map((f) => f.code);
    expect(codes).not.toContain("NOT_ACTIVE");
  });
  it("WARNING when the provider flags a warning", () => {
    const r = screen({ ...active, warningExists: true }, good);
    expect([r.group, r.flag.code]).toEqual(["risk", "WARNING"]);
  });
  it("NEGATIVE_NET_INCOME from the latest year only", () => {
    const r = screen(active, [profit(2023, 10), profit(2024, -3)]);
    expect([r.group, r.flag.code, r.flag.text.en]).toEqual([
      "watch",
      "NEGATIVE_NET_INCOME",
      "Negative net income 2024",
    ]);
    expect(r.keyFigure).toEqual({ year: 2024, netIncome: -3, revenue: 1000 });
    expect(screen(active, [profit(2023, -10), profit(2024, 3)]).group).toBe("none");
  });
  it("NO_FINANCIALS when none exist, or no year publishes a net income", () => {
    expect(screen(active, []).flag.code).toBe("NO_FINANCIALS");
    expect(screen(active, null).flag.text.en).toBe("No financials available");
    const shortOnly = screen(active, [profit(2024, null)]);
    expect([shortOnly.group, shortOnly.flag.code, shortOnly.flag.text.en]).toEqual([
      "watch",
      "NO_FINANCIALS",
      "No net income published",
    ]);
  });
  it("NO_FLAGS otherwise", () => {
    const r = screen(active, good);
    expect([r.group, r.flag.code]).toEqual(["none", "NO_FLAGS"]);
    expect(r.flags).toHaveLength(1);
  });
  it("risk outranks watch, and every applicable flag is listed most severe first", () => {
    const r = screen({ ...active, warningExists: true, liquidationDate: "2025-01-01" }, [profit(2024, -1)]);
    expect(r.group).toBe("risk");
    expect(r.flags.map((f) => f.code)).toEqual(["IN_LIQUIDATION", "WARNING", "NEGATIVE_NET_INCOME"]);
  });
  it("every code has a group and DE/EN text", () => {
    for (const code of RISK_FLAG_CODES) expect(["risk", "watch", "none"]).toContain(GROUP_OF[code]);
    expect(describeRisk(screen(active, good), "de")).toBe("Keine Auffälligkeiten: Keine Auffälligkeiten");
  });
  it("latest key figure prefers the company's own report over the group's in the same year", () => {
    expect(
      latestKeyFigure([profit(2024, 5, { reportType: "concern" }), profit(2024, -2, { reportType: "company" })])
        ?.netIncome,
    ).toBe(-2);
    expect(latestKeyFigure(undefined)).toBeNull();
  });
});
