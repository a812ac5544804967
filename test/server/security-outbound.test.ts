/**
 * Outbound addresses (issue 36, item 2): every internal address form is
 * refused when a webhook is registered (DE/EN, the API's error shape, the
 * address never repeated); a name that resolves inward only at send time
 * is refused then, before any socket (a resolver this test controls, and a
 * loopback listener that counts connections: it must see none); the
 * admin's --allow-webhook-host admits exactly its hosts; redirects are not
 * followed. Nothing here connects to anything but 127.0.0.1.
 */
import * as http from "node:http";
import * as net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runServerCli } from "../../server/cli.ts";
import { jsonLogger } from "../../server/log.ts";
import {
  checkedAddresses,
  outboundFetch,
  outboundPolicy,
  OutboundRefused,
  registrationRefusal,
  STRICT_OUTBOUND,
  type OutboundPolicy,
  type Resolver,
} from "../../server/net/outbound.ts";
import type { ServiceContext } from "../../server/routes.ts";
import type { RunResult } from "../../server/schedules/run.ts";
import { runDue } from "../../server/schedules/scheduler.ts";
import { uniqueCompanies } from "../support/lists.ts";
import { webhookSink, type WebhookSink } from "../support/schedule-sinks.ts";
import type { EmulatorWorld, InProcessServer } from "../support/team-server.ts";
import { schedulerService, startScheduleWorld, type ScheduleWorld } from "../support/schedule-world.ts";
import { BACKENDS } from "./backends.ts";

/** Every form the issue names, and the kind each is refused as. */
const INTERNAL: [string, string][] = [
  ["http://127.0.0.1:8790/hook", "loopback"],
  ["http://localhost:8790/hook", "localName"],
  ["http://LOCALHOST./hook", "localName"],
  ["https://api.localhost/hook", "localName"],
  ["http://[::1]:8790/hook", "loopback"],
  ["https://0.0.0.0/hook", "unspecified"],
  ["https://[::]/hook", "unspecified"],
  ["https://169.254.169.254/latest/meta-data", "linkLocal"],
  ["https://[fe80::1]/hook", "linkLocal"],
  ["https://10.0.0.1/hook", "private"],
  ["https://172.16.5.4/hook", "private"],
  ["https://192.168.1.1/hook", "private"],
  ["https://[fc00::1]/hook", "uniqueLocal"],
  ["https://[fd12:3456::1]/hook", "uniqueLocal"],
  ["https://100.64.0.1/hook", "carrierGradeNat"],
  ["https://224.0.0.1/hook", "multicast"],
  ["https://[ff02::1]/hook", "multicast"],
  ["https://255.255.255.255/hook", "broadcast"],
  ["https://240.0.0.1/hook", "reserved"],
  // IPv4-mapped, -compatible, SIIT and NAT64 forms of inward IPv4 addresses.
  ["https://[::ffff:a9fe:a9fe]/", "linkLocal"],
  ["https://[::ffff:169.254.169.254]/", "linkLocal"],
  ["https://[::ffff:127.0.0.1]/", "loopback"],
  ["https://[0:0:0:0:0:ffff:7f00:1]/", "loopback"],
  ["https://[::7f00:1]/", "loopback"],
  ["https://[::10.0.0.1]/", "private"],
  ["https://[::ffff:0:a00:1]/", "private"],
  ["https://[64:ff9b::a9fe:a9fe]/", "linkLocal"],
  ["https://[2002:7f00:1::]/", "tunnel"],
  // Numeric spellings: decimal, octal, hex, short forms.
  ["http://2130706433/hook", "loopback"],
  ["http://0177.0.0.1/hook", "loopback"],
  ["http://0x7f.0.0.1/hook", "loopback"],
  ["http://0x7f000001/hook", "loopback"],
  ["http://127.1/hook", "loopback"],
  ["https://2852039166/", "linkLocal"],
  ["https://0251.0376.0251.0376/", "linkLocal"],
  ["https://10.1/hook", "private"],
  ["https://0xa.0.0.1/hook", "private"],
  ["https://intranet/hook", "localName"],
  ["https://printer.local/hook", "localName"],
  ["https://metadata.internal/hook", "localName"],
];

