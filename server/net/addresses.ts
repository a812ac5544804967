/**
 * What an address the server is asked to call is (issue 36, item 2): an
 * address on the public internet, or one inside (this machine, a private
 * or link-local network, the cloud's metadata service, …). Parsing is
 * ipaddr.js's, which reads every spelling an attacker tries: decimal
 * (`2130706433`), octal (`0177.0.0.1`), hex (`0x7f.1`), short forms
 * (`127.1`, `10.1`), and IPv6 in full, compressed or with a dotted tail.
 *
 * Only plain unicast is public. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`, SIIT
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`) are judged by the IPv4 address
 * they carry; tunnel forms (6to4, Teredo) and every other special-purpose
 * range (documentation, benchmarking, reserved, …) are refused outright:
 * no team's webhook lives there.
 */
import ipaddr from "ipaddr.js";
import type { Bilingual } from "../../shared/i18n/index.ts";

/** Why an address is not public (ipaddr.js's range names, plus names for host names). */
export type InwardKind =
  | "loopback"
  | "unspecified"
  | "private"
  | "uniqueLocal"
  | "linkLocal"
  | "carrierGradeNat"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "tunnel"
  | "localName";

export type AddressVerdict = { public: true } | { public: false; kind: InwardKind };

const PUBLIC: AddressVerdict = { public: true };

/** ipaddr.js range names → our kinds (anything not listed and not "unicast" is "reserved"). */
const KIND_OF_RANGE: Record<string, InwardKind> = {
  loopback: "loopback",
  unspecified: "unspecified",
  private: "private",
  uniqueLocal: "uniqueLocal",
  linkLocal: "linkLocal",
  carrierGradeNat: "carrierGradeNat",
  multicast: "multicast",
  broadcast: "broadcast",
  "6to4": "tunnel",
  teredo: "tunnel",
};

/** IPv6 ranges whose last 32 bits are an IPv4 address to judge instead. */
const CARRIES_IPV4 = new Set(["ipv4Mapped", "rfc6145", "rfc6052"]);

function verdictOfV4(a: ipaddr.IPv4): AddressVerdict {
  const range = a.range();
  return range === "unicast" ? PUBLIC : { public: false, kind: KIND_OF_RANGE[range] ?? "reserved" };
}

function embeddedV4(a: ipaddr.IPv6): ipaddr.IPv4 {
  const p = a.parts;
  return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
}

function verdictOfV6(a: ipaddr.IPv6): AddressVerdict {
  const range = a.range();
  if (CARRIES_IPV4.has(range)) return verdictOfV4(embeddedV4(a));
  // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291 but still routed by some stacks): ipaddr.js calls it unicast.
  if (range === "unicast" && a.parts.slice(0, 6).every((x) => x === 0)) return verdictOfV4(embeddedV4(a));
  return range === "unicast" ? PUBLIC : { public: false, kind: KIND_OF_RANGE[range] ?? "reserved" };
}

/** A host as written in a URL or a DNS answer, bare: no brackets, no trailing dot, lower case. */
export function bareHost(host: string): string {
  return host
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "")
    .toLowerCase();
}

/** The verdict on an IP address in any spelling; null when `text` is not an address (a host name). */
export function addressVerdict(text: string): AddressVerdict | null {
  const host = bareHost(text);
  // A zone index (fe80::1%eth0) names an interface of this machine: link-local whatever the address.
  if (host.includes("%")) return ipaddr.isValid(host.split("%")[0]!) ? { public: false, kind: "linkLocal" } : null;
  if (!ipaddr.isValid(host)) return null;
  const a = ipaddr.parse(host);
  return a.kind() === "ipv4" ? verdictOfV4(a as ipaddr.IPv4) : verdictOfV6(a as ipaddr.IPv6);
}

/**
 * Names that reach inside without any DNS answer: localhost (RFC 6761),
 * mDNS (.local), the private-use TLD .internal and home networks
 * (.home.arpa), and a name without a dot (resolved through the server's
 * own search domains: an intranet host).
 */
export function isLocalName(host: string): boolean {
  const h = bareHost(host);
  return (
    !h.includes(".") ||
    h === "localhost" ||
    /\.(localhost|local|internal|home\.arpa)$/.test(h) ||
    h.startsWith("localhost.")
  );
}

/** The verdict on a host of a URL, without DNS: an address by its range, a name by isLocalName (else public). */
export function hostVerdict(host: string): AddressVerdict {
  const v = addressVerdict(host);
  if (v) return v;
  return isLocalName(host) ? { public: false, kind: "localName" } : PUBLIC;
}

/** What each kind is, for the refusal's message. */
export const INWARD_LABEL: Record<InwardKind, Bilingual> = {
  loopback: { de: "dieser Rechner (Loopback)", en: "this machine (loopback)" },
  unspecified: { de: "unbestimmte Adresse (0.0.0.0, ::)", en: "the unspecified address (0.0.0.0, ::)" },
  private: { de: "privates Netz (RFC 1918)", en: "a private network (RFC 1918)" },
  uniqueLocal: { de: "privates Netz (fc00::/7)", en: "a private network (fc00::/7)" },
  linkLocal: {
    de: "link-lokales Netz (169.254.0.0/16, fe80::/10, z. B. Cloud-Metadaten)",
    en: "a link-local network (169.254.0.0/16, fe80::/10, e.g. cloud metadata)",
  },
  carrierGradeNat: {
    de: "gemeinsamer Adressraum der Provider (100.64.0.0/10)",
    en: "the providers' shared address space (100.64.0.0/10)",
  },
  multicast: { de: "Multicast", en: "multicast" },
  broadcast: { de: "Broadcast", en: "broadcast" },
  reserved: { de: "reservierter Adressbereich", en: "a reserved address range" },
  tunnel: { de: "Tunnel-Adresse (6to4, Teredo)", en: "a tunnel address (6to4, Teredo)" },
  localName: {
    de: "lokaler Name (localhost, .local, .internal, ohne Domain)",
    en: "a local name (localhost, .local, .internal, no domain)",
  },
};
