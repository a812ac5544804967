/**
 * The endpoint catalogue is the one place to add an endpoint (docs/adding-an-endpoint.md): each entry
 * says where a user reaches it (MCP tools, CLI commands, custom functions) or why nowhere. This test
 * holds those names to the hosts: an endpoint in none of them and not marked absent fails, and so does
 * a name the host does not have. It also keeps the README's function count and the team server's
 * cache lifetimes on the catalogue.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ENDPOINTS, type Endpoint, type Exposure } from "../../shared/api/endpoints.ts";
import { FUNCTIONS, functionsFor } from "../../shared/functions/registry.ts";
import { TOOLS } from "../../mcp/tools.ts";
import { msg } from "../../cli/i18n.ts";
import { DEFAULT_CACHE_DAYS, parseCacheDays, cacheDaysOf } from "../../server/cache.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const all = ENDPOINTS as readonly Endpoint[];

type Hosts = Exclude<Exposure, { absent: string }>;
const isAbsent = (x: Exposure): x is { absent: string } => "absent" in x;

/** The commands the CLI's help lists ("  company-data CMD …") that its dispatcher also has a case for. */
function cliCommands(): Set<string> {
  const help = new Set([...msg.help.en.matchAll(/^ {2}company-data ([a-z]+)/gm)].map((m) => m[1]!));
  const dispatched = new Set([...read("cli/main.ts").matchAll(/case "([a-z]+)":/g)].map((m) => m[1]!));
  return new Set([...help].filter((c) => dispatched.has(c)));
}

/** What is wrong with one entry's hosts, or an empty list. */
export function exposureProblems(
  e: Pick<Endpoint, "id" | "hosts">,
  known: { mcp: Set<string>; cli: Set<string>; functions: Set<string> },
): string[] {
  if (isAbsent(e.hosts))
    return e.hosts.absent.trim().length >= 20 ? [] : [`${e.id}: "absent" needs its reason in a sentence`];
  const h: Hosts = e.hosts;
  const problems: string[] = [];
  const named = (h.mcp?.length ?? 0) + (h.cli?.length ?? 0) + (h.functions?.length ?? 0);
  if (named === 0)
    problems.push(`${e.id}: in none of MCP, the CLI and the functions, and not marked absent with a reason`);
  for (const host of ["mcp", "cli", "functions"] as const)
    for (const name of h[host] ?? []) if (!known[host].has(name)) problems.push(`${e.id}: ${host} has no "${name}"`);
  return problems;
}

const KNOWN = {
  mcp: new Set(TOOLS.map((t) => t.name)),
  cli: cliCommands(),
  functions: new Set(FUNCTIONS.map((f) => f.name)),
};

describe("every endpoint is exposed by a host or deliberately absent", () => {
  test.each(all.map((e) => [e.id, e] as const))("%s", (_id, e) => {
    expect(exposureProblems(e, KNOWN)).toEqual([]);
  });

  test("the check fails on an endpoint in no host, on a name a host lacks, and on an absent without reason", () => {
    expect(exposureProblems({ id: "fake", hosts: {} }, KNOWN)).toHaveLength(1);
    expect(exposureProblems({ id: "fake", hosts: { mcp: [], cli: [] } }, KNOWN)).toHaveLength(1);
    expect(exposureProblems({ id: "fake", hosts: { functions: ["NO_SUCH"] } }, KNOWN)[0]).toMatch(/NO_SUCH/);
    expect(exposureProblems({ id: "fake", hosts: { cli: ["bogus"] } }, KNOWN)[0]).toMatch(/bogus/);
    expect(exposureProblems({ id: "fake", hosts: { absent: "" } }, KNOWN)).toHaveLength(1);
  });

  test("the hosts' names are read from the hosts themselves", () => {
    for (const c of ["enrich", "search", "account", "monitor", "refresh"]) expect(KNOWN.cli).toContain(c);
    expect(KNOWN.mcp).toContain("company_profile");
    expect(KNOWN.functions).toContain("PROFILE");
  });

  test("every function, tool and command that reaches the API names at least one endpoint it uses", () => {
    const used = (host: "mcp" | "functions") =>
      new Set(all.flatMap((e) => (isAbsent(e.hosts) ? [] : [...(e.hosts[host] ?? [])])));
    // estimate_credits answers from the catalogue alone; every other tool calls the API.
    expect([...KNOWN.mcp].filter((t) => t !== "estimate_credits" && !used("mcp").has(t))).toEqual([]);
    // RISK reads its companies through the functions it combines; every other function names its endpoint.
    expect([...KNOWN.functions].filter((f) => f !== "RISK" && !used("functions").has(f))).toEqual([]);
  });
});

describe("the README's function count", () => {
  test("is the number of functions Google Sheets offers", () => {
    const m = /\((\d+) functions\)/.exec(read("README.md"));
    expect(m, "README.md states '(N functions)' in its feature table").not.toBeNull();
    expect(Number(m![1])).toBe(functionsFor("sheets").length);
  });
});

describe("the team server's cache lifetime comes from the catalogue", () => {
  test("every endpoint has one; free endpoints are not stored (0), paid ones are kept at least half a day", () => {
    for (const e of all) {
      expect(DEFAULT_CACHE_DAYS[e.id as keyof typeof DEFAULT_CACHE_DAYS], e.id).toBe(e.cacheDays);
      if (e.billing === "rate-limited") expect(e.cacheDays, e.id).toBe(0);
      else expect(e.cacheDays, e.id).toBeGreaterThanOrEqual(0.5);
    }
    expect(DEFAULT_CACHE_DAYS.profile).toBe(30);
    expect(DEFAULT_CACHE_DAYS.changes).toBe(1);
  });

  test("COMPANY_DATA_CACHE_DAYS overrides by name; default sets every paid endpoint it does not name", () => {
    const d = parseCacheDays("profile=60,changes=0.5,default=7");
    expect(cacheDaysOf(d, "profile")).toBe(60);
    expect(cacheDaysOf(d, "changes")).toBe(0.5);
    expect(cacheDaysOf(d, "people")).toBe(7);
    expect(cacheDaysOf(d, "search")).toBe(7);
    expect(cacheDaysOf(d, "resolve")).toBe(0);
    expect(() => parseCacheDays("profil=60")).toThrow(/profil/);
    expect(() => parseCacheDays("profile=sixty")).toThrow(/profile=sixty/);
    expect(() => cacheDaysOf({}, "profile")).toThrow(/profile/);
  });

  test("rate buckets: a free endpoint has one, a paid one none", () => {
    for (const e of all) expect(e.rateBucket === null, e.id).toBe(e.billing === "credits");
  });
});
