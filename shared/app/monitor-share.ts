/**
 * A workbook's team-server schedule and the colleagues who open the workbook
 * (issue 42, item 1). The server keeps schedules per user; the owner shares a
 * workbook's schedule with the team read-only (on when the workbook links it,
 * switchable in the Monitor panel: `monitorShare`), and the workbook's link
 * records its share id (./server-link.ts). Then:
 *  - a colleague's copy syncs the owner's runs by that id, with the
 *    colleague's own token, into the workbook, from the workbook's one cursor;
 *  - a colleague's copy changes nothing of it: switching the schedule, its
 *    alerts or its sharing is refused here, before anything goes to the
 *    server (the server refuses it too: the colleague's token finds no
 *    schedule of that name, shared-routes.ts); otherwise the colleague's
 *    "switch off" would drop the link from the file for everyone, and a
 *    "switch on" would register a second schedule that runs (and costs) twice.
 */
import type { ClientConfig } from "../api/index.ts";
import { invalid, type Operation } from "../core/index.ts";
import type { Bilingual } from "../i18n/index.ts";
import { shareServerSchedule, sharedServerSchedule, type SharedScheduleView } from "../monitor/index.ts";
import { record } from "./input.ts";
import type { AppDeps } from "./protocol.ts";
import { loadLink, saveLink, type ServerLink } from "./server-link.ts";
import { withSession } from "./session.ts";

const T = {
  foreign: {
    de: (owner: string) =>
      `Dieser Zeitplan gehört ${owner} und ist mit dem Team nur zum Lesen geteilt: Die Ergebnisse holen Sie hier, ändern, ein- oder ausschalten kann ihn nur ${owner}.`,
    en: (owner: string) =>
      `This schedule belongs to ${owner} and is shared with the team read-only: you fetch its results here; only ${owner} can change it or switch it on or off.`,
  },
  label: { de: "Zeitplan", en: "schedule" } satisfies Bilingual,
  shared: { de: "erwartet ja oder nein", en: "expected yes or no" } satisfies Bilingual,
};

/** The schedule as the server shows it to this user by the link's share id; null before one is known, or unshared. */
export function* sharedView(client: ClientConfig, link: ServerLink): Operation<SharedScheduleView | null> {
  if (!link.registered || !link.shareId) return null;
  return yield* sharedServerSchedule(client, link.shareId);
}

/** Refuses (INVALID_INPUT on "schedule", naming the owner) when the linked schedule is another user's. */
export function* refuseForeign(client: ClientConfig, link: ServerLink): Operation<void> {
  const view = yield* sharedView(client, link);
  if (view && !view.mine)
    throw invalid("schedule", { de: T.foreign.de(view.owner), en: T.foreign.en(view.owner) }, T.label);
}

/**
 * monitorShare {shared}: the owner shares the workbook's schedule with the team read-only, or stops. Before
 * the schedule is registered it is the choice its registration takes; after, the server is told at once.
 */
export function* monitorShareLink(deps: AppDeps, input: unknown): Operation<void> {
  const shared = record(input).shared;
  if (typeof shared !== "boolean") throw invalid("shared", T.shared);
  const link = yield* loadLink(deps);
  if (!link.registered) return yield* saveLink({ ...link, shared });
  const next = yield* withSession(deps, "monitor", function* ({ ctx }) {
    yield* refuseForeign(ctx.client, link);
    const view = yield* shareServerSchedule(ctx.client, link.name, shared);
    return { ...link, shared: view.shared ?? shared, shareId: view.shareId ?? link.shareId ?? null };
  });
  yield* saveLink(next);
}
