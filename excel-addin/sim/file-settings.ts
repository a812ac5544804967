/**
 * A fake of Office.Settings over one workbook file shared by several
 * instances (devices, colleagues), for tests: what the documentation says,
 * and what it leaves open, modelled so the add-in is tested against it.
 *  - Each instance works on an in-memory copy loaded when it opens the file;
 *    set/get/remove touch only that copy ("Persist add-in state and
 *    settings": "The get, set, and remove methods operate only on the
 *    in-memory copy of the settings property bag").
 *  - saveAsync "persists the in-memory copy of the settings property bag in
 *    the document" (Office.Settings.saveAsync): the whole copy replaces the
 *    file's bag, so the last save wins for every setting, also for settings
 *    another instance saved in between.
 *  - refreshAsync "reads all settings persisted in the document and
 *    refreshes the ... add-in's copy of those settings held in memory"
 *    (Office.Settings.refreshAsync): the copy becomes the file's bag.
 *  - Size: a save of more than SETTINGS_LIMIT_CHARS (2 MB counted as JSON
 *    characters; Microsoft in OfficeDev/office-js#621: "We only support 2MB
 *    maximum for settings") fails and changes nothing; `failSaves` makes
 *    every save fail (the unhappy case: a read-only file, a lost connection).
 *  - Callbacks arrive asynchronously, as Office's do.
 */
import type { FileSettings } from "../host/document-state.ts";

export const SETTINGS_LIMIT_CHARS = 2 * 1024 * 1024;

/** One workbook file's settings, as saved. */
export interface SharedFile {
  bag: Map<string, unknown>;
  saves: number;
}

export const sharedFile = (bag: Map<string, unknown> = new Map()): SharedFile => ({ bag, saves: 0 });

export interface FakeSettings extends FileSettings {
  /** The instance's in-memory copy (tests look into it). */
  readonly memory: Map<string, unknown>;
  failSaves: boolean;
  /** Saves this instance made that reached the file. */
  saves: number;
}

const later = (f: () => void) => void setTimeout(f, 0);
const copy = (m: Map<string, unknown>) => new Map([...m].map(([k, v]) => [k, structuredClone(v)]));

/** An instance of the add-in with `file` open. */
export function fakeSettings(file: SharedFile): FakeSettings {
  let memory = copy(file.bag);
  const self: FakeSettings = {
    get memory() {
      return memory;
    },
    failSaves: false,
    saves: 0,
    get: (name) => (memory.has(name) ? structuredClone(memory.get(name)) : null),
    set: (name, value) => void memory.set(name, structuredClone(value)),
    remove: (name) => void memory.delete(name),
    saveAsync(callback) {
      const size = JSON.stringify(Object.fromEntries(memory)).length;
      later(() => {
        if (self.failSaves || size > SETTINGS_LIMIT_CHARS) {
          callback?.({ status: "failed", error: { message: "The settings could not be saved." } });
          return;
        }
        file.bag = copy(memory);
        file.saves++;
        self.saves++;
        callback?.({ status: "succeeded" });
      });
    },
    refreshAsync(callback) {
      later(() => {
        memory = copy(file.bag);
        callback?.({ status: "succeeded" });
      });
    },
  };
  return self;
}
