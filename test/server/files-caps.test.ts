/**
 * Issue 36 item 6, on PGlite and (TEST_DATABASE_URL) PostgreSQL: schedules
 * per user are capped (here --max-schedules 3; default 20), a replaced
 * schedule does not count twice, two registrations at once cannot both take
 * the last place; more than 5 webhook addresses or 10 e-mail recipients on
 * one schedule are refused, in the API's error shape, in German and
 * English. User names: `alice`, `Alice`, full-width `ａｌｉｃｅ` and `ALICE`
 * are one user, `straße` is `STRASSE`; Cyrillic `аlice` (mixed scripts) and
 * all-Cyrillic `сора` (a look-alike of copa) are refused at token
 * creation; rows stored before the rule (`bob` and `Bob`) still work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticate, createToken, revokeTokens } from "../../server/auth/tokens.ts";
import { mixedScripts, UserNameRefused, userNameKey, userNameText } from "../../server/auth/user-name.ts";
import { setUserBudget } from "../../server/ledger/budget.ts";
import { setScheduleConfig } from "../../server/schedules/config.ts";
import {
  startEmulatorWorld,
  startInProcess,
  type EmulatorWorld,
  type InProcessServer,
  type TestDatabase,
} from "../support/team-server.ts";
import { BACKENDS, requirePostgresUnderCi } from "./backends.ts";

const body = (over: Record<string, unknown> = {}) => ({
  companies: ["DE0000000001"],
  frequency: "daily",
  hour: 7,
  ...over,
});

async function put(srv: InProcessServer, token: string, name: string, b: unknown, lang = "en") {
  const res = await fetch(`${srv.url}/schedules/${encodeURIComponent(name)}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Accept-Language": lang },
    body: JSON.stringify(b),
  });
  return {
    status: res.status,
    body: (await res.json()) as { error?: { code: string; message: string; field?: string } },
  };
}

describe("user names (one rule, no database)", () => {
  it("fold to one key and tell mixed scripts", () => {
    expect(new Set(["alice", "Alice", "ALICE", "ａｌｉｃｅ"].map(userNameKey)).size).toBe(1);
    expect(userNameKey("straße")).toBe(userNameKey("STRASSE"));
    expect(mixedScripts("аlice")).toBe(true); // Cyrillic а + Latin
    expect(mixedScripts("alice")).toBe(false);
    expect(mixedScripts("иван")).toBe(false);
    expect(mixedScripts("山田たろう")).toBe(false); // Han + Hiragana: Japanese
    expect(mixedScripts("anna.müller@firma.de")).toBe(false);
  });
});

describe.each(BACKENDS)("caps and user names ($name)", (backend) => {
  let world: EmulatorWorld;
  let database: TestDatabase;
  let srv: InProcessServer;
  beforeAll(async () => {
    world = await startEmulatorWorld({ companies: 50 });
    database = await backend.make();
    setScheduleConfig({ tickMs: 3_600_000, maxSchedules: 3 });
    srv = await startInProcess(world, database);
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    setScheduleConfig(undefined);
    await database?.drop();
    await world?.api.close();
  });

  it("schedules per user: 3 allowed, the 4th refused (403, DE/EN), a replacement and another user unaffected", async () => {
    const token = await srv.token("capper");
    for (const n of ["a", "b", "c"]) expect((await put(srv, token, n, body())).status).toBe(200);
    const fourth = await put(srv, token, "d", body());
    expect(fourth.status).toBe(403);
    expect(fourth.body.error).toMatchObject({ code: "FORBIDDEN", field: "name" });
    expect(fourth.body.error!.message).toContain("You already have 3 schedules");
    expect((await put(srv, token, "d", body(), "de")).body.error!.message).toContain("Sie haben schon 3 Zeitpläne");
    expect((await put(srv, token, "b", body({ hour: 9 }))).status).toBe(200); // replacing is not a new one
    expect((await put(srv, await srv.token("other"), "a", body())).status).toBe(200);
  });

  it("two registrations at once for the last place: exactly one is taken", async () => {
    const token = await srv.token("racer");
    for (const n of ["a", "b"]) expect((await put(srv, token, n, body())).status).toBe(200);
    const both = await Promise.all(["x", "y", "z"].map((n) => put(srv, token, n, body())));
    expect(both.map((r) => r.status).sort()).toEqual([200, 403, 403]);
    const [row] = await srv.db.query<{ n: number }>(
      "select count(*)::int as n from schedules s join users u on u.id = s.user_id where u.name = 'racer'",
    );
    expect(row!.n).toBe(3);
  });

  it("more than 5 webhooks or 10 e-mail recipients on one schedule: 400 naming the field, DE/EN", async () => {
    const token = await srv.token("channels");
    const hooks = Array.from({ length: 6 }, (_, i) => `https://hooks.example.com/h${i}`);
    const w = await put(srv, token, "w", body({ webhooks: hooks }));
    expect(w.status).toBe(400);
    expect(w.body.error).toMatchObject({ code: "INVALID_INPUT", field: "webhooks" });
    expect(w.body.error!.message).toContain("at most 5 webhook addresses per schedule (given: 6)");
    expect((await put(srv, token, "w", body({ webhooks: hooks }), "de")).body.error!.message).toContain(
      "höchstens 5 Webhook-Adressen",
    );
    const mails = Array.from({ length: 11 }, (_, i) => `p${i}@team.example`);
    const m = await put(srv, token, "m", body({ emails: mails }));
    expect(m.status).toBe(400);
    expect(m.body.error!.message).toContain("at most 10 recipients");
  });

  it("alice, Alice, ALICE and ａｌｉｃｅ are one user; look-alikes are refused with a clear message", async () => {
    const t1 = await createToken(srv.db, "alice");
    const t2 = await createToken(srv.db, "Alice");
    const t3 = await createToken(srv.db, "ａｌｉｃｅ");
    const ids = await Promise.all([t1, t2, t3].map(async (t) => (await authenticate(srv.db, `Bearer ${t}`))!.id));
    expect(new Set(ids).size).toBe(1);
    expect((await authenticate(srv.db, `Bearer ${t2}`))!.name).toBe("alice"); // the name as first created
    await expect(createToken(srv.db, "аlice")).rejects.toMatchObject({ lookAlike: null });
    await createToken(srv.db, "copa");
    await expect(createToken(srv.db, "сора")).rejects.toMatchObject({ lookAlike: "copa" }); // all Cyrillic
    await expect(createToken(srv.db, "аlice")).rejects.toBeInstanceOf(UserNameRefused);
    expect(userNameText.refused.en("аlice", null)).toContain("mixes scripts");
    expect(userNameText.refused.de("сора", "copa")).toContain("sieht aus wie der des Benutzers copa");
    const [row] = await srv.db.query<{ n: number }>(
      "select count(*)::int as n from users where name in ('аlice', 'сора')",
    );
    expect(row!.n).toBe(0);
    // The commands that name a user take the folded name too.
    expect(await setUserBudget(srv.db, "ALICE", 500)).toBe(true);
    expect((await authenticate(srv.db, `Bearer ${t1}`))!.monthBudget).toBe(500);
    expect(await revokeTokens(srv.db, "Alice")).toBe(3);
  });

  it("rows stored before the rule (bob and Bob, two users) still work, each by its exact name", async () => {
    await srv.db.query("insert into users (name) values ('bob'), ('Bob')");
    const lower = await createToken(srv.db, "bob");
    const upper = await createToken(srv.db, "Bob");
    expect((await authenticate(srv.db, `Bearer ${lower}`))!.name).toBe("bob");
    expect((await authenticate(srv.db, `Bearer ${upper}`))!.name).toBe("Bob");
  });

  requirePostgresUnderCi();
});
