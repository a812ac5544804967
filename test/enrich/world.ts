/**
 * A small fake of the API for enrichment tests until the emulator lands:
 * companies with names, a credit balance that refuses (402) what it cannot
 * pay, availability, profiles with includes, and a ledger of every paid call.
 */
import { fakeApi, json, testContext } from "../helpers/fake-api.ts";
import { profileCost, batchResolveCost, type Include } from "../../shared/api/endpoints.ts";
import { nth } from "../helpers/indexed.ts";

export interface FakeCompany {
  id: string;
  name: string;
  city: string;
  financials: boolean;
  people: boolean;
}

const ALPHA = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
export function makeId(n: number): string {
  let s = "";
  let x = n * 7919 + 104729;
  for (let i = 0; i < 10; i++) {
    s += ALPHA[x % ALPHA.length];
    x = Math.floor(x / ALPHA.length) + i * 31 + n;
  }
  return "DE" + s;
}

export function makeCompanies(n: number): FakeCompany[] {
  return Array.from({ length: n }, (_, i) => ({
    id: makeId(i),
    name: `Firma ${i} GmbH`,
    city: nth(["Berlin", "München", "Hamburg", "Köln"], i % 4),
    financials: i % 3 !== 0,
    people: i % 5 !== 0,
  }));
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

export function world(companies: FakeCompany[], credits = 1_000_000) {
  let balance = credits;
  const ledger: { path: string; credits: number; key: string }[] = [];
  const byName = new Map<string, FakeCompany[]>();
  for (const c of companies) byName.set(norm(c.name), [...(byName.get(norm(c.name)) ?? []), c]);
  const byId = new Map(companies.map((c) => [c.id, c]));
  const summary = (c: FakeCompany) => ({
    id: c.id,
    name: c.name,
    city: c.city,
    zip: "10115",
    legalForm: { code: "GMBH", name: "GmbH" },
    status: { code: "ACTIVE", name: "aktiv" },
  });
  const resolve = (q: { name: string; city?: string }) => {
    const hits = (byName.get(norm(q.name)) ?? []).filter((c) => !q.city || norm(c.city) === norm(q.city));
    if (hits.length === 1) return { status: "matched", match: summary(nth(hits, 0)), confidence: 0.93, candidates: [] };
    if (hits.length > 1) return { status: "ambiguous", match: null, confidence: 0.5, candidates: hits.map(summary) };
    return { status: "not_found", match: null, confidence: null, candidates: [] };
  };
  const pay = (path: string, cost: number, key: string) => {
    if (cost > balance) return false;
    balance -= cost;
    ledger.push({ path, credits: cost, key });
    return true;
  };
  const noCredits = () => json(402, { error: { code: "INSUFFICIENT_CREDITS" } });

  const api = fakeApi((req, url, body: any) => {
    const p = url.pathname;
    if (p === "/v2/companies/batch/resolve") {
      const list = body.companies as { name: string; city?: string; ref?: string }[];
      if (!pay(p, batchResolveCost(list.length), list.map((q) => norm(q.name)).join("|"))) return noCredits();
      return json(200, { results: list.map((q) => ({ ...resolve(q), ref: q.ref })) });
    }
    if (p === "/v2/resolve") return json(200, resolve(body));
    let m = /^\/v2\/companies\/(DE[A-Z0-9]{10})\/availability$/.exec(p);
    if (m) {
      const c = byId.get(nth(m, 1));
      if (!c) return json(404, { error: { code: "NOT_FOUND" } });
      return json(200, { id: c.id, profile: true, people: c.people, announcements: true, financials: c.financials });
    }
    m = /^\/v2\/companies\/(DE[A-Z0-9]{10})$/.exec(p);
    if (m) {
      const c = byId.get(nth(m, 1));
      if (!c) return json(404, { error: { code: "NOT_FOUND" } });
      const include = (url.searchParams.get("include") ?? "").split(",").filter(Boolean) as Include[];
      if (!pay(p, profileCost(include), `${c.id}?${include.join(",")}`)) return noCredits();
      return json(200, {
        ...summary(c),
        url: '=HYPERLINK("http://evil")',
        phone: "+49 30 123",
        foundingDate: "2001-02-03",
        asOf: "2025-01-15",
        people: include.includes("people")
          ? [{ personId: "P0000000001", name: "Erika Muster", role: { code: "GF", name: "Geschäftsführerin" } }]
          : undefined,
        financials: include.includes("financials")
          ? [
              { year: 2022, revenue: 100, profit: 5 },
              { year: 2023, revenue: 120, profit: -3, equity: 50, equityRatio: 0.4, reportType: "concern" },
              { year: 2023, revenue: 110, profit: 7, reportType: "company" },
            ]
          : undefined,
      });
    }
    if (p === "/v2/account") return json(200, { credits: balance });
    return json(404, { error: { code: "NOT_FOUND" } });
  });
  const { ctx } = testContext(api.now, { maxBatch: 100 });
  return {
    ...api,
    ctx,
    ledger,
    balance: () => balance,
    setBalance: (n: number) => {
      balance = n;
    },
    spent: () => ledger.reduce((s, l) => s + l.credits, 0),
  };
}
