import { createEmulator, type Emulator, type EmulatorOptions } from "../../emulator/index.ts";

export const START = "2026-06-01";
export const SAP = "DEJK7QV0PK24";
export const SIEMENS = "DEPIYX8Y4M82";

/** Rate-limit buckets roomy enough that a test calling every endpoint is never throttled. */
export const ROOMY_RATE_LIMITS = {
  resolve: { capacity: 1000 },
  suggest: { capacity: 1000 },
  availability: { capacity: 1000 },
  account: { capacity: 1000 },
} satisfies EmulatorOptions["rateLimits"];

export function makeEmulator(opts: EmulatorOptions = {}): Emulator {
  return createEmulator({ companies: 4000, seed: 42, startDate: START, ...opts });
}

export interface Call {
  status: number;
  headers: Record<string, string>;
  json: any;
  raw: string;
  drop?: boolean;
  delayMs?: number;
}

export function caller(emu: Emulator, key: string = emu.demoKey, lang = "EN") {
  return (method: "GET" | "POST", url: string, body?: unknown, headers: Record<string, string> = {}): Call => {
    const h: Record<string, string> = { "Accept-Language": lang, ...headers };
    if (key) h.Authorization = `Bearer ${key}`;
    if (body !== undefined) h["Content-Type"] = "application/json";
    const r = emu.handle({
      method,
      url,
      headers: h,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    let json: any = undefined;
    try {
      json = r.body ? JSON.parse(r.body) : undefined;
    } catch {
      json = undefined;
    }
    return { status: r.status, headers: r.headers, json, raw: r.body, drop: r.drop, delayMs: r.delayMs };
  };
}
