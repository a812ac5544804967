/**
 * The token lifecycle (issue 38 item 3, issue 36 item 6's tokens per user):
 * an expired token is refused with 401 saying it expired (German, English);
 * a rotated token stays valid for its grace period and no longer; a
 * revocation ends the grace too; last use is written at most once a minute
 * per token (no write per request); a user holds at most 10 live tokens by
 * default, refused with a clear message.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TOKEN_CACHE_MS } from "../../server/auth/token-cache.ts";

/** What the server keeps of a token (its user, at most TOKEN_CACHE_MS: issue 43) has lapsed. */
const keptExpired = () => new Promise((r) => setTimeout(r, TOKEN_CACHE_MS));
import { adminApi } from "../../server/admin/api.ts";
import {
  createToken,
  DEFAULT_MAX_TOKENS,
  revokeTokens,
  rotateTokens,
  TokenCapReached,
} from "../../server/auth/tokens.ts";
import { BACKENDS } from "./backends.ts";
import { type InProcessServer, startTeamWorld, type TeamWorld } from "../support/team-server.ts";

describe.each(BACKENDS)("token lifecycle on $name", (backend) => {
  let srv: InProcessServer;
  let team: TeamWorld;
  beforeAll(async () => {
    const quick = { faults: { latencyMs: 0, jitterMs: 0 } };
    team = await startTeamWorld(backend.make, { companies: 100, seed: 2, emulator: quick });
    ({ srv } = team);
  }, 60_000);
  afterAll(() => team?.close());

  const account = async (token: string, lang = "de") => {
    const r = await fetch(`${srv.url}/v2/account`, {
      headers: { Authorization: `Bearer ${token}`, "Accept-Language": lang },
    });
    return { status: r.status, body: (await r.json()) as { error?: { code: string; message: string } } };
  };

  it("an expired token gets 401 that says it expired, in German and English", async () => {
    const token = await createToken(srv.db, "eva", null, { expiresInSeconds: 90 * 86400 });
    expect((await account(token)).status).toBe(200);
    await srv.db.query(
      "update tokens set expires_at = now() - interval '1 second' where user_id = (select id from users where name = 'eva')",
    );
    await keptExpired();
    const de = await account(token);
    expect(de.status).toBe(401);
    expect(de.body.error?.code).toBe("UNAUTHORIZED");
    expect(de.body.error?.message).toMatch(/abgelaufen/);
    const en = await account(token, "en");
    expect(en.body.error?.message).toMatch(/^This token has expired \(at \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);
    // An unknown token is not called expired.
    expect((await account("cdt_" + "q".repeat(43), "en")).body.error?.message).not.toMatch(/expired/);
  });

  it("rotation: the old token works during its grace period and not after; revoke ends the grace (within the second a token's user is kept)", async () => {
    const old = await createToken(srv.db, "rolf", null, { admin: true });
    const r = await rotateTokens(srv.db, "rolf", { graceSeconds: 3600 });
    expect(r.rotated).toBe(1);
    expect(r.admin).toBe(true); // the new token keeps what the old one could do
    expect((await account(old)).status).toBe(200);
    expect((await account(r.token)).status).toBe(200);
    await srv.db.query(
      "update tokens set revoked_at = now() - interval '1 second' where revoked_at > now() and user_id = (select id from users where name = 'rolf')",
    );
    await keptExpired();
    expect((await account(old)).status).toBe(401);
    expect((await account(r.token)).status).toBe(200);
    const again = await rotateTokens(srv.db, "rolf", { graceSeconds: 3600 });
    expect(await revokeTokens(srv.db, "rolf")).toBe(2); // the new one and the one in its grace
    await keptExpired();
    expect((await account(r.token)).status).toBe(401);
    expect((await account(again.token)).status).toBe(401);
  });

  it("last use is written at most once a minute per token", async () => {
    const token = await createToken(srv.db, "lena");
    const lastUsed = async () =>
      (
        await srv.db.query<{ t: string | null }>(
          "select last_used_at::text as t from tokens where user_id = (select id from users where name = 'lena')",
        )
      )[0]!.t;
    expect(await lastUsed()).toBeNull();
    expect((await account(token)).status).toBe(200);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    for (let i = 0; i < 5; i++) expect((await account(token)).status).toBe(200);
    expect(await lastUsed()).toBe(first);
    await srv.db.query(
      "update tokens set last_used_at = now() - interval '2 minutes' where user_id = (select id from users where name = 'lena')",
    );
    const moved = await lastUsed();
    // This process wrote it less than a minute ago: it does not write again (its own clock), even for a stale mark.
    expect((await account(token)).status).toBe(200);
    expect(await lastUsed()).toBe(moved);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect((await account(token)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect(await lastUsed()).not.toBe(moved);
  });

  it(`a user holds at most ${DEFAULT_MAX_TOKENS} live tokens by default; the refusal says what to do`, async () => {
    for (let i = 0; i < DEFAULT_MAX_TOKENS; i++) await createToken(srv.db, "cap");
    await expect(createToken(srv.db, "cap")).rejects.toBeInstanceOf(TokenCapReached);
    const en = await adminApi(srv.db, {
      method: "POST",
      path: "/tokens",
      query: new URLSearchParams(),
      body: JSON.stringify({ user: "cap" }),
      lang: "en",
    });
    expect(en.status).toBe(400);
    expect(JSON.stringify(en.json)).toMatch(/already holds 10 valid tokens \(the cap\)/);
    const de = await adminApi(srv.db, {
      method: "POST",
      path: "/tokens",
      query: new URLSearchParams(),
      body: JSON.stringify({ user: "cap" }),
      lang: "de",
    });
    expect(JSON.stringify(de.json)).toMatch(/hat schon 10 gültige Tokens/);
    // A higher cap admits one more; an expired token no longer counts.
    await createToken(srv.db, "cap", undefined, { maxTokens: 11 });
    await srv.db.query(
      "update tokens set expires_at = now() - interval '1 second' where id = (select max(id) from tokens where user_id = (select id from users where name = 'cap'))",
    );
    await createToken(srv.db, "cap", undefined, { maxTokens: 11 });
  });
});
