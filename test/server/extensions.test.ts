/**
 * The team server runs the extensions its caller passes (issue 41, item 5),
 * and nothing because a module was imported: the schedules module is
 * imported by this file (through server/extensions.ts), yet a server started
 * without it answers /schedules 404. The route table refuses the core's
 * prefixes and picks the longest prefix.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TEAM_SERVER_EXTENSIONS } from "../../server/extensions.ts";
import { routeTable, type ExtraRoute, type ServerExtension } from "../../server/routes.ts";
import { schedulesExtension } from "../../server/schedules/index.ts";
import {
  pgliteDatabase,
  startEmulatorWorld,
  startInProcess,
  type EmulatorWorld,
  type InProcessServer,
  type TestDatabase,
} from "../support/team-server.ts";

const handler: ExtraRoute["handler"] = async (_req, res) => void res.end();
const ext = (...routes: ExtraRoute[]): ServerExtension => ({ name: "t", routes });

describe("the route table", () => {
  test("the longest prefix wins, by method", () => {
    const t = routeTable([
      ext({ method: "*", prefix: "/console", auth: false, handler }),
      ext({ method: "GET", prefix: "/console/api/me", auth: true, handler }),
    ]);
    expect(t.find("GET", "/console/api/me/x")?.prefix).toBe("/console/api/me");
    expect(t.find("POST", "/console/api/me")?.prefix).toBe("/console");
    expect(t.find("GET", "/consoles")).toBeUndefined();
  });
  test("the core's prefixes and malformed ones are refused when the server starts", () => {
    for (const prefix of ["/v2", "/v2/x", "/health", "x", "/a/"])
      expect(() => routeTable([ext({ method: "*", prefix, auth: false, handler })])).toThrow(prefix);
  });
  test("the server's entry names every module", () => {
    expect(TEAM_SERVER_EXTENSIONS.map((e) => e.name)).toEqual([
      "doctor",
      "reconcile",
      "schedules",
      "estimate",
      "console",
      "admin",
    ]);
  });
});

describe("a server runs the extensions it is given", () => {
  let world: EmulatorWorld;
  const dbs: TestDatabase[] = [];
  let bare: InProcessServer;
  let withSchedules: InProcessServer;
  beforeAll(async () => {
    world = await startEmulatorWorld();
    dbs.push(pgliteDatabase(), pgliteDatabase());
    bare = await startInProcess(world, dbs[0]!, { extensions: [] });
    withSchedules = await startInProcess(world, dbs[1]!, { extensions: [schedulesExtension] });
  }, 120_000);
  afterAll(async () => {
    await bare?.close();
    await withSchedules?.close();
    await world?.api.close();
    for (const db of dbs) await db.drop();
  });

  test("without the schedules extension /schedules is no route; with it, it wants a token", async () => {
    const token = await bare.token("anna");
    const none = await fetch(`${bare.url}/schedules`, { headers: { authorization: `Bearer ${token}` } });
    expect(none.status).toBe(404);
    expect((await fetch(`${bare.url}/console`)).status).toBe(404);
    expect((await fetch(`${withSchedules.url}/schedules`)).status).toBe(401);
    expect((await fetch(`${withSchedules.url}/console`)).status).toBe(404);
  });
});
