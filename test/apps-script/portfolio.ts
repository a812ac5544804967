/** A spreadsheet with a monitored portfolio, through the built Code.js (quota tests and the portfolio-size measurement). */
import { createEmulator } from "../../emulator/index.ts";
import { createSheetsFake } from "./harness.ts";

/** A spreadsheet with a portfolio of `n` companies and a key with plenty of credits. */
export function portfolioSheet(code: string, dist: string, n: number, opts: { language?: "de" | "en" } = {}) {
  const clock = { t: 0 };
  const emu = createEmulator({
    companies: n + 50,
    seed: 7,
    startDate: "2026-01-15",
    now: () => clock.t,
    rateLimits: { availability: { capacity: 100_000 } },
  });
  clock.t = Date.parse(`${emu.clock.today()}T05:00:00Z`);
  const ids = emu.companies.ids().slice(0, n);
  const f = createSheetsFake({
    emulator: emu,
    dist,
    now: () => clock.t,
    sheets: { Portfolio: [["ID"], ...ids.map((id) => [id])] },
    onSleep: (ms) => {
      clock.t += ms;
    },
  });
  f.load(code);
  f.setClock(() => clock.t);
  const key = emu.createKey(10_000_000);
  for (const [k, v] of Object.entries({
    apiKey: key,
    baseUrl: "https://api.implisense.com",
    language: opts.language ?? "en",
    cacheHours: "48",
  }))
    f.setUser(k, v);
  const ui = <T = unknown>(method: string, input: unknown) =>
    JSON.parse(f.call("uiCall", method, JSON.stringify(input)) as string) as {
      ok: boolean;
      value: T;
      error?: { code: string; message: { de: string; en: string } };
    };
  /** "Check now" until it is done (each call is one step under the sidebar's time limit). */
  const check = () => {
    for (let i = 0; i < 50; i++) {
      const r = ui<{ status: string; checked: number }>("monitorRun", { sheet: "Portfolio" });
      if (!r.ok || r.value.status !== "paused") return r;
      clock.t += 60_000;
    }
    throw new Error("the check never finished");
  };
  return { emu, f, clock, ids, ui, check };
}
