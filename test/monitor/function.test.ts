import { describe, expect, it } from "vitest";
import { runSync } from "../../shared/core/drivers.ts";
import { functionByName, hostName, invoke } from "../../shared/functions/registry.ts";
import { harness } from "./harness.ts";
import { nth } from "../helpers/indexed.ts";

describe("COMPANY_RISK / COMPANY.RISK", () => {
  it("answers group and flag per id, paying 1 + 4 only where financials exist", () => {
    const h = harness();
    const def = functionByName("RISK")!;
    expect(hostName(def, "sheets")).toBe("COMPANY_RISK");
    expect(hostName(def, "excel")).toBe("RISK");
    const insolvent = h.emu.companies.withStatus("INSOLVENT")[0];
    const ids = ["DELTU2WDWS05", "DEFZ4MICZY78", insolvent, "DEPZ2VFJZF25", "not an id"];
    const out = runSync(invoke(def, { ctx: h.ctx, dailyBudget: null }, [ids.map((i) => [i])]), h.driver);
    expect(out[0]).toEqual(["No flags", "No flags"]);
    expect(out[1]).toEqual(["Watch", "Negative net income 2020"]);
    expect(nth(out, 2)[0]).toBe("Risk");
    expect(String(nth(out, 2)[1])).toMatch(/^Insolvent/);
    expect(nth(out, 3)[0]).toBe("Watch");
    expect(nth(out, 4)[0]).toMatchObject({ error: "INVALID_INPUT" });
    const withFin = [0, 1, 2, 3].filter((i) => {
      const a = JSON.parse(
        h.emu.handle({
          method: "GET",
          url: `http://x/v2/companies/${ids[i]}/availability`,
          headers: { Authorization: `Bearer ${h.key}` },
        }).body,
      );
      return a.financials && a.financialYears.length > 0;
    }).length;
    expect(h.charged()).toBe(4 + 4 * withFin);
    // Cached: a recalculation costs nothing.
    runSync(invoke(def, { ctx: h.ctx, dailyBudget: null }, [ids.map((i) => [i])]), h.driver);
    expect(h.charged()).toBe(4 + 4 * withFin);
  });
});
