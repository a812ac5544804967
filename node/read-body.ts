/**
 * A request body as text, at most `max` bytes; null when it is larger. One
 * reader for every Node HTTP host (the team server's front door, the MCP
 * server over HTTP): a declared Content-Length over the limit is refused
 * before one byte is read; a longer stream is read only up to the limit and
 * then left unread (the answer closes the connection: close-unread.ts).
 */
import type { IncomingMessage } from "node:http";

export function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= max) return void chunks.push(c);
      req.off("data", onData);
      req.off("end", onEnd);
      req.pause();
      resolve(null);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString("utf8"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", reject);
  });
}
