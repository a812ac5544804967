/**
 * The load generator of bench/server-load.ts, in a process of its own so
 * that the server's CPU is measured apart from the callers'. Started with
 * fork(); says { ready } once up; told { url, requests: [path, token][] , sockets } on IPC, it sends
 * them all at once over at most `sockets` keep-alive connections (as HTTP
 * clients pool them; more new connections at once than the server's listen
 * backlog would be refused by the kernel, not by the server) and answers
 * with each request's milliseconds, how many were not a 200 from the team's
 * answers, and its own CPU during the burst.
 *
 * Plain HTTP/1.1 over node:net, each request's bytes made before the clock
 * starts: node:http's client spent about 0.25 ms of CPU a request (more than
 * the server it measured), and its 2,000 requests were built one after the
 * other before the first left, so the figure was mostly the generator's own.
 * Every request's time runs from the burst's start (all 2,000 asked at once)
 * to the end of its body: the connections' opening and the wait for a free
 * one count (before, a request's clock started when node:http had built it).
 * An answer is framed by Content-Length or chunked; one without either, or
 * a connection that fails, counts as failed.
 */
import * as net from "node:net";

interface Job {
  url: string;
  requests: [string, string][];
  sockets: number;
}

interface Outcome {
  ms: number;
  ok: boolean;
}

const HEAD_END = Buffer.from("\r\n\r\n");

interface Head {
  status: number;
  /** The body's length, or null when it comes chunked. */
  length: number | null;
  hit: boolean;
}

/** Status, framing and X-Cache of a response head (the bytes before its blank line); null: neither framing. */
function parseHead(head: string): Head | null {
  const lines = head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1] ?? 0);
  let length: number | null = null;
  let chunked = false;
  let hit = false;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (name === "content-length") length = Number(value);
    else if (name === "transfer-encoding") chunked = value === "chunked";
    else if (name === "x-cache") hit = value === "hit";
  }
  return length !== null || chunked ? { status, length, hit } : null;
}

/** Where a chunked body that starts at `at` ends in `buf` (after its last chunk), or -1 while it is incomplete. */
function chunkedEnd(buf: Buffer, at: number): number {
  for (;;) {
    const eol = buf.indexOf("\r\n", at, "latin1");
    if (eol < 0) return -1;
    const size = parseInt(buf.toString("latin1", at, eol), 16);
    // The last chunk (size 0) and the blank line after it: no trailers from the team server.
    const next = eol + 2 + (size > 0 ? size + 2 : 2);
    if (buf.length < next) return -1;
    if (size === 0) return next;
    at = next;
  }
}

/**
 * One keep-alive connection: sends the next waiting request after each answer until none is left.
 * `next()` gives a request's index (or -1); `done(i, ok)` records its end.
 */
function connection(
  url: URL,
  wire: Buffer[],
  next: () => number,
  done: (i: number, ok: boolean) => void,
): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    socket.setNoDelay(true);
    let current = -1;
    let buf: Buffer = Buffer.alloc(0);
    let head: (Head & { bodyAt: number }) | null = null;
    const send = () => {
      current = next();
      if (current < 0) return void socket.end();
      socket.write(wire[current]!);
    };
    socket.on("connect", send);
    socket.on("data", (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      if (!head) {
        const end = buf.indexOf(HEAD_END);
        if (end < 0) return;
        const parsed = parseHead(buf.toString("latin1", 0, end));
        if (!parsed) return void socket.destroy(new Error("answer without framing"));
        head = { ...parsed, bodyAt: end + HEAD_END.length };
      }
      const end = head.length !== null ? head.bodyAt + head.length : chunkedEnd(buf, head.bodyAt);
      if (end < 0 || buf.length < end) return;
      done(current, head.status === 200 && head.hit);
      buf = buf.subarray(end);
      head = null;
      send();
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      // A request cut off with its connection failed; the ones not sent yet go to the other connections.
      if (current >= 0) done(current, false);
      current = -1;
      resolve();
    });
  });
}

function run(job: Job): Promise<{ outcomes: Outcome[]; cpuMs: number }> {
  const url = new URL(job.url);
  const host = `${url.hostname}:${url.port}`;
  const wire = job.requests.map(([path, token]) =>
    Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\n\r\n`, "latin1"),
  );
  const outcomes: Outcome[] = new Array<Outcome>(wire.length);
  let taken = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const next = () => (taken < wire.length ? taken++ : -1);
  const done = (i: number, ok: boolean) => {
    if (!outcomes[i]) outcomes[i] = { ms: performance.now() - t0, ok };
  };
  const connections = Array.from({ length: Math.min(job.sockets, wire.length) }, () =>
    connection(url, wire, next, done),
  );
  return Promise.all(connections).then(() => {
    const cpu = process.cpuUsage(cpu0);
    // A request no connection was left to send (every one failed) is a failure at the end of the burst.
    const end = performance.now() - t0;
    for (let i = 0; i < wire.length; i++) outcomes[i] ??= { ms: end, ok: false };
    return { outcomes, cpuMs: (cpu.user + cpu.system) / 1000 };
  });
}

process.on("message", (job: Job) => {
  void run(job).then(({ outcomes, cpuMs }) => {
    process.send!({ ms: outcomes.map((o) => o.ms), failed: outcomes.filter((o) => !o.ok).length, cpuMs });
  });
});
process.send!({ ready: true });
