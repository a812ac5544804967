/**
 * Issue 37, item 5: what the team server charged, and the price before the
 * spend against the team's shared answers. Every answer of the server says
 * what it cost this user (X-Credits-Charged: 0 for a shared answer, a
 * refusal, a free call, an extension route that bought nothing); two users
 * enrich lists of 10 names sharing 6 through the CLI, as new users would
 * (COMPANY_DATA_SERVER, COMPANY_DATA_TOKEN): the second one's estimate is at
 * most 2 credits above what the emulator billed for the run, and its summary
 * states exactly that bill. Item 6: over a budget, the CLI (its summary and
 * its shortfall line) and the MCP server name the budget, what is left, the
 * price and the team's admin, never a top-up; the MCP server shows one
 * budget, the user's on the server (its own --budget only lower, said so).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { uniqueCompanies } from "../support/lists.ts";
import {
  companyDataCommand,
  type EmulatorWorld,
  type InProcessServer,
  startTeamWorld,
  type TeamWorld,
} from "../support/team-server.ts";
import { BACKENDS, requirePostgresUnderCi } from "./backends.ts";
import { readConfig } from "../../mcp/config.ts";
import { callTool, createHost } from "../../mcp/server.ts";
import { TOOLS } from "../../mcp/tools.ts";
import { nodeDriver } from "../../node/driver.ts";

const FIELDS = "name,city,url,status";
const num = (s: string) => Number(s.replace(/[.,]/g, ""));
/** The CLI's estimate ("at most N credits") and its summary ("N credits spent"). */
const estimateOf = (text: string) => num(/(?:at most|höchstens) ([\d.,]+) credits?/i.exec(text)?.[1] ?? "NaN");
const spentOf = (text: string) => num(/; ([\d.,]+) credits? spent/.exec(text)?.[1] ?? "NaN");

requirePostgresUnderCi();

