import { describe, expect, it } from "vitest";
import { CompanyDataError } from "../../shared/core/errors.ts";
import { availabilityOf, PortfolioProgress } from "../../shared/monitor/check-progress.ts";
import { planFor } from "../../shared/monitor/check-plan.ts";

const avail = { id: "DEAAAAAAAAA1", lastChangeDate: "2026-01-02", financials: false, financialYears: [] };
const priced = { avail, plan: planFor("DEAAAAAAAAA1", avail, null, "r1") };

describe("each company's state in a call is one value", () => {
  it("a failed call settles a company as left, an error or not found, keeping its price", () => {
    const p = new PortfolioProgress(false);
    for (const id of ["A", "B", "C", "D"]) p.set(id, { kind: "todo", ...priced });
    p.settle("A", new CompanyDataError("RATE_LIMITED"));
    p.settle("B", new CompanyDataError("MALFORMED_RESPONSE"));
    p.settle("C", new CompanyDataError("NOT_FOUND"));
    expect(["A", "B", "C", "D"].map((id) => p.get(id)?.kind)).toEqual(["left", "failed", "notFound", "todo"]);
    expect(availabilityOf(p.get("A"))).toBe(avail);
    expect(p.errorOf("A")?.code).toBe("RATE_LIMITED");
    expect(p.errorOf("C")).toBeUndefined();
    expect(p.stopped).toBeNull();
    expect(p.count("left", "failed", "notFound", "todo")).toBe(4);
  });

  it("on the run's last allowed call a passing failure is an error; a stopping one stops the run, the first one counts", () => {
    const last = new PortfolioProgress(true);
    last.settle("A", new CompanyDataError("NETWORK"));
    expect(last.get("A")?.kind).toBe("failed");
    const p = new PortfolioProgress(false);
    p.settle("A", new CompanyDataError("OUT_OF_CREDITS"));
    p.settle("B", new CompanyDataError("INVALID_KEY"));
    expect(p.ids("left")).toEqual(["A", "B"]);
    expect(p.stopped?.code).toBe("OUT_OF_CREDITS");
  });

  it("the message's example error is a failed availability call before a failed paid call", () => {
    const p = new PortfolioProgress(false);
    p.set("A", { kind: "todo", ...priced });
    p.settle("A", new CompanyDataError("SERVER_ERROR")); // a paid call: priced
    p.settle("B", new CompanyDataError("TIMEOUT")); // availability: no price
    expect(p.firstError("left")?.code).toBe("TIMEOUT");
    expect(p.firstError("failed")).toBeNull();
  });
});
