/**
 * The canonical question (shared/api/question.ts; issue 37, item 1), as a
 * property: a question is generated as what it means (endpoint, company,
 * include set, size, …), then written in random spellings as a client may
 * send them to the team server (include lists shuffled, repeated, padded,
 * with empty entries and trailing commas, split over repeated parameters;
 * parameters in any order; defaults written out or left away; numbers with
 * leading zeros; ids in lower case; JSON keys in any order). Every spelling
 * of one question has one key (the server's questionKey through its own
 * request parser, and the hosts' callKey); two questions that mean different
 * things have two keys. The emulator, as the API, is the oracle that the
 * merged spellings are really alike: each spelling, sent to it as written
 * (ids in their case), gets the same answer and the same charge as the
 * canonical one.
 */
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { buildRequest, canonicalQuestion, questionOf, type CallSpec } from "../../shared/api/index.ts";
import { callKey } from "../../shared/operations/cache-key.ts";
import { specOf } from "../../server/proxy.ts";
import { questionKey } from "../../server/purchase.ts";

type Include = "people" | "announcements" | "financials";
const INCLUDES: Include[] = ["people", "announcements", "financials"];

/** What a question means. `size` etc. undefined: the API's default. */
type Meaning =
  | { kind: "profile"; id: string; include: Include[] }
  | { kind: "people" | "financials"; id: string }
  | { kind: "announcements" | "peers"; id: string; size?: number }
  | { kind: "nearby"; id: string; size?: number; radiusKm?: number }
  | { kind: "changes"; id: string; size?: number; from?: number }
  | { kind: "search"; query: string; size?: number; from?: number }
  | { kind: "similar"; ids: string[]; size?: number };

/** The meaning with every default written out and sets sorted: equal exactly when the API answers alike. */
function meaningKey(m: Meaning): string {
  switch (m.kind) {
    case "profile":
      return `profile ${m.id} ${INCLUDES.filter((i) => m.include.includes(i)).join(",")}`;
    case "people":
    case "financials":
      return `${m.kind} ${m.id}`;
    case "announcements":
      return `announcements ${m.id} ${m.size ?? 100}`;
    case "peers":
      return `peers ${m.id} ${m.size ?? 10}`;
    case "nearby":
      return `nearby ${m.id} ${m.size ?? 10} ${m.radiusKm ?? 10}`;
    case "changes":
      return `changes ${m.id} ${m.size ?? 100} ${m.from ?? 0}`;
    case "search":
      return `search ${JSON.stringify(m.query)} ${m.size ?? 10} ${m.from ?? 0}`;
    case "similar":
      return `similar ${m.ids.join(",")} ${m.size ?? 10}`;
  }
}

let emu: Emulator;
let key: string;
let ids: string[];

beforeAll(() => {
  emu = createEmulator({ companies: 300, seed: 7 });
  key = emu.accounts.create(100_000_000);
  ids = emu.companies.ids().slice(0, 6);
});

const meaning = (): fc.Arbitrary<Meaning> => {
  const id = fc.constantFrom(...ids);
  const size = fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined });
  return fc.oneof(
    fc.record({ kind: fc.constant("profile" as const), id, include: fc.subarray(INCLUDES) }),
    fc.record({ kind: fc.constantFrom("people" as const, "financials" as const), id }),
    fc.record({ kind: fc.constantFrom("announcements" as const, "peers" as const), id, size }),
    fc.record({
      kind: fc.constant("nearby" as const),
      id,
      size,
      radiusKm: fc.option(fc.constantFrom(1, 5, 10, 25, 2.5), { nil: undefined }),
    }),
    fc.record({
      kind: fc.constant("changes" as const),
      id,
      size,
      from: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    }),
    fc.record({
      kind: fc.constant("search" as const),
      query: fc.constantFrom("Bau", "Software München", "GmbH", ""),
      size,
      from: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    }),
    fc.record({
      kind: fc.constant("similar" as const),
      ids: fc.uniqueArray(id, { minLength: 1, maxLength: 3 }),
      size,
    }),
  );
};