describe.each(BACKENDS)("what a team user is charged ($name)", (backend) => {
  let world: EmulatorWorld;
  let srv: InProcessServer;
  let team: TeamWorld;
  let dir: string;
  beforeAll(async () => {
    const quick = { faults: { latencyMs: 0, jitterMs: 0 } };
    team = await startTeamWorld(backend.make, { companies: 1500, seed: 23, emulator: quick });
    ({ world, srv } = team);
    dir = mkdtempSync(join(tmpdir(), "cd-charge-"));
  }, 60_000);
  afterAll(async () => {
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const bill = () => 1_000_000 - world.emu.accounts.balance(world.key);
  /** `n` companies no earlier test of this suite asked for (what the team holds would change every figure). */
  const used = new Set<string>();
  const fresh = (n: number, seed: number) => {
    const out = uniqueCompanies(world.emu, n + used.size, seed)
      .filter((c) => !used.has(c.id))
      .slice(0, n);
    for (const c of out) used.add(c.id);
    return out;
  };
  const ask = (token: string, path: string, init: RequestInit = {}) =>
    fetch(srv.url + path, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });

  it("every answer says what it cost this user: bought, shared, free, refused, invalid, an extension route", async () => {
    const [a, b, poor] = [await srv.token("hdr-a"), await srv.token("hdr-b"), await srv.token("hdr-poor", 0)];
    const [c] = fresh(1, 91);
    const bought = await ask(a, `/v2/companies/${c!.id}`);
    expect(bought.status).toBe(200);
    expect(bought.headers.get("x-credits-charged")).toBe("1");
    const shared = await ask(b, `/v2/companies/${c!.id}`);
    expect(shared.headers.get("x-credits-charged")).toBe("0");
    const free = await ask(a, `/v2/companies/${c!.id}/availability`);
    expect(free.status).toBe(200);
    expect(free.headers.get("x-credits-charged")).toBe("0");
    const [d] = fresh(1, 92);
    const refused = await ask(poor, `/v2/companies/${d!.id}`);
    expect(refused.status).toBe(402);
    expect(refused.headers.get("x-credits-charged")).toBe("0");
    const invalid = await ask(a, `/v2/companies/${c!.id}?include=nonsense`);
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("x-credits-charged")).toBe("0");
    const estimate = await ask(a, "/team/estimate", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rows: [{ q: { name: "X GmbH" } }], fields: ["name"] }),
    });
    expect(estimate.status).toBe(200);
    expect(estimate.headers.get("x-credits-charged")).toBe("0");
    // A batch: the part the team holds is shared, only the rest is charged, and the header says so.
    const names = fresh(12, 93).map((x) => ({ name: x.name }));
    const first = await ask(a, "/v2/companies/batch/resolve", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ companies: names.slice(0, 3) }),
    });
    expect(first.headers.get("x-credits-charged")).toBe("1");
    const before = bill();
    const second = await ask(b, "/v2/companies/batch/resolve", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ companies: names }),
    });
    expect(second.status).toBe(200);
    expect(Number(second.headers.get("x-credits-charged"))).toBe(bill() - before);
    expect(second.headers.get("x-credits-charged")).toBe("1");
  });

  it("two users enrich lists of 10 names sharing 6: the second one's estimate is the charge (+2 at most), its summary exactly the charge", async () => {
    const names = fresh(14, 31).map((c) => c.name);
    const first = names.slice(0, 10);
    const second = [...names.slice(0, 6), ...names.slice(10, 14)];
    const write = (file: string, list: string[]) => {
      const path = join(dir, file);
      writeFileSync(path, ["Firma", ...list.map((n) => `"${n.replace(/"/g, '""')}"`)].join("\n") + "\n");
      return path;
    };
    const env = (token: string) => ({
      COMPANY_DATA_SERVER: srv.url,
      COMPANY_DATA_TOKEN: token,
      COMPANY_DATA_API_KEY: "",
    });
    const enrich = (input: string, token: string) =>
      companyDataCommand(
        ["enrich", "--in", input, "--out", input + ".out.csv", "--fields", FIELDS, "--yes", "--lang", "en"],
        env(token),
      );
    const estimate = (input: string, token: string) =>
      companyDataCommand(["estimate", "enrich", "--in", input, "--fields", FIELDS, "--lang", "en"], env(token));

    const ann = await srv.token("ann");
    const ben = await srv.token("ben");
    const inA = write("ann.csv", first);
    const inB = write("ben.csv", second);
    let before = bill();
    const a = await enrich(inA, ann);
    expect(a.code, a.stderr).toBe(0);
    const billA = bill() - before;
    // A new team's first list: one batch of 10 names (1 credit) and 10 profiles.
    expect(billA).toBe(11);
    expect(spentOf(a.stderr)).toBe(billA);

    const est = await estimate(inB, ben);
    expect(est.code, est.stderr).toBe(0);
    const priced = estimateOf(est.stdout);
    before = bill();
    const b = await enrich(inB, ben);
    expect(b.code, b.stderr).toBe(0);
    const billB = bill() - before;
    // 4 names the team lacks: one batch (1 credit) and 4 profiles; the 6 shared cost nothing.
    expect(billB).toBe(5);
    expect(priced).toBeGreaterThanOrEqual(billB);
    expect(priced - billB).toBeLessThanOrEqual(2);
    expect(estimateOf(b.stderr)).toBe(priced);
    expect(spentOf(b.stderr)).toBe(billB);
    // The list price would have been 11: the user is never told it.
    expect(b.stderr).not.toMatch(/at most 11 credits|11 credits spent/);
  }, 120_000);

  const writeList = (file: string, list: string[]) => {
    const path = join(dir, file);
    writeFileSync(path, ["Firma", ...list.map((n) => `"${n.replace(/"/g, '""')}"`)].join("\n") + "\n");
    return path;
  };

  it("over the budget the CLI names the budget, what is left, the price and the admin, never a top-up (en, de)", async () => {
    const names = fresh(20, 41).map((c) => c.name);
    for (const [lang, list, user] of [
      ["en", names.slice(0, 10), "cara"],
      ["de", names.slice(10, 20), "dora"],
    ] as const) {
      const token = await srv.token(user, 3);
      const input = writeList(`${user}.csv`, list);
      const before = bill();
      const r = await companyDataCommand(
        ["enrich", "--in", input, "--out", input + ".out.csv", "--fields", FIELDS, "--yes", "--lang", lang],
        { COMPANY_DATA_SERVER: srv.url, COMPANY_DATA_TOKEN: token, COMPANY_DATA_API_KEY: "" },
      );
      expect(r.code, r.stderr).toBe(4);
      // The budget of 3: one batch of names (1) and two profiles; the rest refused.
      expect(bill() - before).toBe(3);
      if (lang === "en") {
        expect(r.stderr).toMatch(/The team server lets you spend 3 credits more this month/);
        expect(r.stderr).toMatch(/Stopped by the team server: 8 rows not enriched .*; 3 credits spent\./);
        expect(r.stderr).toMatch(
          /Your monthly budget on the team server is not enough: budget 3 credits, 0 left, this request costs 1 credit\. Please ask your team's admin\./,
        );
        expect(r.stderr).not.toMatch(/top up|top-up/i);
      } else {
        expect(r.stderr).toMatch(/Der Team-Server lässt Sie diesen Monat noch 3 Credits ausgeben/);
        expect(r.stderr).toMatch(
          /Ihr Monatsbudget auf dem Team-Server reicht nicht: Budget 3 Credits, übrig 0, diese Abfrage kostet 1 Credit\. Bitte wenden Sie sich an den Admin Ihres Teams\./,
        );
        expect(r.stderr).not.toMatch(/aufladen|Aufladen/);
      }
    }
  }, 120_000);

  it("the MCP server through the team server: one budget (the user's), refusals name it and the admin", async () => {
    // company_profile asks the profile with people (2 credits).
    const token = await srv.token("mcp-user", 2);
    const env = { COMPANY_DATA_SERVER: srv.url, COMPANY_DATA_TOKEN: token, LANG: "de_DE.UTF-8" };
    const tool = (name: string) => TOOLS.find((t) => t.name === name);
    const [c1, c2] = fresh(2, 57);
    // No own budget by default: the server's is the one shown.
    const host = createHost(readConfig(["--lang", "en"], env), nodeDriver(), () => undefined);
    expect(host.cfg.budget).toBeNull();
    const acct = await callTool(host, tool("account"), "account", {});
    expect(acct.structuredContent?.budget).toMatchObject({ source: "server", limit: 2, spent: 0, remaining: 2 });
    const text = (r: Awaited<ReturnType<typeof callTool>>) => (r.content[0] as { text: string }).text;
    expect(text(acct)).toMatch(/Budget \(yours on the team server, this month\): 0 spent, 2, 2 credits left\./);
    expect(text(acct)).not.toMatch(/of 100/);
    const paid = await callTool(host, tool("company_profile"), "company_profile", { id: c1!.id });
    expect(paid.isError, JSON.stringify(paid.structuredContent)).toBeFalsy();
    expect(paid.structuredContent?.spent).toMatchObject({ credits: 2 });
    const over = await callTool(host, tool("company_profile"), "company_profile", { id: c2!.id });
    expect(over.isError).toBe(true);
    expect(text(over)).toMatch(
      /budget 2 credits, 0 left, this request costs \d+ credits\. Please ask your team's admin\./,
    );
    expect(text(over)).not.toMatch(/top up/i);
    expect(over.structuredContent?.budget).toMatchObject({ source: "server", remaining: 0 });
    // A shared answer costs nothing and is said so.
    const shared = await callTool(host, tool("company_profile"), "company_profile", { id: c1!.id });
    expect(shared.structuredContent?.spent).toMatchObject({ credits: 0 });
    // An own limit above the server's changes nothing and says so; one below it is the budget shown, said as its own.
    const higher = createHost(readConfig(["--lang", "en", "--budget", "50"], env), nodeDriver(), () => undefined);
    const h = await callTool(higher, tool("account"), "account", {});
    expect(text(h)).toMatch(/--budget 50 is above it and changes nothing/);
    const token2 = await srv.token("mcp-lower", 40);
    const lower = createHost(
      readConfig(["--lang", "de", "--budget", "5"], { ...env, COMPANY_DATA_TOKEN: token2 }),
      nodeDriver(),
      () => undefined,
    );
    const l = await callTool(lower, tool("account"), "account", {});
    expect(l.structuredContent?.budget).toMatchObject({ source: "mcp", limit: 5, remaining: 5 });
    expect(text(l)).toMatch(
      /das eigene Limit dieses MCP-Servers \(--budget 5, niedriger als Ihr Budget auf dem Team-Server\)/,
    );
  }, 60_000);
});
