import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpRequest } from "../../shared/core/http.ts";
import { sendHttp } from "../../node/send-http.ts";

const nodeHttp = async (req: HttpRequest, timeoutMs: number) => (await sendHttp(req, { timeoutMs })).res;

/** One loopback server whose answer each test picks by path. */
let server: Server;
let base: string;
const seen: { path: string; headers: IncomingMessage["headers"]; body: string; socket: number }[] = [];
const sockets = new WeakMap<object, number>();
let nextSocket = 0;

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/plain": (_q, s) => s.writeHead(200, { "Content-Type": "application/json" }).end('{"name":"Müller GmbH"}'),
  "/gzip": (_q, s) => s.writeHead(200, { "Content-Encoding": "gzip" }).end(gzipSync('{"a":"gzipped ä"}')),
  "/deflate": (_q, s) => s.writeHead(200, { "Content-Encoding": "deflate" }).end(deflateSync('{"a":"deflated"}')),
  "/br": (_q, s) => s.writeHead(200, { "Content-Encoding": "br" }).end(brotliCompressSync('{"a":"brotli"}')),
  "/bad-gzip": (_q, s) => s.writeHead(200, { "Content-Encoding": "gzip" }).end("not gzip at all"),
  // "ü" is two bytes in UTF-8: sent split across two writes, it must come back whole.
  "/split": (_q, s) => {
    const b = Buffer.from('{"n":"ü"}');
    s.writeHead(200);
    s.write(b.subarray(0, 7));
    setTimeout(() => s.end(b.subarray(7)), 10);
  },
  "/headers": (_q, s) => {
    s.setHeader("Retry-After", "3");
    s.setHeader("X-Many", ["a", "b"]);
    s.writeHead(429).end("{}");
  },
  "/redirect": (_q, s) => s.writeHead(302, { Location: "/plain" }).end(),
  "/slow": () => {},
  "/cut": (_q, s) => {
    s.writeHead(200, { "Content-Length": "100" });
    s.write("{");
    setTimeout(() => s.socket?.destroy(), 10);
  },
  "/echo": (q, s) => s.writeHead(200).end(String(seen.at(-1)?.body ?? "")),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const socket = sockets.get(req.socket) ?? sockets.set(req.socket, ++nextSocket).get(req.socket)!;
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", headers: req.headers, body, socket });
      (routes[req.url ?? ""] ?? ((_q, s) => s.writeHead(404).end()))(req, res);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

const get = (path: string, headers: Record<string, string> = {}): HttpRequest => ({
  method: "GET",
  url: base + path,
  headers,
});

describe("sendHttp (the Node hosts' transport)", () => {
  it("reads a plain answer as UTF-8, with the key header sent and compression asked for", async () => {
    const res = await nodeHttp(get("/plain", { Authorization: "Bearer k" }), 5_000);
    expect(res).toMatchObject({ status: 200, body: '{"name":"Müller GmbH"}' });
    expect(res.headers["content-type"]).toBe("application/json");
    const asked = seen.at(-1)!;
    expect(asked.headers.authorization).toBe("Bearer k");
    expect(asked.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("decodes gzip, deflate and br answers, and keeps a caller's own Accept-Encoding", async () => {
    expect((await nodeHttp(get("/gzip"), 5_000)).body).toBe('{"a":"gzipped ä"}');
    expect((await nodeHttp(get("/deflate"), 5_000)).body).toBe('{"a":"deflated"}');
    expect((await nodeHttp(get("/br", { "accept-encoding": "br" }), 5_000)).body).toBe('{"a":"brotli"}');
    expect(seen.at(-1)!.headers["accept-encoding"]).toBe("br");
  });

  it("a character split across two packets comes back whole", async () => {
    expect((await nodeHttp(get("/split"), 5_000)).body).toBe('{"n":"ü"}');
  });

  it("header names in lower case, repeated ones joined; an error status is an answer", async () => {
    const res = await nodeHttp(get("/headers"), 5_000);
    expect(res.status).toBe(429);
    expect(res.headers["retry-after"]).toBe("3");
    expect(res.headers["x-many"]).toBe("a, b");
  });

  it("sends a POST body", async () => {
    await nodeHttp(
      { method: "POST", url: base + "/echo", headers: { "Content-Type": "application/json" }, body: '{"q":"ö"}' },
      5_000,
    );
    expect(seen.at(-1)!.body).toBe('{"q":"ö"}');
  });

  it("never follows a redirect: the 3xx is the answer", async () => {
    const before = seen.length;
    const res = await nodeHttp(get("/redirect", { Authorization: "Bearer k" }), 5_000);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/plain");
    expect(seen.length).toBe(before + 1);
  });

  it("failures are answers with a networkError, never exceptions", async () => {
    expect(await nodeHttp(get("/slow"), 50)).toEqual({ status: 0, headers: {}, body: "", networkError: "timeout" });
    expect(await nodeHttp(get("/cut"), 5_000)).toMatchObject({ status: 0, networkError: "connection" });
    expect(await nodeHttp(get("/bad-gzip"), 5_000)).toMatchObject({ status: 0, networkError: "connection" });
    // A port nobody listens on (the server's own, closed below, is not reused: an unused port from a fresh listen).
    const idle = createServer();
    await new Promise<void>((ok) => idle.listen(0, "127.0.0.1", ok));
    const port = (idle.address() as AddressInfo).port;
    await new Promise((ok) => idle.close(ok));
    expect(await nodeHttp({ method: "GET", url: `http://127.0.0.1:${port}/`, headers: {} }, 5_000)).toMatchObject({
      status: 0,
      networkError: "connection",
    });
    expect(await nodeHttp({ method: "GET", url: "ftp://x.test/", headers: {} }, 5_000)).toMatchObject({
      networkError: "connection",
    });
  });

  it("keeps the connection: requests one after another share one socket", async () => {
    const start = seen.length;
    for (let i = 0; i < 3; i++) await nodeHttp(get("/plain"), 5_000);
    const used = new Set(seen.slice(start).map((s) => s.socket));
    expect(used.size).toBe(1);
  });
});
