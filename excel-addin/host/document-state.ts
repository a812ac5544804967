/**
 * The workbook's own state in the workbook (issue 42, item 1): the `doc:`
 * keys that describe the document (the team-server schedule's record and
 * sync cursor `doc:mon:server`, the portfolio check's watermarks, last run
 * and run marker, the schedule and refresh settings, saved searches, a job's
 * checkpoint and row ledger, the alerts' outbox) are kept in the workbook's
 * settings, so every copy of the file, on any device and for any user with
 * access, has them. What stays on this device, in OfficeRuntime.storage:
 *  - secrets: `user:` keys (API key, team-server token) and the alerts'
 *    webhook address (`doc:mon:alerts`: whoever holds the URL can post to
 *    the channel; the file travels further than its owner decides);
 *  - the formula budget and spend log (`doc:budget:`, `doc:ledger:`): custom
 *    functions write them, and functions must not write the document
 *    (Microsoft, "Call Excel APIs from a custom function": keep those calls
 *    read-only);
 *  - cached answers (`cd:cache:`), and the audit (`doc:audit:`, its own very
 *    hidden sheet: ./audit-sheet.ts).
 *
 * Where: Office.Settings (Office.context.document.settings), the store
 * Microsoft names for "add-in state and settings per document for content
 * and task pane add-ins" ("Persist add-in state and settings",
 * https://learn.microsoft.com/office/dev/add-ins/develop/persisting-add-in-state-and-settings).
 * Its rules, as documented, and what this module does about each:
 *  - set/get/remove work on an in-memory copy loaded when the add-in starts;
 *    only saveAsync "persists the in-memory copy of the settings property
 *    bag in the document" (Office.Settings.saveAsync): a write here is set +
 *    saveAsync, and a failed save is said (the entries then stay on the
 *    device, nothing is lost);
 *  - the whole bag is saved, so with two instances on one document the last
 *    save wins for every setting; "refreshAsync ... is useful in Excel,
 *    Word, and PowerPoint coauthoring scenarios when multiple instances of
 *    the same add-in are working against the same document. Because each
 *    add-in is working against an in-memory copy of the settings loaded from
 *    the document at the time the user opened it, the settings values used
 *    by each user can get out of sync" (Office.Settings.refreshAsync): every
 *    write refreshes first, then sets, then saves (one at a time per page),
 *    and reads refresh when the copy is older than REFRESH_MS (not on the
 *    settingsChanged event: "effectively ... supported only in Excel on the
 *    web in coauthoring scenarios", Office.Settings.addHandlerAsync);
 *  - size: the reference gives no figure today; Microsoft's answer in
 *    OfficeDev/office-js#621 ("We only support 2MB maximum for settings",
 *    citing the Office.Settings reference of then) and office-js#3957 (Excel
 *    2021 refusing settings of about 1 MB) are what is known. The file state
 *    is kept under FILE_STATE_CAP_CHARS (JSON characters of the whole bag); a
 *    write that would pass it stays on this device instead (the state is then
 *    per device, as before: a later check may pay again, the change log's
 *    keys still keep its lines single).
 * Custom XML parts were the other place that travels with the file; they
 * need one Excel.run per part and a part is rewritten whole on every change
 * (CustomXmlPart.setXml), where a setting is a name/value pair.
 */
import type { SettingsBag } from "./identity.ts";

/** Office.Settings as this module uses it: identity.ts's bag plus refreshAsync (coauthoring). */
export interface FileSettings extends SettingsBag {
  remove(name: string): void;
  refreshAsync?(callback?: (result: { status?: string }) => void): void;
  saveAsync(callback?: (result: { status?: string; error?: { message?: string } }) => void): void;
}

/** The settings' names of the workbook's state: this prefix and the key without its `doc:`. */
export const STATE_SETTING_PREFIX = "companyData.state.";
/** What the whole settings bag may take, in JSON characters: half of the 2 MB Microsoft named (see the top). */
export const FILE_STATE_CAP_CHARS = 1_000_000;
/** A read older than this refreshes the in-memory copy first (another instance may have saved). */
export const REFRESH_MS = 2_000;

/** A store key without the `doc:` namespace: the part both places name it by (OfficeRuntime.storage: `cd:doc:<id>:<suffix>`). */
export const suffixOf = (storeKey: string): string => (storeKey.startsWith("doc:") ? storeKey.slice(4) : storeKey);