/** A request as a client may write it: method, path with query, JSON text. */
interface Spelling {
  method: "GET" | "POST";
  path: string;
  body: string;
}

/** Random choices a spelling draws on (fast-check shrinks them). */
type Choices = { bits: boolean[]; order: number[] };
const choices = fc.record({
  bits: fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
  order: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
});

function shuffled<T>(xs: T[], order: number[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = (order[i % order.length] ?? 0) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * One spelling. `serverOnly`: also the spellings only the server reads alike (ids in lower case, a parameter
 * left empty: the server sends the canonical form; the API itself refuses them, and no client sends them to it).
 */
function spell(m: Meaning, c: Choices, serverOnly: boolean): Spelling {
  let b = 0;
  const bit = () => c.bits[b++ % c.bits.length]!;
  const idOf = (id: string) => (serverOnly && bit() ? id.toLowerCase() : id);
  const num = (n: number) => (bit() ? `0${n}` : String(n));
  /** A parameter with a default: left away, written as the default, or given. */
  const opt = (name: string, v: number | undefined, def: number): string[] =>
    v !== undefined ? [`${name}=${num(v)}`] : bit() ? [`${name}=${def}`] : serverOnly && bit() ? [`${name}=`] : [];
  const query = (params: string[]) => {
    const list = shuffled(params, c.order);
    return list.length ? "?" + list.join("&") : "";
  };
  const json = (o: Record<string, unknown>) => {
    const keys = shuffled(
      Object.keys(o).filter((k) => o[k] !== undefined),
      c.order,
    );
    return "{" + keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(o[k])}`).join(",") + "}";
  };
  const withDefault = (v: number | undefined, def: number) => (v !== undefined ? v : bit() ? def : undefined);
  switch (m.kind) {
    case "profile": {
      const parts = shuffled([...m.include, ...m.include.filter(() => bit())], c.order).map((p) =>
        bit() ? ` ${p}` : p,
      );
      if (bit()) parts.push("");
      if (bit()) parts.splice(1, 0, " ");
      const half = bit() ? Math.ceil(parts.length / 2) : parts.length;
      const params = [parts.slice(0, half), parts.slice(half)]
        .filter((p) => p.length > 0)
        .map((p) => `include=${encodeURIComponent(p.join(","))}`);
      if (m.include.length === 0 && params.length === 0 && serverOnly && bit()) params.push("include=");
      return { method: "GET", path: `/v2/companies/${idOf(m.id)}${query(params)}`, body: "" };
    }
    case "people":
    case "financials":
      return { method: "GET", path: `/v2/companies/${idOf(m.id)}/${m.kind}`, body: "" };
    case "announcements":
      return {
        method: "GET",
        path: `/v2/companies/${idOf(m.id)}/announcements${query(opt("size", m.size, 100))}`,
        body: "",
      };
    case "peers":
      return { method: "GET", path: `/v2/companies/${idOf(m.id)}/peers${query(opt("size", m.size, 10))}`, body: "" };
    case "nearby": {
      const km =
        m.radiusKm !== undefined
          ? [`radiusKm=${bit() ? m.radiusKm.toFixed(1) : m.radiusKm}`]
          : opt("radiusKm", undefined, 10);
      return {
        method: "GET",
        path: `/v2/companies/${idOf(m.id)}/nearby${query([...km, ...opt("size", m.size, 10)])}`,
        body: "",
      };
    }
    case "changes":
      return {
        method: "GET",
        path: `/v2/companies/${idOf(m.id)}/changes${query([...opt("size", m.size, 100), ...opt("from", m.from, 0)])}`,
        body: "",
      };
    case "search":
      return {
        method: "POST",
        path: "/v2/search",
        body: json({ query: m.query, size: withDefault(m.size, 10), from: withDefault(m.from, 0) }),
      };
    case "similar":
      return {
        method: "POST",
        path: "/v2/similar",
        body: json({ ids: m.ids.map(idOf), size: withDefault(m.size, 10) }),
      };
  }
}

/** The server's reading of a spelling (its own request parser, as a request arrives), or a failure. */
function serverSpec(s: Spelling): CallSpec {
  const r = specOf(s.method, new URL("http://server.invalid" + s.path), s.body, "en");
  if (!r.ok) throw new Error(`refused ${s.method} ${s.path} ${s.body}: ${r.answer.body}`);
  return r.spec;
}

/** What the API answers a spelling as written: status, body and charge. */
function apiAnswer(s: Spelling): string {
  const res = emu.handle({
    method: s.method,
    url: "http://api.invalid" + s.path,
    headers: { Authorization: `Bearer ${key}`, "Accept-Language": "en", "Content-Type": "application/json" },
    ...(s.method === "POST" ? { body: s.body } : {}),
  });
  return `${res.status} ${res.headers["x-credits-charged"]} ${res.body}`;
}

/** What the API answers the canonical spelling (as the server sends it). */
function canonicalAnswer(spec: CallSpec): string {
  const req = buildRequest(
    { apiKey: key, baseUrl: "http://api.invalid", language: "en", now: Date.now, random: Math.random },
    spec,
  );
  const res = emu.handle(req);
  return `${res.status} ${res.headers["x-credits-charged"]} ${res.body}`;
}

describe("the canonical question", () => {
  it("every spelling of one question has one key, on the server and in the hosts' caches; the API answers them alike", () => {
    fc.assert(
      fc.property(meaning(), choices, choices, (m, c1, c2) => {
        const [a, b] = [spell(m, c1, true), spell(m, c2, true)];
        const [sa, sb] = [serverSpec(a), serverSpec(b)];
        expect(questionKey(sa)).toBe(questionKey(sb));
        expect(callKey("scope", "en", sa)).toBe(callKey("scope", "en", sb));
        // The oracle: the API answers a spelling as written (ids as it takes them) as it answers the canonical one.
        const asWritten = spell(m, c1, false);
        expect(questionKey(serverSpec(asWritten))).toBe(questionKey(sa));
        expect(apiAnswer(asWritten)).toBe(canonicalAnswer(sa));
      }),
      { numRuns: 300 },
    );
  });

  it("two questions the API answers differently have two keys", () => {
    fc.assert(
      fc.property(meaning(), meaning(), choices, choices, (m1, m2, c1, c2) => {
        fc.pre(meaningKey(m1) !== meaningKey(m2));
        const [s1, s2] = [serverSpec(spell(m1, c1, true)), serverSpec(spell(m2, c2, true))];
        expect(questionKey(s1)).not.toBe(questionKey(s2));
        expect(callKey("scope", "en", s1)).not.toBe(callKey("scope", "en", s2));
      }),
      { numRuns: 500 },
    );
  });

  it("the hosts' call specs and the server's parse of the same request are one question", () => {
    const id = "DEAAAAAAAAAA";
    const host: CallSpec = {
      endpoint: "profile",
      path: { id },
      query: { include: "announcements,people" },
      cost: { include: ["announcements", "people"] },
    };
    const server = serverSpec({
      method: "GET",
      path: `/v2/companies/${id.toLowerCase()}?include=people,%20people,,announcements,`,
      body: "",
    });
    expect(questionOf(host)).toBe(questionOf(server));
    expect(canonicalQuestion(host)).toEqual(server);
    expect(canonicalQuestion(canonicalQuestion(host))).toEqual(canonicalQuestion(host));
    expect(server.cost).toEqual({ include: ["people", "announcements"] });
    // Not alike: an unknown include name keeps its spelling (the API refuses it); another company is another question.
    expect(questionOf({ ...host, path: { id: "DEAAAAAAAAAB" } })).not.toBe(questionOf(host));
  });

  it("the server refuses a parameter the endpoint does not take, as the API does, before anything is keyed", () => {
    const r = specOf("GET", new URL("http://x/v2/companies/DEAAAAAAAAAA?incl=people"), "", "en");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(JSON.parse(r.answer.body).error.field).toBe("incl");
  });
});
