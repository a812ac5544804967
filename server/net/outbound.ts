/**
 * Every address a user gives the team server (a schedule's webhooks; any
 * future one goes through here too) is checked twice (issue 36, item 2):
 *
 *  - at registration (`registrationRefusal`), without DNS: an address
 *    literal by its range, a local name (localhost, .local, …) by its
 *    name; a refusal is a clear DE/EN message, never repeating the address;
 *  - at send time (`outboundFetch`), after DNS: the socket's own `lookup`
 *    resolves the name, refuses it when any of its addresses is inward, and
 *    hands the socket exactly the addresses it checked, so there is no
 *    second resolution a DNS rebinding could change between check and
 *    connect. An address literal needs no lookup and is checked before.
 *
 * An admin may allow named hosts (`--allow-webhook-host HOST`, an
 * on-premise relay): exactly those host names (or literals) pass both
 * checks, whatever they resolve to. Redirects are never followed
 * (node:http does not follow them; the sender reads a 3xx as a failure).
 */
import { lookup as dnsLookup } from "node:dns/promises";
import * as http from "node:http";
import * as https from "node:https";
import type { LookupFunction } from "node:net";
import { invalid, type CompanyDataError } from "../../shared/core/index.ts";
import type { Bilingual } from "../../shared/i18n/index.ts";
import type { FetchLike } from "../../shared/web/index.ts";
import { addressVerdict, bareHost, hostVerdict, INWARD_LABEL, type InwardKind } from "./addresses.ts";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Name → addresses (dns.lookup with all: true by default; a test passes a resolver it controls). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** Host names (bare, lower case) an admin allowed whatever they resolve to. */
  allowHosts: ReadonlySet<string>;
  resolve: Resolver;
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export function outboundPolicy(opts: { allowHosts?: readonly string[]; resolve?: Resolver } = {}): OutboundPolicy {
  return {
    allowHosts: new Set((opts.allowHosts ?? []).map(bareHost).filter(Boolean)),
    resolve: opts.resolve ?? systemResolver,
  };
}

/** The default: nothing allowed beyond the public internet, the system's resolver. */
export const STRICT_OUTBOUND: OutboundPolicy = outboundPolicy();

/** A send refused because the host is (or resolves to) an inward address; `kind` says which. */
export class OutboundRefused extends Error {
  readonly code = "EOUTBOUNDREFUSED";
  constructor(readonly kind: InwardKind) {
    super(`outbound address refused: ${kind}`);
    this.name = "OutboundRefused";
  }
}

/** The message of a refusal (never the address: a webhook address is a secret). */
export function refusalText(kind: InwardKind): Bilingual {
  const what = INWARD_LABEL[kind];
  return {
    de: `Die Adresse führt in ein internes Netz (${what.de}); der Team-Server sendet nur an öffentliche Adressen. Ein Administrator kann einen Host mit --allow-webhook-host zulassen.`,
    en: `The address leads into an internal network (${what.en}); the team server sends only to public addresses. An administrator can allow a host with --allow-webhook-host.`,
  };
}

const allowed = (policy: OutboundPolicy, host: string) => policy.allowHosts.has(bareHost(host));

/**
 * The registration check of a URL (already checked for its form): the
 * INVALID_INPUT error naming `field`, or null when it may be stored.
 */
export function registrationRefusal(policy: OutboundPolicy, url: string, field: string): CompanyDataError | null {
  let host: string;
  try {
    // The WHATWG parser is what the sender uses: it reads 0177.0.0.1, 2130706433 and 127.1 as 127.0.0.1.
    host = new URL(url).hostname;
  } catch {
    return invalid(field, { de: "keine gültige Adresse", en: "not a valid address" });
  }
  if (allowed(policy, host)) return null;
  const v = hostVerdict(host);
  return v.public ? null : invalid(field, refusalText(v.kind));
}

/** The addresses of `hostname` once every one is checked (all of them public, or the host allowed). */
export async function checkedAddresses(policy: OutboundPolicy, hostname: string): Promise<ResolvedAddress[]> {
  const literal = addressVerdict(hostname);
  if (literal && !literal.public && !allowed(policy, hostname)) throw new OutboundRefused(literal.kind);
  const found = await policy.resolve(bareHost(hostname));
  if (found.length === 0) throw Object.assign(new Error(`no address for the host`), { code: "ENOTFOUND" });
  if (!allowed(policy, hostname))
    for (const a of found) {
      // An answer that is no address at all is refused as well (a resolver must answer addresses).
      const v = addressVerdict(a.address) ?? { public: false as const, kind: "reserved" as const };
      if (!v.public) throw new OutboundRefused(v.kind);
    }
  return found;
}

/** The socket's lookup: resolve, check, and connect to exactly what was checked (no second resolution). */
export function checkedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    checkedAddresses(policy, hostname).then(
      (all) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? all.filter((a) => a.family === family) : all;
        if (usable.length === 0) {
          const e = Object.assign(new Error("no address of the family asked for"), { code: "ENOTFOUND" });
          return callback(e, "", 0);
        }
        if (options.all) return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (e: NodeJS.ErrnoException) => callback(e, "", 0),
    );
  };
}

/** Bytes of a receiver's answer kept: webhook answers are not read beyond their status. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * A fetch for user-given addresses, on node:http(s) with the checked
 * lookup: a literal inward address is refused before any socket, a name
 * when its resolution is. Never follows a redirect (the 3xx is the answer).
 */
export function outboundFetch(policy: OutboundPolicy): FetchLike {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const u = new URL(url);
      if (u.protocol !== "https:" && u.protocol !== "http:") return reject(new OutboundRefused("reserved"));
      const literal = addressVerdict(u.hostname);
      if (literal && !literal.public && !allowed(policy, u.hostname)) return reject(new OutboundRefused(literal.kind));
      const send = u.protocol === "https:" ? https.request : http.request;
      const req = send(
        u,
        {
          method: init.method,
          headers: init.headers,
          lookup: checkedLookup(policy),
          // A socket of its own: no pooled connection made for another host (or before a check) is reused.
          agent: false,
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (c: Buffer) => {
            if (size < MAX_ANSWER_BYTES) chunks.push(c);
            size += c.length;
            if (size >= MAX_ANSWER_BYTES) res.destroy();
          });
          const done = () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: {
                forEach(cb) {
                  for (const [k, v] of Object.entries(res.headers))
                    if (v !== undefined) cb(Array.isArray(v) ? v.join(", ") : v, k);
                },
              },
              text: async () => Buffer.concat(chunks).toString("utf8").slice(0, MAX_ANSWER_BYTES),
            });
          res.on("end", done);
          res.on("close", done);
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(init.body);
    });
}
