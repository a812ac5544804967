/**
 * Custom functions' network errors (issue 42, item 2): a formula whose fetch
 * fails says why in its cell, with the same diagnosis as Settings › Test
 * connection (shared/web/local-network.ts) and the short messages of
 * shared/web/network-messages.ts: the browser's Local Network Access blocked
 * a private address, the service answers but refuses the add-in's origin
 * (CORS), or nothing answers; German and English; one diagnosis for a burst
 * of failing cells. The runtime is excel-addin/functions/runtime.ts with the
 * Excel driver over a fetch that fails as a browser's does ("Failed to fetch").
 */
import { describe, expect, it } from "vitest";
import { functionsFor } from "../../shared/functions/index.ts";
import { createExcelDriver } from "../../excel-addin/host/driver.ts";
import { memoryStorage } from "../../excel-addin/host/storage.ts";
import { networkExplainer } from "../../excel-addin/functions/network.ts";
import { createCustomFunctions, type ExcelErrorKind } from "../../excel-addin/functions/runtime.ts";
import { CELL_MESSAGE_MAX, diagnoseFailure, networkCellMessage } from "../../shared/web/index.ts";
import type { Diagnosis } from "../../shared/web/index.ts";

const ORIGIN = "https://addin.example.com";

class CellError {
  constructor(
    readonly kind: ExcelErrorKind,
    readonly message: string,
  ) {}
}

/** A workbook's custom functions whose every fetch fails; the page's LNA permission and the probe's answer as given. */
function failingFunctions(opts: {
  settings: Record<string, string>;
  permission: PermissionState | "unsupported";
  answers: boolean;
  explain?: boolean;
}) {
  const storage = memoryStorage();
  storage.data.set("cd:user:formulaDailyBudget", "1000");
  for (const [k, v] of Object.entries(opts.settings)) storage.data.set(`cd:user:${k}`, v);
  const fetch = async () => {
    throw new TypeError("Failed to fetch");
  };
  // The driver's retries of a failed fetch without their waits (the test is about the message, not the backoff).
  const driver = {
    ...createExcelDriver({ fetch, storage, docId: async () => "wb-net", timeoutMs: 2_000 }),
    sleep: async () => undefined,
  };
  const diagnosed: string[] = [];
  const diagnose = (url: string): Promise<Diagnosis> => {
    diagnosed.push(url);
    return diagnoseFailure(url, {
      pageHost: new URL(ORIGIN).hostname,
      query: async () => {
        if (opts.permission === "unsupported") throw new TypeError("unknown permission name");
        return opts.permission;
      },
      fetchFn: async () => {
        if (!opts.answers) throw new TypeError("Failed to fetch");
      },
    });
  };
  const runtime = createCustomFunctions(functionsFor("excel"), {
    driver,
    documentId: async () => "wb-net",
    now: () => Date.now(),
    random: Math.random,
    schedule: (flush) => void setTimeout(flush, 5),
    error: (kind, message) => new CellError(kind, message),
    cardsSupported: () => false,
    cardLanguage: async () => "en",
    fallbackLanguage: () => "en",
    ...(opts.explain === false
      ? {}
      : {
          explainNetwork: networkExplainer({
            driver,
            pageHost: "addin.example.com",
            origin: ORIGIN,
            now: Date.now,
            diagnose,
          }),
        }),
  });
  return { resolve: runtime.functions.RESOLVE!, diagnosed };
}

const messageOf = async (p: Promise<unknown>): Promise<string> => {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CellError);
  expect((e as CellError).kind).toBe("notAvailable");
  return (e as CellError).message;
};

const TEAM = { connection: "server", serverUrl: "https://192.168.10.20:8443", serverToken: "tok_secret_123" };
const DIRECT = { apiKey: "cd_live_NETKEY_1", baseUrl: "https://api.example.com" };

describe("custom functions say why the service could not be reached", () => {
  it("a team server on the local network blocked by Local Network Access: said in the cell, once for a burst", async () => {
    const f = failingFunctions({ settings: { ...TEAM, language: "en" }, permission: "denied", answers: false });
    const cells = await Promise.all(["Alpha GmbH", "Beta AG", "Gamma KG"].map((n) => messageOf(f.resolve(n))));
    for (const m of cells) {
      expect(m).toMatch(
        /^Blocked by the browser \(Local Network Access\): https:\/\/192\.168\.10\.20:8443 is on the local network/,
      );
      expect(m).not.toContain("tok_secret_123");
    }
    expect(f.diagnosed).toEqual(["https://192.168.10.20:8443/v2/account"]);
    // Not granted yet (no prompt could be shown): the likely cause, in German.
    const g = failingFunctions({ settings: { ...TEAM, language: "de" }, permission: "prompt", answers: false });
    expect(await messageOf(g.resolve("Alpha GmbH"))).toMatch(
      /^Wohl vom Browser blockiert \(Local Network Access\).*im lokalen Netz/,
    );
  });

  it("CORS and a server that is down are told apart from LNA, for the API and for a team server", async () => {
    const cors = failingFunctions({
      settings: { ...DIRECT, language: "en" },
      permission: "unsupported",
      answers: true,
    });
    expect(await messageOf(cors.resolve("Alpha GmbH"))).toMatch(
      /^https:\/\/api\.example\.com answers but allows no calls from Excel \(CORS\)\. Fix: a team server/,
    );
    const serverCors = failingFunctions({
      settings: { ...TEAM, language: "de" },
      permission: "granted",
      answers: true,
    });
    expect(await messageOf(serverCors.resolve("Alpha GmbH"))).toMatch(
      /^Der Team-Server https:\/\/192\.168\.10\.20:8443 erlaubt dieses Add-in nicht \(CORS\).*--allow-origin https:\/\/addin\.example\.com/,
    );
    const down = failingFunctions({ settings: { ...TEAM, language: "en" }, permission: "granted", answers: false });
    expect(await messageOf(down.resolve("Alpha GmbH"))).toMatch(
      /^No connection to the team server .*nothing answers there/,
    );
    const directDown = failingFunctions({
      settings: { ...DIRECT, language: "de" },
      permission: "unsupported",
      answers: false,
    });
    expect(await messageOf(directDown.resolve("Alpha GmbH"))).toMatch(
      /^Keine Verbindung zu https:\/\/api\.example\.com: Dort antwortet nichts/,
    );
  });

  it("without a page to diagnose from, the generic message stays", async () => {
    const f = failingFunctions({
      settings: { ...DIRECT, language: "en" },
      permission: "denied",
      answers: false,
      explain: false,
    });
    expect(await messageOf(f.resolve("Alpha GmbH"))).toMatch(/Could not reach the data service/);
  });

  it("every message fits a cell, with an address of 80 characters, in both languages", () => {
    const url = `https://${"a".repeat(60)}.example.com:8443`.slice(0, 80);
    for (const cause of ["lna-denied", "lna-not-granted", "cors", "down"] as const)
      for (const target of ["public", "local", "loopback", "unknown"] as const)
        for (const mode of ["direct", "server"] as const) {
          const m = networkCellMessage(
            { cause, target, permission: "denied" },
            { url, origin: ORIGIN, mode, from: "excel" },
          );
          for (const text of [m.de, m.en]) {
            expect(text.length, `${cause} ${target} ${mode}: ${text}`).toBeLessThanOrEqual(CELL_MESSAGE_MAX);
            expect(text).toContain(url);
          }
        }
  });
});
