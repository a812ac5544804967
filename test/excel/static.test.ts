/** The dev server's file handler (served over plain HTTP here; excel:dev wraps it in HTTPS with the Office dev certificate). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { staticHandler } from "../../excel-addin/build/static.ts";

let server: Server;
let base = "";

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "excel-static-"));
  mkdirSync(join(dir, "site", "assets"), { recursive: true });
  writeFileSync(join(dir, "site", "taskpane.html"), "<p>pane</p>");
  writeFileSync(join(dir, "site", "functions.json"), "{}");
  writeFileSync(join(dir, "site", "assets", "icon-16.png"), Buffer.from([0x89, 0x50]));
  writeFileSync(join(dir, "secret.txt"), "outside");
  const handle = staticHandler(join(dir, "site"));
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("dev static server", () => {
  it("serves files with their types and no caching", async () => {
    const res = await fetch(`${base}/functions.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await fetch(`${base}/assets/icon-16.png`)).headers.get("content-type")).toBe("image/png");
    expect(await (await fetch(`${base}/`)).text()).toBe("<p>pane</p>");
  });

  it("sends Access-Control-Allow-Origin on every file and answers a preflight: Excel on the web reads functions.json from its own origin", async () => {
    const origin = "https://excel.officeapps.live.com";
    for (const f of ["/functions.json", "/taskpane.html", "/assets/icon-16.png", "/nope.js"]) {
      const res = await fetch(`${base}${f}`, { headers: { Origin: origin } });
      expect(res.headers.get("access-control-allow-origin"), f).toBe("*");
    }
    const pre = await fetch(`${base}/functions.json`, {
      method: "OPTIONS",
      headers: { Origin: origin, "Access-Control-Request-Method": "GET" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-methods")).toContain("GET");
  });

  it("never serves outside its directory, and answers 404/405", async () => {
    expect((await fetch(`${base}/..%2fsecret.txt`)).status).toBe(403);
    expect((await fetch(`${base}/nope.js`)).status).toBe(404);
    expect((await fetch(`${base}/taskpane.html`, { method: "POST" })).status).toBe(405);
  });
});

describe("emulator beside the dev server", () => {
  it("answers CORS for the task pane's origin https://localhost:3000", async () => {
    const { createEmulator } = await import("../../emulator/index.ts");
    const { startServer } = await import("../../emulator/server.ts");
    const api = await startServer(createEmulator({ companies: 200 }), { port: 0, host: "127.0.0.1" });
    try {
      const pre = await fetch(`${api.url}/v2/account`, {
        method: "OPTIONS",
        headers: {
          Origin: "https://localhost:3000",
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "authorization",
        },
      });
      expect(pre.status).toBeLessThan(300);
      expect(pre.headers.get("access-control-allow-origin")).toBe("https://localhost:3000");
      expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    } finally {
      await api.close();
    }
  });
});
