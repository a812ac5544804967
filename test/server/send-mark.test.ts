/**
 * The send mark (issue 37, item 3) at the wire: the ledger's mark runs once
 * the connection stands and before any byte of the request is written, and
 * a request that provably never left says so (`sent: false`): a name that
 * did not resolve (a resolver the test controls: no real DNS is asked), a
 * refused connection, a TLS handshake that failed, a mark that said no. Only
 * loopback is connected to.
 */
import { createServer, type AddressInfo, type LookupFunction } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUpstream } from "../../server/upstream.ts";
import { sendHttp } from "../../node/send-http.ts";
import { FAST_PACING, startEmulatorWorld, type EmulatorWorld } from "../support/team-server.ts";
import { uniqueCompanies } from "../support/lists.ts";

const PAID = (id: string) => ({ endpoint: "people" as const, path: { id } });

const upstreamTo = (baseUrl: string, lookup?: LookupFunction) =>
  createUpstream({
    apiKey: "k".repeat(20),
    baseUrl,
    timeoutMs: 3_000,
    maxPaceWaitMs: 1_000,
    rateLimits: FAST_PACING,
    ...(lookup ? { lookup } : {}),
  });

/** Counts the marks asked, answering `yes`. */
function marker(yes = true) {
  const m = { asked: 0, mark: async () => (m.asked++, yes) };
  return m;
}

describe("the send mark", () => {
  let world: EmulatorWorld;
  beforeAll(async () => {
    world = await startEmulatorWorld({ companies: 300, seed: 3 });
  });
  afterAll(async () => world?.api.close());

  it("a name that does not resolve: never left, no mark asked", async () => {
    const lookup: LookupFunction = (hostname, _opts, cb) => {
      const e = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      process.nextTick(() => (cb as (err: Error) => void)(e));
    };
    const m = marker();
    const a = await upstreamTo("http://api.example.invalid", lookup).send(PAID("DEAAAAAAAAAA"), "de", "t1", m.mark);
    expect(a).toMatchObject({ ok: false, status: 0, sent: false, unreachable: true });
    expect(a.error?.code).toBe("NETWORK");
    expect(m.asked).toBe(0);
  });

  it("a refused connection: never left, no mark asked", async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const port = (s.address() as AddressInfo).port;
    await new Promise<void>((r) => s.close(() => r()));
    const m = marker();
    const a = await upstreamTo(`http://127.0.0.1:${port}`).send(PAID("DEAAAAAAAAAA"), "de", "t2", m.mark);
    expect(a).toMatchObject({ ok: false, status: 0, sent: false, unreachable: true });
    expect(m.asked).toBe(0);
  });

  it("a TLS handshake that fails: never left, no mark asked, nothing of the request reached the other side", async () => {
    let received = "";
    const s = createServer((sock) => {
      sock.on("data", (d: Buffer) => (received += d.toString("latin1")));
      sock.on("error", () => undefined);
      // Not TLS: the client's handshake fails.
      sock.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    });
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    try {
      const m = marker();
      const port = (s.address() as AddressInfo).port;
      const a = await upstreamTo(`https://127.0.0.1:${port}`).send(PAID("DEAAAAAAAAAA"), "de", "t3", m.mark);
      expect(a).toMatchObject({ ok: false, status: 0, sent: false, unreachable: true });
      expect(m.asked).toBe(0);
      // The ClientHello went out, the request did not.
      expect(received).not.toContain("/v2/companies");
    } finally {
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it("a mark that says no: nothing written, nothing charged; a mark that says yes: sent once, charged once", async () => {
    const [id] = uniqueCompanies(world.emu, 1, 5).map((c) => c.id);
    const up = createUpstream({
      apiKey: world.key,
      baseUrl: world.api.url,
      timeoutMs: 5_000,
      maxPaceWaitMs: 1_000,
      rateLimits: FAST_PACING,
    });
    const no = marker(false);
    const refused = await up.send(PAID(id!), "de", "ledger-no", no.mark);
    expect(refused).toMatchObject({ ok: false, sent: false });
    expect(refused.unreachable).toBeFalsy();
    expect(no.asked).toBe(1);
    expect(world.charged.has("ledger-no")).toBe(false);
    const yes = marker(true);
    const bought = await up.send(PAID(id!), "de", "ledger-yes", yes.mark);
    expect(bought).toMatchObject({ ok: true, sent: true, status: 200 });
    expect(yes.asked).toBe(1);
    expect(world.charged.get("ledger-yes")).toBe(1);
  });

  it("a connection closed while the mark is made: nothing was written; sent once more on a new connection", async () => {
    let connections = 0;
    const requests: string[] = [];
    const s = createServer((sock) => {
      const n = ++connections;
      sock.on("error", () => undefined);
      sock.on("data", (d: Buffer) => {
        requests.push(`${n}:${d.toString("latin1").split("\r\n")[0]}`);
        sock.end(
          "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}",
        );
      });
      // The first connection is closed as idle while the client makes its mark.
      if (n === 1) setTimeout(() => sock.destroy(), 50);
    });
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    try {
      let asked = 0;
      let marked: Promise<boolean> | undefined;
      const mark = () =>
        (marked ??= (async () => {
          asked++;
          await new Promise((r) => setTimeout(r, 300));
          return true;
        })());
      const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/v2/x`;
      const out = await sendHttp({ method: "GET", url, headers: {} }, { timeoutMs: 3_000, beforeWrite: mark });
      expect(out).toMatchObject({ left: true, unreachable: false, res: { status: 200 } });
      expect(asked).toBe(1);
      expect(requests).toEqual(["2:GET /v2/x HTTP/1.1"]);
    } finally {
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it("the probe: a status when the API answers, 0 when nothing does", async () => {
    expect(await upstreamTo(world.api.url).probe(2_000)).toBe(401);
    const lookup: LookupFunction = (_h, _o, cb) =>
      process.nextTick(() =>
        (cb as (err: Error) => void)(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" })),
      );
    expect(await upstreamTo("http://api.example.invalid", lookup).probe(2_000)).toBe(0);
  });
});
