/**
 * What a workbook knows of its portfolio schedule on a team server: one
 * versioned record in its document store (`doc:mon:server`; Excel keeps it
 * in the file's settings, excel-addin/host/document-state.ts; Sheets in its
 * state sheet), so every copy of the workbook, on any device and by any user
 * with access, has it:
 *  - the schedule's name (random, made once per workbook, so two workbooks
 *    of one user never share a schedule; the server keeps names per user);
 *  - its share id (the server's stable id of the schedule, migration 140):
 *    the owner shares the schedule with the team read-only, and a colleague's
 *    copy reads its runs by this id (GET /shared-schedules/ID/runs), since
 *    the name alone finds only the colleague's own schedules. Not a secret:
 *    it opens nothing without a personal token of that server, and nothing
 *    at all once the owner stops sharing;
 *  - the cursor (the last run written; moved only after the sheet writes
 *    succeeded): one for the workbook, whoever syncs, so two users syncing
 *    one workbook write each change once.
 * No key and no token: those stay per user, in the device's settings.
 */
import * as z from "zod/mini";
import { readSaved, savedBilingual, savedKind, storeGet, storePut, writeSaved } from "../core/index.ts";
import type { Operation } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import type { AppDeps, ServerRunView } from "./protocol.ts";

export const SERVER_LINK_KEY = "doc:mon:server";

export interface AlertOutcome {
  ok: boolean;
  at: string;
  error?: Bilingual;
}

export interface ServerLink {
  /** The schedule's name on the server. */
  name: string;
  /** The team server's URL it was registered with ("" before the first registration). */
  server: string;
  registered: boolean;
  /** The last run written into the workbook (a run id of the server); 0 before the first. */
  cursor: number;
  /** The user's zone when the schedule was registered (minutes east of UTC), for a re-registration. */
  utcOffsetMinutes: number;
  mail: boolean;
  nextRun: string | null;
  lastRun: ServerRunView | null;
  syncedAt: string | null;
  /** The last delivery per channel ("webhook", "email") the server's runs reported. */
  alerts: Record<string, AlertOutcome>;
  /** The server's stable id of the schedule (absent in links before it, and before the first registration). */
  shareId?: string | null;
  /** The owner's choice: the team may read the schedule (absent: yes, a workbook's schedule is shared). */
  shared?: boolean;
}

const runView = z.object({
  id: z.number(),
  finishedAt: z.nullable(z.string()),
  status: z.string(),
  message: savedBilingual,
  credits: z.number(),
});
const SERVER_LINK = savedKind<ServerLink>(
  1,
  z.object({
    name: z.string().check(z.regex(/^[A-Za-z0-9._-]{1,64}$/)),
    server: z.string(),
    registered: z.boolean(),
    cursor: z.number(),
    utcOffsetMinutes: z.number(),
    mail: z.boolean(),
    nextRun: z.nullable(z.string()),
    lastRun: z.nullable(runView),
    syncedAt: z.nullable(z.string()),
    alerts: z.record(z.string(), z.object({ ok: z.boolean(), at: z.string(), error: z.optional(savedBilingual) })),
    // Optional: a link saved before sharing still reads (a link that did not fit would be made anew, losing it).
    shareId: z.optional(z.nullable(z.string().check(z.regex(/^[0-9a-f]{32}$/)))),
    shared: z.optional(z.boolean()),
  }),
);

/** Whether the owner shares the schedule with the team (the default for a workbook's schedule: yes). */
export const sharedChoice = (link: ServerLink): boolean => link.shared ?? true;

/** A schedule name of this workbook's own: 12 random base-36 characters after "wb-". */
function newName(random: () => number): string {
  let id = "";
  while (id.length < 12) id += Math.floor(random() * 36).toString(36);
  return `wb-${id}`;
}

export function* loadLink(deps: AppDeps): Operation<ServerLink> {
  const [raw] = yield* storeGet([SERVER_LINK_KEY]);
  const link = readSaved(SERVER_LINK, raw);
  if (link) return link;
  const fresh: ServerLink = {
    name: newName(deps.random),
    server: "",
    registered: false,
    cursor: 0,
    utcOffsetMinutes: 0,
    mail: false,
    nextRun: null,
    lastRun: null,
    syncedAt: null,
    alerts: {},
    shareId: null,
    shared: true,
  };
  // Saved at once: the name is the workbook's from its first use on.
  yield* saveLink(fresh);
  return fresh;
}

export function* saveLink(link: ServerLink): Operation<void> {
  yield* storePut({ [SERVER_LINK_KEY]: writeSaved(SERVER_LINK, link) });
}
