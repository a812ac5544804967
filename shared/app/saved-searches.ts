/**
 * Saved searches, per document: a search (text, place, filters) kept under a
 * name, re-run later to show what is new since its last run. "New" is what
 * the service can answer exactly: companies founded (registered) after the
 * last run that match the filters, asked with the founded-after filter (the
 * service's company age bound), so a re-run pays one search page, not the
 * whole list again. The first run of a search lists everything it finds.
 *
 * Stored in the document's scope (the settings' base URL and document id, as
 * the enrichment runs are) as one small JSON value: at most MAX_SAVED
 * searches, so it stays far below Apps Script's 9 KB per property value.
 */
import type { Operation } from "../core/index.ts";
import { storeGet, storePut } from "../core/index.ts";
import { invalid } from "../core/index.ts";
import { readSaved, savedKind, writeSaved } from "../core/index.ts";
import * as z from "zod/mini";
import { MAX_SIZE } from "../api/index.ts";
import { search } from "../operations/index.ts";
import { contextFromSettings, loadSettings } from "./settings.ts";
import { withSession } from "./session.ts";
import { optNum, record, text } from "./input.ts";
import { companyRow } from "./rows.ts";
import { readCriteria } from "./search-methods.ts";
import type { AppDeps, SavedRunOutput, SavedSearch, SearchFilterInput, SearchInput } from "./protocol.ts";

export const MAX_SAVED = 20;

const savedSearch: z.ZodMiniType<SavedSearch> = z.object({
  name: z.string(),
  input: z.object({
    query: z.string(),
    place: z.optional(z.string()),
    radiusKm: z.optional(z.number()),
    size: z.optional(z.number()),
    // Kept as the panel typed them; readCriteria checks them again on every run.
    filters: z.optional(z.custom<SearchFilterInput>((f) => typeof f === "object" && f !== null && !Array.isArray(f))),
  }),
  lastRun: z.nullable(z.string()),
});
/** A search that does not fit is left out; the others stay. */
const searchList = z.pipe(
  z.array(z.unknown()),
  z.transform((xs) =>
    xs.flatMap((x) => {
      const r = savedSearch.safeParse(x);
      return r.success ? [r.data] : [];
    }),
  ),
);
/** `{v: 1, searches}`; before v1 the list alone, still read (the user's saved searches). */
export const SAVED_SEARCHES = savedKind(
  1,
  z.object({ searches: searchList }),
  z.pipe(
    searchList,
    z.transform((searches) => ({ searches })),
  ),
);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function* keyOf(deps: AppDeps): Operation<string> {
  const settings = yield* loadSettings();
  return `savedSearches|${contextFromSettings(settings, deps).scope}`;
}

function* load(deps: AppDeps): Operation<{ key: string; list: SavedSearch[] }> {
  const key = yield* keyOf(deps);
  const [raw] = yield* storeGet([key]);
  // A damaged value reads as no saved searches.
  const list = readSaved(SAVED_SEARCHES, raw)?.searches ?? [];
  return { key, list };
}

const save = (key: string, list: SavedSearch[]) => storePut({ [key]: writeSaved(SAVED_SEARCHES, { searches: list }) });

const nameOf = (o: Record<string, unknown>) => text(o, "name", { min: 1, max: 60 });

/** The search part of an input, as the panel sends it (checked the same way a search is). */
function searchInputOf(o: Record<string, unknown>, now: () => number): SearchInput {
  readCriteria(o, now); // throws INVALID_INPUT naming the field, nothing stored
  const f = o.filters && typeof o.filters === "object" ? (o.filters as SearchInput["filters"]) : undefined;
  return {
    query: String(o.query ?? "").trim(),
    ...(typeof o.place === "string" && o.place.trim() ? { place: o.place.trim() } : {}),
    ...(typeof o.radiusKm === "number" ? { radiusKm: o.radiusKm } : {}),
    ...(f ? { filters: f } : {}),
  };
}

export function* listSavedSearchesMethod(deps: AppDeps, _input: unknown): Operation<SavedSearch[]> {
  return (yield* load(deps)).list;
}

/** Save (or replace, by name) a search; its last run starts empty. */
export function* saveSearchMethod(deps: AppDeps, input: unknown): Operation<SavedSearch[]> {
  const o = record(input);
  const name = nameOf(o);
  const si = searchInputOf(o, () => deps.now());
  const { key, list } = yield* load(deps);
  const rest = list.filter((s) => s.name !== name);
  if (rest.length >= MAX_SAVED)
    throw invalid("name", {
      de: `höchstens ${MAX_SAVED} gespeicherte Suchen je Dokument`,
      en: `at most ${MAX_SAVED} saved searches per document`,
    });
  const next = [...rest, { name, input: si, lastRun: null }];
  yield* save(key, next);
  return next;
}

export function* deleteSavedSearchMethod(deps: AppDeps, input: unknown): Operation<SavedSearch[]> {
  const name = nameOf(record(input));
  const { key, list } = yield* load(deps);
  const next = list.filter((s) => s.name !== name);
  yield* save(key, next);
  return next;
}

/**
 * Run a saved search: the first time everything it finds (one page), later
 * only companies founded after its last run. 1 credit either way. The last
 * run moves to today only when the search succeeded.
 */
export function* runSavedSearchMethod(deps: AppDeps, input: unknown): Operation<SavedRunOutput> {
  const o = record(input);
  const name = nameOf(o);
  const size = optNum(o, "size", 1, MAX_SIZE, { integer: true }) ?? MAX_SIZE;
  const { list } = yield* load(deps);
  const saved = list.find((s) => s.name === name);
  if (!saved) throw invalid("name", { de: `keine gespeicherte Suche „${name}“`, en: `no saved search "${name}"` });
  const since = saved.lastRun;
  const filters = { ...(saved.input.filters ?? {}) };
  // Founded after the last run, or after the search's own bound if that is later.
  if (since && !(filters.foundedAfter && filters.foundedAfter.trim() > since)) filters.foundedAfter = since;
  const criteria = readCriteria({ ...saved.input, filters }, () => deps.now());
  return yield* withSession(deps, "search", function* (s) {
    const res = yield* search(s.ctx, { ...criteria, size });
    const today = day(deps.now());
    // Read again: another sidebar may have changed the list meanwhile; only this search's date moves.
    const now = yield* load(deps);
    yield* save(
      now.key,
      now.list.map((x) => (x.name === name ? { ...x, lastRun: today } : x)),
    );
    return {
      name,
      since,
      total: res.total ?? null,
      companies: res.companies.map(companyRow),
      credits: s.spent.credits,
    };
  });
}
