/**
 * The CLI's side of the admin channel (channel.ts): is a server holding this
 * PGlite data directory, and if so, one request to its /admin/… API over the
 * directory's Unix socket. Light on purpose (node:http and the lock file
 * only): `token create` against a running server loads neither PGlite nor
 * the server, which keeps it within a second and well under 150 MB.
 */
import * as http from "node:http";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { hostname } from "node:os";
import { alive, lockOwner } from "../../node/index.ts";
import { LOCK_FILE } from "../db/data-lock.ts";

export const CHANNEL_FILE = "admin.sock";

/** The pid holding `dir` (its lock file names a live process other than this one), else null. */
export function dataDirHolder(dir: string): number | null {
  const owner = lockOwner(join(dir, LOCK_FILE));
  if (!owner || owner.host !== hostname()) return null;
  const { pid } = owner;
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

/** The socket of a server serving `dir`, when one does (a lock held by a live process and its socket present). */
export function channelOf(dir: string): string | null {
  if (dir.startsWith("memory://") || dataDirHolder(dir) === null) return null;
  const socket = join(dir, CHANNEL_FILE);
  return existsSync(socket) ? socket : null;
}

export interface ChannelAnswer {
  status: number;
  json: unknown;
}

/** One request on the channel; the answer's JSON. Rejects when the socket does not answer (ECONNREFUSED, ENOENT). */
export function channelRequest(
  socketPath: string,
  method: string,
  path: string,
  body?: unknown,
  lang = "en",
): Promise<ChannelAnswer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? "" : JSON.stringify(body);
    const req = http.request(
      {
        socketPath,
        method,
        path,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
          "accept-language": lang,
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(raw) as unknown });
          } catch {
            reject(new Error(`the admin channel answered ${res.statusCode} without JSON`));
          }
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("the admin channel did not answer within 30 s")));
    req.on("error", reject);
    req.end(text);
  });
}

/** GET a streamed answer (the backup) on the channel; `onData` gets each chunk, awaited (a file's pace). */
export function channelStream(
  socketPath: string,
  path: string,
  onData: (chunk: Buffer) => Promise<void> | void,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: "GET", path }, (res) => {
      res.on("data", (c: Buffer) => {
        const p = onData(c);
        if (p) {
          res.pause();
          void p.then(() => res.resume(), reject);
        }
      });
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
      res.on("aborted", () => reject(new Error("the server stopped sending the backup")));
    });
    req.on("error", reject);
    req.end();
  });
}
