/**
 * Why a request from a web page (the Excel task pane, the playground) to a
 * service failed, when fetch says only "TypeError: Failed to fetch": the
 * browser's Local Network Access (LNA) blocked it, the service answers but
 * does not allow this page's origin (CORS), or nothing answers (down, wrong
 * address). The page cannot read the reason (the Fetch standard hides it),
 * so it is worked out from what the page may ask afterwards:
 *
 * - LNA (Chrome and Edge from 142; developer.chrome.com/blog/local-network-access,
 *   chromestatus feature 5152728072060928): a request from a public page to
 *   a private address (10/8, 172.16/12, 192.168/16, link-local, fc00::/7,
 *   `.local`) or to loopback (127/8, ::1, localhost) needs the user's
 *   permission, asked for in a secure context only, and in a cross-origin
 *   iframe (Excel on the web) only when the parent delegates it by
 *   Permissions Policy (MDN "Permissions-Policy: local-network"). From
 *   Chrome 145 the permission is two, `local-network` and `loopback-network`,
 *   with `local-network-access` kept as an alias. `navigator.permissions.query`
 *   tells its state; after a refused request it is "denied", while the user
 *   has not answered (or no prompt could be shown) "prompt". A browser
 *   without LNA (Safari and WKWebView, WebView2 unless the app enables it)
 *   throws on the unknown name: LNA is then not the cause.
 * - CORS: a `no-cors` request (shared/web/cors-probe.ts) resolves whenever
 *   the service answers at all, and is subject to LNA like any other.
 *
 * Only the page's and the target's host names are read (literals are
 * classified; a name may resolve anywhere, so it is "unknown"); nothing is
 * sent but the one no-cors GET without credentials.
 */
import { probeCors, type NoCorsFetch } from "./cors-probe.ts";

/** Least private first: a request needs LNA's permission when it goes to a more private space than its page. */
export type AddressSpace = "public" | "local" | "loopback" | "unknown";

export type FailureCause =
  /** LNA refused it: the permission for the target's space is denied. */
  | "lna-denied"
  /** LNA applies (a more private target) and the permission was not granted: the likely cause. */
  | "lna-not-granted"
  /** The service answers but not to this origin. */
  | "cors"
  /** Nothing answered. */
  | "down";

export interface Diagnosis {
  cause: FailureCause;
  target: AddressSpace;
  /** The LNA permission's state for the target's space; "unsupported" where the browser has no LNA. */
  permission: PermissionState | "unsupported";
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4Space(a: number, b: number): AddressSpace {
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254))
    return "local";
  return a === 0 ? "local" : "public";
}

/** The address space a host name or literal belongs to, as far as it can be told without resolving it. */
export function addressSpaceOf(host: string): AddressSpace {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost") || h === "::1") return "loopback";
  const m = IPV4.exec(h);
  if (m) return ipv4Space(Number(m[1]), Number(m[2]));
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(h);
  if (mapped?.[1]) return addressSpaceOf(mapped[1]);
  if (h.includes(":")) return /^f[cd]|^fe[89ab]/.test(h) ? "local" : "public";
  if (h.endsWith(".local")) return "local";
  return "unknown";
}

const RANK: Record<Exclude<AddressSpace, "unknown">, number> = { public: 0, local: 1, loopback: 2 };

/** Whether LNA applies from `page` to `target`: "yes", "no", or "maybe" (a name, whose address the page cannot see). */
export function lnaApplies(page: AddressSpace, target: AddressSpace): "yes" | "no" | "maybe" {
  // The add-in's page is served under a name; its server is public (the way the add-in is deployed).
  const from = page === "unknown" ? "public" : page;
  if (target === "unknown") return from === "loopback" ? "no" : "maybe";
  return RANK[target] > RANK[from] ? "yes" : "no";
}

export type PermissionQuery = (name: string) => Promise<PermissionState>;

/** The permission names for a target's space, newest first (Chrome 145 split the one into two). */
function permissionNames(target: AddressSpace): string[] {
  if (target === "loopback") return ["loopback-network", "local-network-access"];
  if (target === "local") return ["local-network", "local-network-access"];
  return ["local-network", "loopback-network", "local-network-access"];
}

/** The LNA permission's state for `target`: "denied" if any name is denied, else the first known; "unsupported" if none is. */
export async function lnaPermission(target: AddressSpace, query: PermissionQuery): Promise<Diagnosis["permission"]> {
  const states: PermissionState[] = [];
  for (const name of permissionNames(target)) {
    try {
      states.push(await query(name));
    } catch {
      /* a name this browser does not know */
    }
  }
  if (!states.length) return "unsupported";
  return states.includes("denied") ? "denied" : (states[0] ?? "unsupported");
}

export interface DiagnoseDeps {
  /** The page's host (location.hostname). */
  pageHost: string;
  query?: PermissionQuery;
  fetchFn?: NoCorsFetch;
  timeoutMs?: number;
}

function browserQuery(): PermissionQuery | undefined {
  if (typeof navigator === "undefined" || !navigator.permissions?.query) return undefined;
  return async (name) => (await navigator.permissions.query({ name } as unknown as PermissionDescriptor)).state;
}

/** Why a fetch of `url` from this page failed with a network error (see the head of this file). */
export async function diagnoseFailure(url: string, deps: DiagnoseDeps): Promise<Diagnosis> {
  const target = addressSpaceOf(hostOf(url));
  const applies = lnaApplies(addressSpaceOf(deps.pageHost), target);
  const query = deps.query ?? browserQuery();
  const permission = applies !== "no" && query ? await lnaPermission(target, query) : "unsupported";
  // Something answered the probe: LNA, which blocks a no-cors request too, let it through.
  if ((await probeCors(url, deps.fetchFn, deps.timeoutMs)) === "cors") return { cause: "cors", target, permission };
  if (permission === "denied") return { cause: "lna-denied", target, permission };
  // Where LNA applies and the user has not granted it (or no prompt could be shown), that is the likely cause.
  if (applies === "yes" && permission === "prompt") return { cause: "lna-not-granted", target, permission };
  return { cause: "down", target, permission };
}

function hostOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(url);
  return m?.[1] ?? "";
}
