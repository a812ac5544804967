/**
 * Issue 28, item 1: a webhook never follows a redirect. The address checked
 * (https, http only to this machine) is the only one the digest may reach; a
 * 3xx is a failed delivery naming where it pointed, in every sender: Node's
 * fetch (CLI), a browser's fetch (Excel, playground: an opaque redirect),
 * UrlFetchApp (Apps Script).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { runAsync } from "../../shared/core/drivers.ts";
import { digestOf, DeliveryError } from "../../shared/monitor/alerts.ts";
import { postWebhook } from "../../shared/monitor/webhook.ts";
import { nodeDriver } from "../../node/driver.ts";
import { createExcelDriver } from "../../excel-addin/host/driver.ts";
import type { FetchLike } from "../../shared/web/fetch-http.ts";
import { fetchAll } from "../../apps-script/http.ts";

const digest = digestOf(
  [{ id: "DEJK7QV0PK24", name: "SAP SE", from: "watch", to: "risk", flag: null, changes: [] }],
  "en",
  Date.parse("2026-06-01T08:00:00Z"),
);

interface Server {
  url: string;
  hits: string[];
  close(): Promise<void>;
}
/** A local server that records every request and answers with `answer`. */
async function server(answer: (res: http.ServerResponse) => void): Promise<Server> {
  const hits: string[] = [];
  const s = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      hits.push(`${req.method} ${req.url} ${body.length}`);
      answer(res);
    });
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise((r) => s.close(() => r())),
  };
}

async function failure(p: Promise<unknown>): Promise<DeliveryError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DeliveryError) return e;
    throw e;
  }
  throw new Error("delivered");
}

let elsewhere: Server;
let hook: Server;
beforeAll(async () => {
  elsewhere = await server((res) => res.writeHead(200).end("ok"));
  hook = await server((res) => res.writeHead(307, { Location: `${elsewhere.url}/collect?token=secret` }).end());
});
afterAll(async () => {
  await hook.close();
  await elsewhere.close();
});

describe("a webhook that redirects", () => {
  it("Node's fetch (the CLI): a 307 is not followed; the failure names the target's origin, not its token", async () => {
    const e = await failure(runAsync(postWebhook(`${hook.url}/hook`)(digest), nodeDriver()));
    expect(hook.hits).toHaveLength(1);
    expect(elsewhere.hits).toHaveLength(0);
    expect(e.text.en).toBe(
      `The webhook redirected to ${elsewhere.url} (HTTP 307); the message was not sent there. Please enter the final address.`,
    );
    expect(e.text.de).toContain(`umgeleitet`);
    expect(e.text.en).not.toContain("secret");
  });

  it("a browser's fetch (Excel, playground): sent with redirect manual; an opaque redirect is a failed delivery", async () => {
    const inits: unknown[] = [];
    const browserFetch: FetchLike = async (_url, init) => {
      inits.push(init.redirect);
      // What a browser returns for redirect "manual": https://fetch.spec.whatwg.org/#concept-filtered-response-opaque-redirect
      return { status: 0, type: "opaqueredirect", headers: { forEach() {} }, text: async () => "" };
    };
    const driver = createExcelDriver({
      fetch: browserFetch,
      storage: { getItem: async () => null, setItem: async () => {}, removeItem: async () => {} } as never,
      docId: async () => "doc",
    });
    const e = await failure(runAsync(postWebhook("https://hooks.example.test/services/x")(digest), driver));
    expect(inits).toEqual(["manual"]);
    expect(e.text.en).toMatch(/redirected to another address \(the browser does not show where\)/);
  });

  it("Apps Script: UrlFetchApp is told not to follow redirects", () => {
    const seen: { followRedirects?: boolean }[] = [];
    const fetcher = {
      fetchAll: (params: { followRedirects?: boolean }[]) => {
        seen.push(...params);
        return params.map(() => ({
          getResponseCode: () => 302,
          getAllHeaders: () => ({ Location: "https://evil.example/" }),
          getContentText: () => "",
        }));
      },
    };
    const [res] = fetchAll(fetcher as never, [
      { method: "POST", url: "https://hooks.example.test/x", headers: {}, body: "{}", redirect: "manual" },
    ]);
    expect(seen[0]?.followRedirects).toBe(false);
    expect(res?.status).toBe(302);
  });
});
