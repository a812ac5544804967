/**
 * The MCP HTTP server's sessions (./http.ts): at most `maxSessions` open; a
 * new one beyond that closes the least recently used one with no request in
 * flight (none idle: the caller answers 503); one unused for `idleMs` is
 * closed by the sweep. So memory is bounded by the cap however many clients
 * come and go without DELETE.
 */
import type { ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Server as McpProtocolServer } from "@modelcontextprotocol/sdk/server/index.js";

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpProtocolServer;
  principal: string;
  lastUsed: number;
  /** Requests (and event streams) in flight: a busy session is neither evicted nor expired. */
  busy: number;
}

export interface SessionTable {
  /** Open sessions by id. */
  readonly byId: Map<string, Session>;
  /** Close one session (its MCP server too). */
  close(id: string): Promise<void>;
  /** Room for one more session: evict the least recently used idle one; false when all are busy. */
  makeRoom(): Promise<boolean>;
  /** Close the sessions idle for longer than the limit; how many were closed. */
  sweep(): Promise<number>;
  /** Count a request against its session while it runs. */
  use(s: Session, res: ServerResponse): void;
}

export function sessionTable(maxSessions: number, idleMs: number, now: () => number): SessionTable {
  const byId = new Map<string, Session>();
  const close = async (id: string) => {
    const s = byId.get(id);
    if (!s) return;
    byId.delete(id);
    await s.server.close().catch(() => undefined);
  };
  return {
    byId,
    close,
    async makeRoom() {
      while (byId.size >= maxSessions) {
        let oldest: [string, Session] | undefined;
        for (const e of byId) if (e[1].busy === 0 && (!oldest || e[1].lastUsed < oldest[1].lastUsed)) oldest = e;
        if (!oldest) return false;
        await close(oldest[0]);
      }
      return true;
    },
    async sweep() {
      const limit = now() - idleMs;
      const idle = [...byId].filter(([, s]) => s.busy === 0 && s.lastUsed <= limit).map(([id]) => id);
      for (const id of idle) await close(id);
      return idle.length;
    },
    use(s, res) {
      s.busy++;
      s.lastUsed = now();
      res.once("close", () => {
        s.busy--;
        s.lastUsed = now();
      });
    },
  };
}
