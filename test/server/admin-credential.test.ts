/**
 * The admin credential (issue 38 item 2): `token create --admin` makes a
 * token that routes declared `auth: "admin"` accept; without a token they
 * answer 401, with a user's token 403 (the API's error shape, German and
 * English). An admin token stays its own user's token: on the user routes it
 * sees its own user's figures, never another user's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEAM_SERVER_EXTENSIONS } from "../../server/extensions.ts";
import type { ServerExtension } from "../../server/routes.ts";
import { createToken } from "../../server/auth/tokens.ts";
import { BACKENDS } from "./backends.ts";
import {
  serverCommand,
  startEmulatorWorld,
  startInProcess,
  type EmulatorWorld,
  type InProcessServer,
  type TestDatabase,
} from "../support/team-server.ts";
import { uniqueCompanies } from "../support/lists.ts";

// A route of this test only, passed to its servers with the ones `company-data server` runs.
const testRoute: ServerExtension = {
  name: "test-admin-only",
  routes: [
    {
      method: "GET",
      prefix: "/test-admin-only",
      auth: "admin",
      handler: async (_req, res, ctx) => {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ user: ctx.user }));
      },
    },
  ],
};

async function get(url: string, token?: string, headers: Record<string, string> = {}) {
  const r = await fetch(url, { headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers } });
  return { status: r.status, body: (await r.json()) as Record<string, any> };
}

describe.each(BACKENDS)("the admin credential on $name", (backend) => {
  let world: EmulatorWorld;
  let db: TestDatabase;
  let srv: InProcessServer;
  beforeAll(async () => {
    world = await startEmulatorWorld({ companies: 200, seed: 3, emulator: { faults: { latencyMs: 0, jitterMs: 0 } } });
    db = await backend.make();
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
    await db?.drop();
    await world?.api.close();
  });

  it("token create --admin makes an admin token; an admin route answers 401 without a token and 403 to a user's token, in DE and EN", async () => {
    const made = await serverCommand(db, ["token", "create", "--user", "root", "--admin", "--lang", "en"]);
    expect(made.code, made.stderr).toBe(0);
    const adminToken = made.stdout.trim().split("\n").at(-1)!;
    expect(adminToken).toMatch(/^cdt_/);
    const listed = await serverCommand(db, ["token", "list", "--lang", "en"]);
    expect(listed.stdout).toMatch(/^root\t.*admin/m);

    srv = await startInProcess(world, db, { extensions: [...TEAM_SERVER_EXTENSIONS, testRoute] });
    const userToken = await srv.token("alice");
    const route = srv.url + "/test-admin-only";

    const none = await get(route);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("UNAUTHORIZED");

    const de = await get(route, userToken);
    expect(de.status).toBe(403);
    expect(de.body.error.code).toBe("FORBIDDEN");
    expect(de.body.error.message).toMatch(/nur für Administratoren/);
    const en = await get(route, userToken, { "Accept-Language": "en" });
    expect(en.status).toBe(403);
    expect(en.body.error.message).toMatch(/administrators only/);

    const ok = await get(route, adminToken);
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ name: "root", admin: true });
    const asUser = await get(route + "?x=1", "cdt_" + "y".repeat(43));
    expect(asUser.status).toBe(401);

    // The admin API over HTTP: the backup streams to the admin token, never to a user's.
    expect((await fetch(srv.url + "/admin/backup", { headers: { Authorization: `Bearer ${userToken}` } })).status).toBe(
      403,
    );
    const backup = await fetch(srv.url + "/admin/backup", { headers: { Authorization: `Bearer ${adminToken}` } });
    expect(backup.status).toBe(200);
    const lines = (await backup.text()).trim().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: "company-data-server-backup", version: 1 });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ end: true, rows: { users: 2, tokens: 2 } });
  });

  it("an admin token is its own user's token on the user routes: it sees root's spend, never alice's", async () => {
    const adminToken = await createToken(srv.db, "root2", null, { admin: true });
    const alice = await srv.token("alice2");
    const [company] = uniqueCompanies(world.emu, 1, 11);
    const bought = await fetch(`${srv.url}/v2/companies/${company!.id}`, {
      headers: { Authorization: `Bearer ${alice}` },
    });
    expect(bought.status).toBe(200);
    const aliceAccount = await get(srv.url + "/v2/account", alice);
    expect(aliceAccount.body.usage.month).toBeGreaterThan(0);
    const rootAccount = await get(srv.url + "/v2/account", adminToken);
    expect(rootAccount.status).toBe(200);
    expect(rootAccount.body.usage.month).toBe(0);
    expect(rootAccount.body.usage.byEndpoint).toEqual({});
  });
});
