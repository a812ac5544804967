/**
 * `company-data monitor --server`: the portfolio check runs on the team
 * server (COMPANY_DATA_SERVER, COMPANY_DATA_TOKEN) at the hour, whether or
 * not this command runs. This command registers the portfolio's ids with the
 * schedule and alert channels given here (a rerun replaces them), then
 * prints what the server's runs found since the last time it asked: the
 * companies in risk, the new register changes, the credits, failed alerts.
 * The cursor (the last run seen) is kept beside the input,
 * PORTFOLIO.csv.server.json, per server and schedule name. Arguments here;
 * requests and texts in the core (shared/monitor/server-schedule.ts).
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import * as z from "zod/mini";
import { runAsync, readSaved, savedKind, writeSaved } from "../shared/core/index.ts";
import type { Bilingual, Language } from "../shared/i18n/index.ts";
import type { OpContext } from "../shared/operations/index.ts";
import {
  portfolioIds,
  registerServerSchedule,
  serverRunsSince,
  serverRunsText,
  type ServerFrequency,
} from "../shared/monitor/index.ts";
import { nodeDriver, writePrivate } from "../node/index.ts";
import { ExitError, type Io } from "./io.ts";
import { EXIT, msg } from "./i18n.ts";
import { readTable } from "./monitor.ts";

export interface MonitorServerArgs {
  input: string;
  name: string;
  frequency: ServerFrequency;
  hour: number;
  weekday: number;
  budget: number | null;
  webhooks: string[];
  emails: string[];
  lang: Language;
}

const T = {
  needServer: {
    de: "--server braucht einen Team-Server: COMPANY_DATA_SERVER und COMPANY_DATA_TOKEN setzen.",
    en: "--server needs a team server: set COMPANY_DATA_SERVER and COMPANY_DATA_TOKEN.",
  },
  noIds: {
    de: (f: string) =>
      `${f} hat keine Zeile mit Firmen-ID. Der Server prüft IDs: zuerst „company-data monitor“ ohne --server (es trägt die IDs ein) und dessen Ergebnis verwenden.`,
    en: (f: string) =>
      `${f} has no row with a company id. The server checks ids: run "company-data monitor" without --server first (it fills them in) and use its result.`,
  },
  withoutId: {
    de: (n: number) => `${n} ${n === 1 ? "Zeile ohne Firmen-ID wird" : "Zeilen ohne Firmen-ID werden"} nicht geprüft.`,
    en: (n: number) => `${n} ${n === 1 ? "row without a company id is" : "rows without a company id are"} not checked.`,
  },
  registered: {
    de: (name: string, n: number, next: string) =>
      `Zeitplan „${name}“ auf dem Server: ${n} Firmen, nächster Lauf ${next} (UTC).`,
    en: (name: string, n: number, next: string) =>
      `Schedule "${name}" on the server: ${n} companies, next run ${next} (UTC).`,
  },
} satisfies Record<string, Bilingual | Record<Language, unknown>>;

interface Cursor {
  v: 1;
  /** Per "server URL + schedule name": the last run seen. */
  seen: Record<string, number>;
}
const CURSOR = savedKind<Cursor>(1, z.object({ v: z.literal(1), seen: z.record(z.string(), z.number()) }));

export const cursorFileOf = (input: string) => `${input}.server.json`;

function readCursor(path: string): Cursor {
  if (!existsSync(path)) return { v: 1, seen: {} };
  return readSaved(CURSOR, readFileSync(path, "utf8")) ?? { v: 1, seen: {} };
}

function writeCursor(path: string, c: Cursor): void {
  writePrivate(`${path}.tmp`, writeSaved(CURSOR, c));
  renameSync(`${path}.tmp`, path);
}

export async function monitorServerCommand(args: MonitorServerArgs, ctx: OpContext, io: Io): Promise<number> {
  const lang = args.lang;
  const cfg = ctx.client;
  if (cfg.credential !== "serverToken") throw new ExitError(EXIT.USAGE, T.needServer[lang]);
  const table = await readTable(args.input, lang);
  if (table.rows.length === 0) throw new ExitError(EXIT.INPUT, msg.emptyCsv[lang](args.input));
  const { ids, withoutId } = portfolioIds(table.rows, lang);
  if (ids.length === 0) throw new ExitError(EXIT.INPUT, T.noIds[lang](args.input));
  if (withoutId > 0) io.err(T.withoutId[lang](withoutId));
  const driver = nodeDriver({});
  const view = await runAsync(
    registerServerSchedule(cfg, args.name, {
      companies: ids,
      frequency: args.frequency,
      hour: args.hour,
      weekday: args.weekday,
      budget: args.budget,
      webhooks: args.webhooks,
      emails: args.emails,
      language: lang,
    }),
    driver,
  );
  io.err(T.registered[lang](view.name, view.companies.length, view.nextRun.slice(0, 16).replace("T", " ")));
  const path = cursorFileOf(args.input);
  const cursor = readCursor(path);
  const key = `${cfg.baseUrl} ${args.name}`;
  const found = await runAsync(serverRunsSince(cfg, args.name, cursor.seen[key] ?? 0), driver);
  for (const line of serverRunsText(found.runs, lang)) io.out(line);
  writeCursor(path, { v: 1, seen: { ...cursor.seen, [key]: found.cursor } });
  return EXIT.OK;
}
