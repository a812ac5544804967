/**
 * Test harness for monitoring: the in-process emulator behind a sync driver,
 * an in-memory spreadsheet that answers the sheet protocol, memory stores,
 * and one clock that follows the emulator's day (20:00 UTC of "today").
 */
import { createEmulator, type Emulator } from "../../emulator/index.ts";
import { memoryStores, type SyncDriver } from "../../shared/core/drivers.ts";
import type { HttpRequest, HttpResponse } from "../../shared/core/http.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import type { Cell, SheetRequest } from "../../shared/core/sheet-protocol.ts";
import type { Language } from "../../shared/i18n/language.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import { nth } from "../helpers/indexed.ts";

/** A spreadsheet in memory: values, colours, dropdowns per sheet. */
export class MemorySheets {
  values = new Map<string, Cell[][]>();
  colours = new Map<string, string[][]>();
  dropdowns = new Map<string, string[][]>();
  writes = 0;

  set(name: string, rows: Cell[][]): void {
    this.values.set(
      name,
      rows.map((r) => [...r]),
    );
  }
  get(name: string): Cell[][] {
    return this.values.get(name) ?? [];
  }
  private put<T>(grid: T[][], row: number, col: number, block: T[][], blank: T): void {
    block.forEach((cells, i) => {
      const r = row - 1 + i;
      while (grid.length <= r) grid.push([]);
      cells.forEach((v, j) => {
        const c = col - 1 + j;
        const line = nth(grid, r);
        while (line.length < c) line.push(blank);
        line[c] = v;
      });
    });
  }
  handle(req: SheetRequest): unknown {
    switch (req.op) {
      case "readAll": {
        const v = this.values.get(req.sheet);
        if (!v) return null;
        const width = Math.max(0, ...v.map((r) => r.length));
        return v.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
      }
      case "read": {
        const v = this.values.get(req.sheet) ?? [];
        return Array.from({ length: req.rows }, (_, i) =>
          Array.from({ length: req.cols }, (_, j) => v[req.row - 1 + i]?.[req.col - 1 + j] ?? ""),
        );
      }
      case "write":
        this.writes++;
        if (!this.values.has(req.sheet)) throw new Error(`no sheet ${req.sheet}`);
        this.put(this.values.get(req.sheet)!, req.row, req.col, req.values, "");
        return undefined;
      case "colour":
        if (!this.colours.has(req.sheet)) this.colours.set(req.sheet, []);
        this.put(this.colours.get(req.sheet)!, req.row, req.col, req.colours, "");
        return undefined;
      case "dropdowns":
        if (!this.dropdowns.has(req.sheet)) this.dropdowns.set(req.sheet, []);
        this.put(
          this.dropdowns.get(req.sheet)! as unknown as string[][][],
          req.row,
          req.col,
          req.options.map((o) => [o]),
          [],
        );
        return undefined;
      case "ensureSheet":
        if (!this.values.has(req.sheet)) this.values.set(req.sheet, req.headers ? [[...req.headers]] : []);
        return undefined;
      case "append": {
        const v = this.values.get(req.sheet);
        if (!v) throw new Error(`no sheet ${req.sheet}`);
        let last = v.length;
        while (last > 0 && nth(v, last - 1).every((c) => c === "" || c === null)) last--;
        v.length = last;
        for (const r of req.rows) v.push([...r]);
        return undefined;
      }
      case "selection":
        throw new Error("no selection in tests");
    }
  }
}

export interface Harness {
  emu: Emulator;
  key: string;
  sheets: MemorySheets;
  stores: ReturnType<typeof memoryStores>;
  driver: SyncDriver;
  ctx: OpContext;
  /** Credits the emulator charged this key so far. */
  charged(): number;
  now(): number;
  /** Advance the emulator (and the client clock) by whole days. */
  advance(days: number): void;
  requests: HttpRequest[];
  /** Throw from the sheet host on the n-th call of an op (simulates a crash). */
  crashOn(op: SheetRequest["op"], nth: number): void;
  /** Die at the first store write after the next append: lines logged, watermarks not saved. */
  crashAfterAppend(): void;
  /** Let every request take this many ms of the client's clock (to reach deadlines). */
  slowDown(msPerRequest: number): void;
}

export function harness(
  opts: { companies?: number; credits?: number; language?: Language; startDate?: string } = {},
): Harness {
  let msPerRequest = 0;
  let ms = 0; // extra ms within the day, moved by sleeps (retry backoff)
  const startDate = opts.startDate ?? "2026-03-02";
  const clockNow = () => Date.parse(`${emu.clock.today()}T20:00:00Z`) + ms;
  const emu = createEmulator({ companies: opts.companies ?? 2000, seed: 7, startDate, now: () => clockNow() });
  const credits = opts.credits ?? 100_000;
  const key = emu.createKey(credits);
  const sheets = new MemorySheets();
  const stores = memoryStores(() => clockNow());
  const requests: HttpRequest[] = [];
  let crash: { op: string; nth: number } | null = null;
  let crashAfterAppend = false;
  let crashStore = false;
  const driver: SyncDriver = {
    http: (reqs) =>
      reqs.map((r): HttpResponse => {
        requests.push(r);
        ms += msPerRequest;
        const res = emu.handle(r);
        return { status: res.status, headers: res.headers, body: res.body };
      }),
    sleep: (d) => {
      ms += d;
    },
    cacheGet: stores.cacheGet,
    cachePut: stores.cachePut,
    storeGet: stores.storeGet,
    storePut: (entries) => {
      if (crashStore) {
        crashStore = false;
        throw new Error("host crashed");
      }
      stores.storePut(entries);
    },
    sheet: (req) => {
      if (crashAfterAppend && req.op === "append") {
        crashAfterAppend = false;
        crashStore = true;
      }
      if (crash && req.op === crash.op && --crash.nth === 0) {
        crash = null;
        throw new Error("host crashed");
      }
      return sheets.handle(req);
    },
  };
  const ctx: OpContext = {
    client: {
      apiKey: key,
      baseUrl: "http://emulator.test",
      language: opts.language ?? "en",
      now: clockNow,
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 3600,
    maxBatch: 100,
    scope: "test",
  };
  return {
    emu,
    key,
    sheets,
    stores,
    driver,
    ctx,
    requests,
    charged: () => credits - emu.balance(key),
    now: clockNow,
    advance: (days) => {
      emu.clock.advance(days);
      ms = 0;
    },
    crashOn: (op, nth) => {
      crash = { op, nth };
    },
    slowDown: (perRequest) => {
      msPerRequest = perRequest;
    },
    crashAfterAppend: () => {
      crashAfterAppend = true;
    },
  };
}