/** A word of each kind's explanation in the English message. */
const INTERNAL_WORD = {
  loopback: "loopback",
  localName: "local name",
  unspecified: "unspecified",
  linkLocal: "link-local",
  private: "private network",
  uniqueLocal: "fc00::/7",
  carrierGradeNat: "100.64.0.0/10",
  multicast: "multicast",
  broadcast: "broadcast",
  reserved: "reserved",
  tunnel: "tunnel",
};

const PUBLIC = [
  "https://hooks.slack.com/services/T000/B000/XXXX",
  "https://prod-12.westeurope.logic.azure.com/workflows/abc?sig=x",
  "https://8.8.8.8/hook",
  "https://[2001:4860:4860::8888]/hook",
];

/** A resolver this test controls: names → addresses; every question it was asked. */
function fakeResolver(table: Record<string, string[] | (() => string[])>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (name: string) => {
    asked.push(name);
    const entry = table[name];
    const list = typeof entry === "function" ? entry() : entry;
    if (!list) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

/** A loopback listener that only counts connections (the address a refused send would have reached). */
async function connectionCounter(): Promise<{ port: number; count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = net.createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    count: () => n,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe("the outbound check, without a network", () => {
  it.each(INTERNAL)("%s is refused at registration (%s)", (url, kind) => {
    const e = registrationRefusal(STRICT_OUTBOUND, url, "webhooks[0]");
    expect(e, url).not.toBeNull();
    expect(e!.details.field).toBe("webhooks[0]");
    const de = e!.text("de");
    const en = e!.text("en");
    expect(de).toMatch(/internes Netz/);
    expect(en).toMatch(/internal network/);
    expect(en).toMatch(/--allow-webhook-host/);
    // The address is a secret: the message never repeats it.
    for (const text of [de, en]) {
      expect(text).not.toContain(url);
      expect(text).not.toContain(new URL(url).host + "/");
    }
    expect(en).toContain(INTERNAL_WORD[kind as keyof typeof INTERNAL_WORD]);
  });

  it("each form is refused as the kind it is", async () => {
    for (const [url, kind] of INTERNAL) {
      const host = new URL(url).hostname;
      const refusal = await checkedAddresses(STRICT_OUTBOUND, host).then(
        () => null,
        (e: unknown) => e,
      );
      if (kind === "localName") continue; // names are refused by name at registration, by their answer at send time
      expect(refusal, url).toBeInstanceOf(OutboundRefused);
      expect((refusal as OutboundRefused).kind, url).toBe(kind);
    }
  });

  it("public addresses and names pass registration", () => {
    for (const url of PUBLIC) expect(registrationRefusal(STRICT_OUTBOUND, url, "webhooks[0]"), url).toBeNull();
  });

  it("at send time a name is checked by what it resolves to, every address of it", async () => {
    const resolve = fakeResolver({
      "hooks.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
      "evil.example.com": ["127.0.0.1"],
      "mixed.example.com": ["93.184.216.34", "10.0.0.7"],
      "meta.example.com": ["::ffff:169.254.169.254"],
    });
    const policy = outboundPolicy({ resolve });
    expect((await checkedAddresses(policy, "hooks.example.com")).map((a) => a.address)).toEqual([
      "93.184.216.34",
      "2606:2800:220:1:248:1893:25c8:1946",
    ]);
    for (const [name, kind] of [
      ["evil.example.com", "loopback"],
      ["mixed.example.com", "private"],
      ["meta.example.com", "linkLocal"],
    ] as const) {
      const e = await checkedAddresses(policy, name).catch((x: unknown) => x);
      expect(e, name).toBeInstanceOf(OutboundRefused);
      expect((e as OutboundRefused).kind).toBe(kind);
    }
  });

  it("--allow-webhook-host admits exactly its hosts, at registration and at send time", async () => {
    const resolve = fakeResolver({ "relay.corp.example": ["10.1.2.3"], "other.corp.example": ["10.1.2.4"] });
    const policy = outboundPolicy({ allowHosts: ["relay.corp.example", "127.0.0.1"], resolve });
    expect(registrationRefusal(policy, "https://relay.corp.example/hook", "w")).toBeNull();
    expect(registrationRefusal(policy, "https://RELAY.corp.example./hook", "w")).toBeNull();
    expect(registrationRefusal(policy, "http://127.0.0.1:9/hook", "w")).toBeNull();
    // Not its neighbours, nor another spelling of another host, nor loopback under another name.
    for (const url of [
      "http://127.0.0.2/hook",
      "http://localhost:9/hook",
      "http://[::1]:9/hook",
      "https://10.1.2.3/hook",
    ])
      expect(registrationRefusal(policy, url, "w"), url).not.toBeNull();
    expect((await checkedAddresses(policy, "relay.corp.example")).map((a) => a.address)).toEqual(["10.1.2.3"]);
    // A neighbour of an allowed name is a name like any other: checked by what it resolves to.
    await expect(checkedAddresses(policy, "other.corp.example")).rejects.toBeInstanceOf(OutboundRefused);
    await expect(
      checkedAddresses(outboundPolicy({ allowHosts: ["corp.example"], resolve }), "relay.corp.example"),
    ).rejects.toBeInstanceOf(OutboundRefused);
  });
});

describe("company-data server --allow-webhook-host", () => {
  it("takes a bare host or address; a URL, a port or a path is a usage error naming the flag", async () => {
    for (const bad of ["https://relay.corp.example/", "relay.corp.example:443", "relay.corp.example/hooks", ""]) {
      const err: string[] = [];
      const code = await runServerCli(
        ["--allow-webhook-host", bad, "--port", "0"],
        { COMPANY_DATA_API_KEY: "cd_live_x", DATABASE_URL: "" },
        { out: () => undefined, err: (l) => err.push(l) },
        "en",
      );
      expect(code, bad).toBe(2);
      expect(err.join("\n")).toContain("Invalid value for --allow-webhook-host");
    }
  });
});

describe("sending to a user-given address", () => {
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  let sink: WebhookSink;
  beforeAll(async () => {
    counter = await connectionCounter();
    sink = await webhookSink();
  });
  afterAll(async () => {
    await counter?.close();
    await sink?.close();
  });
  const post = (policy: OutboundPolicy, url: string) =>
    outboundFetch(policy)(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });

  it("a name that resolves inward only at send time is refused then, and no socket reaches the address", async () => {
    // Registered while it pointed outside; now it answers 127.0.0.1 (the counter's address).
    let inward = false;
    const resolve = fakeResolver({ "hooks.rebind.example": () => (inward ? ["127.0.0.1"] : ["93.184.216.34"]) });
    const policy = outboundPolicy({ resolve });
    const url = `http://hooks.rebind.example:${counter.port}/hook`;
    expect(registrationRefusal(policy, url, "w")).toBeNull();
    inward = true;
    const e = await post(policy, url).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OutboundRefused);
    expect((e as OutboundRefused).kind).toBe("loopback");
    expect(resolve.asked).toEqual(["hooks.rebind.example"]);
    expect(counter.count()).toBe(0);
  });

  it("a literal inward address is refused before any socket, however it is spelled", async () => {
    for (const host of ["127.0.0.1", "2130706433", "0177.0.0.1", "127.1", "[::ffff:127.0.0.1]", "[::1]"]) {
      const e = await post(STRICT_OUTBOUND, `http://${host}:${counter.port}/hook`).catch((x: unknown) => x);
      expect(e, host).toBeInstanceOf(OutboundRefused);
    }
    expect(counter.count()).toBe(0);
  });

  it("an allowed host is sent to, at the address its lookup gave; a redirect is answered, not followed", async () => {
    const resolve = fakeResolver({ "relay.corp.example": ["127.0.0.1"] });
    const policy = outboundPolicy({ allowHosts: ["relay.corp.example"], resolve });
    const sinkPort = new URL(sink.url).port;
    const res = await post(policy, `http://relay.corp.example:${sinkPort}/ok/relay`);
    expect(res.status).toBe(200);
    expect(sink.posts.at(-1)?.path).toBe("/ok/relay");
    // A redirecting receiver: its 3xx comes back as the answer; the place it names gets nothing.
    const redirecting = http.createServer((_req, r) => {
      r.writeHead(307, { location: `http://127.0.0.1:${counter.port}/elsewhere` }).end();
    });
    await new Promise<void>((r) => redirecting.listen(0, "127.0.0.1", () => r()));
    try {
      const port = (redirecting.address() as AddressInfo).port;
      const allowLoopback = outboundPolicy({ allowHosts: ["127.0.0.1"] });
      const r = await post(allowLoopback, `http://127.0.0.1:${port}/hook`);
      expect(r.status).toBe(307);
      expect(counter.count()).toBe(0);
    } finally {
      await new Promise<void>((r) => redirecting.close(() => r()));
    }
  });
});

describe.each(BACKENDS)("webhooks on the team server ($name)", (backend) => {
  const KEY = "cd_live_OUTBOUNDKEY_5d1e2a9c7b";
  let world: EmulatorWorld;
  let strict: InProcessServer;
  let token: string;
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  let sw: ScheduleWorld;
  const cfg = () => sw.config;
  // Registration resolves nothing, so the name passes there; at send time it answers a private address.
  // (It never answers a public one: this test must not connect beyond loopback.)
  const resolve = fakeResolver({ "hooks.later-inward.example": ["10.9.8.7"] });
  const policy = outboundPolicy({ resolve });

  async function put(name: string, webhooks: string[], lang = "de") {
    const res = await fetch(`${strict.url}/schedules/${name}`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Accept-Language": lang },
      body: JSON.stringify({ companies: uniqueCompanies(world.emu, 2, 70).map((c) => c.id), webhooks }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { error?: { code: string; field: string; message: string } },
    };
  }

  beforeAll(async () => {
    counter = await connectionCounter();
    sw = await startScheduleWorld({
      seed: 36,
      key: KEY,
      user: "outbound-olga",
      makeDatabase: backend.make,
      companies: 300,
      schedule: { tickMs: 3_600_000, webhookTimeoutMs: 3_000 },
      outbound: policy,
    });
    ({ world, srv: strict, token } = sw);
  }, 90_000);

  afterAll(async () => {
    await sw?.close();
    await counter?.close();
  });

  it("every internal form is answered 400 INVALID_INPUT in the user's language, naming the field; nothing is stored", async () => {
    for (const [form] of INTERNAL) {
      // https throughout: the shared form check already refuses http:// to anything but this machine.
      const url = form.replace(/^http:/, "https:");
      const de = await put("intern", [PUBLIC[0]!, url], "de");
      expect(de.status, url).toBe(400);
      expect(de.body.error?.code).toBe("INVALID_INPUT");
      expect(de.body.error?.field).toBe("webhooks[1]");
      expect(de.body.error?.message).toMatch(/internes Netz/);
    }
    const en = await put("intern", [INTERNAL[7]![0]], "en");
    expect(en.body.error?.message).toMatch(/internal network \(a link-local network/);
    const listed = await fetch(`${strict.url}/schedules`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await listed.json()) as { schedules: unknown[] }).schedules).toEqual([]);
  });

  it("a webhook whose name resolves inward only when the run sends is refused then, recorded on the run", async () => {
    const url = `http://hooks.later-inward.example:${counter.port}/hook`;
    // http:// is only for this machine in the shared form check, so the name comes as https on the counter's port.
    const reg = await put("later", [url.replace("http://", "https://")], "en");
    expect(reg.status).toBe(200);
    const companies = uniqueCompanies(world.emu, 2, 70).map((c) => c.id);
    const ctx = instance(world, strict, policy);
    await fetch(`${strict.url}/schedules/later/run`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
    expect(await runDue(ctx, cfg())).toBe(1);
    // A change the next day, so the run has news to post.
    world.emu.scheduleEvent(companies[0]!, { day: world.emu.clock.day() + 1, kind: "ADDRESS" });
    sw.days.advance(1);
    expect(await runDue(ctx, cfg())).toBe(1);
    const runs = (await (
      await fetch(`${strict.url}/schedules/later/runs`, { headers: { Authorization: `Bearer ${token}` } })
    ).json()) as { runs: { result: RunResult }[] };
    const alert = runs.runs.at(-1)!.result.alerts.find((a) => a.channel === "webhook")!;
    expect(alert.status).toBe("failed");
    expect(alert.error?.en).toMatch(/internal network \(a private network/);
    expect(alert.error?.de).toMatch(/internes Netz/);
    expect(resolve.asked).toContain("hooks.later-inward.example");
    expect(counter.count()).toBe(0);
    expect(strict.logs.some((l) => l.includes('"event":"schedule.webhook.refused"'))).toBe(true);
  }, 60_000);
});

/** The scheduler's view of the in-process server, with the server's own outbound policy. */
const instance = (world: EmulatorWorld, srv: InProcessServer, outbound: OutboundPolicy): ServiceContext =>
  schedulerService(world, srv.db, "outbound-loop", { log: jsonLogger((l) => srv.logs.push(l)), outbound });
