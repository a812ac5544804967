/**
 * The cause of a failed fetch from a page (shared/web/local-network.ts):
 * which hosts are loopback, local or public, when Local Network Access
 * applies, and the verdict from the permission's state and the no-cors
 * probe; and the message for each (network-messages.ts).
 */
import { describe, expect, it } from "vitest";
import {
  addressSpaceOf,
  diagnoseFailure,
  lnaApplies,
  lnaPermission,
  networkFailureMessage,
} from "../../shared/web/index.ts";

const answers = async () => ({});
const fails = async (): Promise<unknown> => {
  throw new TypeError("Failed to fetch");
};

describe("Local Network Access diagnosis", () => {
  it("classifies hosts by address space without resolving names", () => {
    for (const h of ["127.0.0.1", "127.8.9.1", "localhost", "app.localhost", "[::1]"])
      expect(addressSpaceOf(h), h).toBe("loopback");
    for (const h of [
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.1",
      "192.168.1.10",
      "169.254.1.1",
      "nas.local",
      "[fd00::1]",
      "[fe80::1]",
    ])
      expect(addressSpaceOf(h), h).toBe("local");
    for (const h of ["8.8.8.8", "172.32.0.1", "[2001:db8::1]"]) expect(addressSpaceOf(h), h).toBe("public");
    expect(addressSpaceOf("team.example.com")).toBe("unknown");
    expect(addressSpaceOf("[::ffff:192.168.0.1]")).toBe("local");
  });

  it("applies from a less private page to a more private target only", () => {
    expect(lnaApplies("unknown", "loopback")).toBe("yes"); // the add-in on its public name → this computer
    expect(lnaApplies("public", "local")).toBe("yes");
    expect(lnaApplies("local", "loopback")).toBe("yes");
    expect(lnaApplies("loopback", "loopback")).toBe("no"); // the playground, the dev server
    expect(lnaApplies("local", "local")).toBe("no");
    expect(lnaApplies("public", "public")).toBe("no");
    expect(lnaApplies("public", "unknown")).toBe("maybe");
    expect(lnaApplies("loopback", "unknown")).toBe("no");
  });

  it("reads the permission under Chrome 145's names and the old alias; a browser without LNA is 'unsupported'", async () => {
    const states: Record<string, PermissionState> = { "loopback-network": "prompt", "local-network-access": "denied" };
    const query = async (n: string) => {
      const s = states[n];
      if (!s) throw new TypeError(`unknown permission ${n}`);
      return s;
    };
    expect(await lnaPermission("loopback", query)).toBe("denied");
    expect(await lnaPermission("loopback", async () => "granted")).toBe("granted");
    expect(await lnaPermission("local", fails as () => Promise<PermissionState>)).toBe("unsupported");
  });

  it("decides: an answer to the probe is CORS; a denied permission LNA; not granted where it applies likely LNA; else down", async () => {
    const q = (s: PermissionState) => async () => s;
    const d = (
      url: string,
      pageHost: string,
      query: () => Promise<PermissionState>,
      fetchFn: () => Promise<unknown> = fails,
    ) => diagnoseFailure(url, { pageHost, query, fetchFn, timeoutMs: 100 }).then((x) => x.cause);
    expect(await d("http://127.0.0.1:8788/v2/account", "addin.example.com", q("denied"))).toBe("lna-denied");
    expect(await d("http://127.0.0.1:8788/v2/account", "addin.example.com", q("prompt"))).toBe("lna-not-granted");
    expect(await d("http://127.0.0.1:8788/v2/account", "addin.example.com", q("granted"))).toBe("down");
    expect(await d("http://127.0.0.1:8788/v2/account", "addin.example.com", q("granted"), answers)).toBe("cors");
    // From a page on this computer LNA never applies: the permission is not even read.
    expect(await d("http://127.0.0.1:8788/v2/account", "127.0.0.1", q("denied"))).toBe("down");
    // A name: maybe private; only a denied permission says LNA.
    expect(await d("https://team.corp.example/v2/account", "addin.example.com", q("prompt"))).toBe("down");
    expect(await d("https://team.corp.example/v2/account", "addin.example.com", q("denied"))).toBe("lna-denied");
    // No LNA in this browser (Safari, WKWebView, WebView2 by default): never blamed.
    expect(await d("http://127.0.0.1:8788/v2/account", "addin.example.com", fails as never)).toBe("down");
  });

  it("says what to do for each cause, in German and English", () => {
    const c = { url: "http://127.0.0.1:8788", origin: "https://addin.example.com", from: "excel" as const };
    const lna = networkFailureMessage(
      { cause: "lna-denied", target: "loopback", permission: "denied" },
      { ...c, mode: "server" },
    )!;
    expect(lna.de).toMatch(/blockiert.*auf diesem Rechner.*Local Network Access.*öffentlichen https-Namen/);
    expect(lna.en).toMatch(/blocked.*on this computer.*Local Network Access.*public https name/);
    const cors = networkFailureMessage(
      { cause: "cors", target: "loopback", permission: "granted" },
      { ...c, mode: "server" },
    )!;
    expect(cors.en).toContain("--allow-origin https://addin.example.com");
    const down = networkFailureMessage(
      { cause: "down", target: "loopback", permission: "granted" },
      { ...c, mode: "server" },
    )!;
    expect(down.de).toContain("Keine Verbindung zum Team-Server unter http://127.0.0.1:8788");
    expect(
      networkFailureMessage({ cause: "down", target: "public", permission: "unsupported" }, { ...c, mode: "direct" }),
    ).toBeNull();
    expect(
      networkFailureMessage({ cause: "cors", target: "public", permission: "unsupported" }, { ...c, mode: "direct" })!
        .de,
    ).toContain("aus Excel");
  });
});
