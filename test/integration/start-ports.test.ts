/**
 * `npm start` on ports that are taken (a second `npm start`): a clear message
 * naming the port and the variables that choose others, exit code 1, no stack.
 */
import { describe, expect, test } from "vitest";
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { portInUseMessage } from "../../scripts/port-in-use.ts";

const ROOT = join(__dirname, "../..");

function start(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

async function busyPort(): Promise<{ port: number; close: () => void }> {
  const server = http.createServer((_q, r) => r.end());
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

describe("npm start on busy ports", () => {
  test("the emulator's port taken: which port, and PORT / PLAYGROUND_PORT to choose others (English)", async () => {
    const busy = await busyPort();
    try {
      const r = await start({ PORT: String(busy.port), PLAYGROUND_PORT: "0", LANG: "en_GB.UTF-8", LC_ALL: "" });
      expect(r.code).toBe(1);
      expect(r.out).toContain(`Port ${busy.port} is in use`);
      expect(r.out).toContain("PORT=8790 PLAYGROUND_PORT=8791 npm start");
      expect(r.out).not.toMatch(/EADDRINUSE| {4}at /);
    } finally {
      busy.close();
    }
  });
  test("the playground's port taken (German)", async () => {
    const busy = await busyPort();
    try {
      const r = await start({ PORT: "0", PLAYGROUND_PORT: String(busy.port), LANG: "de_DE.UTF-8", LC_ALL: "" });
      expect(r.code).toBe(1);
      expect(r.out).toContain(`Port ${busy.port} ist belegt: der Playground`);
      expect(r.out).toContain("(PLAYGROUND_PORT ist der Port des Playgrounds; 0 = ein freier Port)");
      expect(r.out).not.toMatch(/EADDRINUSE| {4}at /);
    } finally {
      busy.close();
    }
  });
  test("C.UTF-8 (no language in the locale): English, like the rest of npm start; the German grammar", async () => {
    const busy = await busyPort();
    try {
      const r = await start({ PORT: String(busy.port), PLAYGROUND_PORT: "0", LANG: "C.UTF-8", LC_ALL: "" });
      expect(r.code).toBe(1);
      expect(r.out).toContain(`Port ${busy.port} is in use, so the emulator cannot start there`);
      expect(r.out).toContain("(PORT is the one for the emulator; 0 = any free port)");
    } finally {
      busy.close();
    }
    expect(portInUseMessage(8787, "api", "de")).toContain("(PORT ist der Port des Emulators; 0 = ein freier Port)");
    expect(portInUseMessage(8787, "api", "de")).not.toMatch(/für der/);
  });
});
