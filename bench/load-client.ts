/**
 * The load generator of bench/server-load.ts, in a process of its own so
 * that the server's CPU is measured apart from the callers'. Started with
 * fork(); told { url, requests: [path, token][] , sockets } on IPC, it sends
 * them all at once over at most `sockets` keep-alive connections (as HTTP
 * clients pool them; more new connections at once than the server's listen
 * backlog would be refused by the kernel, not by the server) and answers
 * with each request's milliseconds and how many were not a 200 from the
 * team's answers.
 */
import * as http from "node:http";

interface Job {
  url: string;
  requests: [string, string][];
  sockets: number;
}

function one(agent: http.Agent, url: URL, path: string, token: string): Promise<{ ms: number; ok: boolean }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.get(
      { agent, host: url.hostname, port: url.port, path, headers: { Authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ ms: performance.now() - t, ok: res.statusCode === 200 && res.headers["x-cache"] === "hit" }),
        );
      },
    );
    req.on("error", () => resolve({ ms: performance.now() - t, ok: false }));
  });
}

process.on("message", (job: Job) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.sockets });
  const url = new URL(job.url);
  void Promise.all(job.requests.map(([path, token]) => one(agent, url, path, token))).then((all) => {
    agent.destroy();
    process.send!({ ms: all.map((a) => a.ms), failed: all.filter((a) => !a.ok).length });
  });
});