/** Suffixes that stay on this device (see the top): secrets, what custom functions write, the audit's own sheet. */
const DEVICE_ONLY = [/^budget:/, /^ledger:/, /^audit:/, /^mon:alerts$/];

/** Whether a store key belongs to the workbook's file. */
export function belongsToFile(storeKey: string): boolean {
  if (storeKey.startsWith("user:")) return false;
  const suffix = suffixOf(storeKey);
  return !DEVICE_ONLY.some((re) => re.test(suffix));
}

export const settingName = (storeKey: string): string => STATE_SETTING_PREFIX + suffixOf(storeKey);

/** Why a save into the workbook failed (the entries went to the device instead). */
export interface FileWriteOutcome {
  saved: string[];
  /** Left on the device: too large for the file, or the save failed. */
  onDevice: Record<string, string | null>;
}

export interface DocumentState {
  /** The file's values (undefined: the file has no value for that key). */
  get(keys: string[]): Promise<(string | undefined)[]>;
  /** Set (null: remove) in the file and save it: refresh, set, check the size, save; one at a time per page. */
  put(entries: Record<string, string | null>): Promise<FileWriteOutcome>;
  /** Read the file's settings again (coauthoring), now. */
  refresh(): Promise<void>;
  /** Run `f` alone among this page's file writes (a lease's read-write-read). */
  exclusive<T>(f: () => Promise<T>): Promise<T>;
}

const call = (f: ((cb: (r: { status?: string }) => void) => void) | undefined): Promise<boolean> =>
  new Promise((resolve) => {
    if (!f) return resolve(false);
    try {
      f((r) => resolve(r?.status === undefined || r.status === "succeeded"));
    } catch {
      resolve(false);
    }
  });

/** Characters the bag's state settings take as JSON (what the cap counts). */
function stateChars(bag: FileSettings, names: Iterable<string>): number {
  let n = 0;
  for (const name of names) {
    const v = bag.get(name);
    if (typeof v === "string") n += name.length + JSON.stringify(v).length + 4;
  }
  return n;
}

/** The workbook's state over its settings bag. */
export function documentState(bag: FileSettings, now: () => number = Date.now): DocumentState {
  let refreshedAt = Number.NEGATIVE_INFINITY;
  let chain: Promise<unknown> = Promise.resolve();
  const known = new Set<string>(indexOf(bag));
  const exclusive = <T>(f: () => Promise<T>): Promise<T> => {
    const run = chain.catch(() => undefined).then(f);
    chain = run;
    return run;
  };
  const refresh = async () => {
    if (await call(bag.refreshAsync?.bind(bag))) for (const n of indexOf(bag)) known.add(n);
    refreshedAt = now();
  };
  const write = async (entries: Record<string, string | null>): Promise<FileWriteOutcome> => {
    await refresh();
    for (const [k, v] of Object.entries(entries)) {
      const name = settingName(k);
      if (v === null) bag.remove(name);
      else {
        bag.set(name, v);
        known.add(name);
      }
    }
    const fits = stateChars(bag, known) <= FILE_STATE_CAP_CHARS;
    if (!fits) for (const k of Object.keys(entries)) bag.remove(settingName(k));
    saveIndex(bag, known);
    const saved = await call((cb) => bag.saveAsync(cb));
    if (fits && saved) return { saved: Object.keys(entries), onDevice: {} };
    // Too large: the device keeps them (and the file no longer holds an older value). A failed save: this session
    // reads the in-memory copy, the next save carries it into the file, and the device keeps a copy meanwhile.
    return { saved: [], onDevice: entries };
  };
  return {
    async get(keys) {
      if (now() - refreshedAt > REFRESH_MS) await exclusive(refresh);
      return keys.map((k) => {
        const v = bag.get(settingName(k));
        return typeof v === "string" ? v : undefined;
      });
    },
    put: (entries) => exclusive(() => write(entries)),
    refresh: () => exclusive(refresh),
    exclusive,
  };
}

/**
 * Office.Settings has no way to list its names, so the state's names are
 * listed in one more setting (what the size cap and a refresh count).
 */
export const INDEX_SETTING = "companyData.stateIndex";
function indexOf(bag: FileSettings): string[] {
  const v = bag.get(INDEX_SETTING);
  return Array.isArray(v) ? v.filter((n): n is string => typeof n === "string") : [];
}
function saveIndex(bag: FileSettings, known: Set<string>): void {
  for (const n of [...known]) if (typeof bag.get(n) !== "string") known.delete(n);
  bag.set(INDEX_SETTING, [...known].sort());
}
