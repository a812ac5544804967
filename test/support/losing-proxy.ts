/**
 * A loopback proxy in front of the emulator's HTTP server that loses a share
 * of answers after the emulator has charged for them: it reads the whole
 * answer, then closes the client's connection without sending it (what a
 * network failure on the way back looks like to a client: the request was
 * served and billed, the answer never arrives). Connections the emulator
 * drops are dropped here too. Every exchange is logged with what it was
 * charged (the emulator's `x-credits-charged` header), so a test can count
 * the credits of lost answers one by one. 127.0.0.1, port 0.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { rng } from "./lists.ts";

export interface ProxyExchange {
  method: string;
  path: string;
  /** 0: the emulator dropped the connection. */
  status: number;
  charged: number;
  /** The client never got the answer (dropped, or lost after the charge). */
  lost: boolean;
}

export interface LosingProxy {
  url: string;
  log: ProxyExchange[];
  close(): Promise<void>;
}

/** Hop-by-hop and length headers: the proxy sends the body it read, with its own framing. */
const UNFORWARDED = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding"]);

/** The request body as text (the API's bodies are JSON). */
async function bodyOf(req: IncomingMessage): Promise<string | undefined> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return parts.length ? Buffer.concat(parts).toString("utf8") : undefined;
}

export interface ProxyOptions {
  seed?: number;
  /** An answer the proxy gives itself, without asking the emulator (a busy or failing API for some paths). */
  answerHere?: (method: string, path: string) => { status: number; body: string } | undefined;
}

export async function losingProxy(upstream: string, loseRate: number, opts: ProxyOptions = {}): Promise<LosingProxy> {
  const random = rng(opts.seed ?? 9);
  const log: ProxyExchange[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const method = req.method ?? "GET";
      const path = req.url ?? "/";
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === "string" && !UNFORWARDED.has(k.toLowerCase())) headers[k] = v;
      const body = await bodyOf(req);
      const here = opts.answerHere?.(method, path);
      if (here) {
        log.push({ method, path, status: here.status, charged: 0, lost: false });
        res.writeHead(here.status, { "content-type": "application/json" }).end(here.body);
        return;
      }
      let answer: Response;
      try {
        answer = await fetch(upstream + path, { method, headers, body });
      } catch {
        log.push({ method, path, status: 0, charged: 0, lost: true });
        req.socket.destroy();
        return;
      }
      const text = await answer.text();
      const charged = answer.status === 200 ? Number(answer.headers.get("x-credits-charged") ?? 0) : 0;
      if (random() < loseRate) {
        log.push({ method, path, status: answer.status, charged, lost: true });
        req.socket.destroy();
        return;
      }
      log.push({ method, path, status: answer.status, charged, lost: false });
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (!UNFORWARDED.has(k) && k !== "content-encoding") out[k] = v;
      });
      res.writeHead(answer.status, out).end(text);
    })().catch(() => req.socket.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
