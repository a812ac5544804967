/** The app service against the in-process emulator and the playground's workbook model. */
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { asyncStores, memoryStores, runAsync, type AsyncDriver } from "../../shared/core/drivers.ts";
import type { HttpRequest } from "../../shared/core/http.ts";
import { settle } from "../../shared/app/dispatch.ts";
import type { AppDeps, AppMethodName, AppResult } from "../../shared/app/protocol.ts";
import { Workbook } from "../../shared/sheet/workbook.ts";
import type { Cell } from "../../shared/core/sheet-protocol.ts";
import { Pacer } from "../../shared/api/pacing.ts";

let shared: Emulator | undefined;
/** One emulator per test file: building the world is the slow part. */
export function emulator(): Emulator {
  shared ??= createEmulator({ companies: 3000, startDate: "2025-06-02" });
  return shared;
}

export function harness(
  sheets: { name: string; cells: Cell[][] }[] = [{ name: "Tabelle1", cells: [] }],
  opts: { key?: string; deadlineMs?: number; host?: AppDeps["host"]; msPerRequest?: number } = {},
) {
  const emu = emulator();
  emu.resetRateLimits();
  let clock = Date.UTC(2025, 5, 2, 9);
  const now = () => clock;
  const stores = memoryStores(now);
  const workbook = new Workbook(sheets);
  const sent: HttpRequest[] = [];
  const driver: AsyncDriver = {
    http: async (reqs) => {
      // A round trip takes time on the fake clock, so a deadline can fall between two chunks.
      clock += opts.msPerRequest ?? 0;
      return reqs.map((r) => {
        sent.push(r);
        const res = emu.handle(r);
        return { status: res.status, headers: res.headers, body: res.body };
      });
    },
    // Waiting moves the fake clock; the emulator's buckets run on real time, so waits are short in tests anyway.
    sleep: async (ms) => {
      clock += ms;
      await new Promise((r) => setTimeout(r, Math.min(ms, 600)));
    },
    ...asyncStores(stores),
    sheet: async (req) => workbook.handle(req),
  };
  const pacer = new Pacer();
  const deps = (): AppDeps => ({
    host: opts.host ?? "test",
    now,
    random: () => 0.5,
    deadline: opts.deadlineMs !== undefined ? clock + opts.deadlineMs : undefined,
    documentId: "doc1",
    pacer,
  });
  async function raw(method: string, input: unknown): Promise<AppResult> {
    // Any name and input on purpose: the tests also send unknown methods and bad input, as a wire would.
    return runAsync(settle(deps(), method as AppMethodName, input as never), driver);
  }
  async function call<T = any>(method: string, input: unknown = {}): Promise<T> {
    const r = await raw(method, input);
    if (!r.ok)
      throw Object.assign(new Error(`${method}: ${r.error.code} ${r.error.message.en}`), { appError: r.error });
    return r.value as T;
  }
  return {
    emu,
    workbook,
    stores,
    sent,
    driver,
    call,
    raw,
    advance: (ms: number) => (clock += ms),
    key: opts.key ?? emu.demoKey,
  };
}
