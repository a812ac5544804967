/**
 * The driver's store with the workbook's state in the workbook
 * (./document-state.ts says what goes where and why), the move of a
 * workbook's state from this device into the file the first time a
 * workbook made before this change opens, and the lease that keeps two
 * copies of one workbook (two devices, two colleagues) from running the same
 * job at once.
 */
import type { KeyValueStorage } from "./storage.ts";
import type { WorkbookStore } from "./audit-sheet.ts";
import { belongsToFile, type DocumentState } from "./document-state.ts";

/** Reads: the file first, this device for what the file has not (yet); writes: each key where it belongs. */
export function withDocumentState<D extends WorkbookStore>(driver: D, state: DocumentState): D {
  return {
    ...driver,
    storeGet: async (keys: string[]) => {
      const fileKeys = keys.filter(belongsToFile);
      const inFile = new Map<string, string>();
      if (fileKeys.length)
        (await state.get(fileKeys)).forEach((v, i) => v !== undefined && inFile.set(fileKeys[i]!, v));
      const rest = keys.filter((k) => !inFile.has(k));
      const onDevice = rest.length ? await driver.storeGet(rest) : [];
      return keys.map((k) => inFile.get(k) ?? onDevice[rest.indexOf(k)] ?? null);
    },
    storePut: async (entries: Record<string, string | null>) => {
      const file: Record<string, string | null> = {};
      const device: Record<string, string | null> = {};
      for (const [k, v] of Object.entries(entries)) {
        if (!belongsToFile(k)) device[k] = v;
        else {
          file[k] = v;
          // A removal removes a copy this device may still hold (from before the move, or from a refused save).
          if (v === null) device[k] = null;
        }
      }
      if (Object.keys(file).length) Object.assign(device, (await state.put(file)).onDevice);
      if (Object.keys(device).length) await driver.storePut(device);
    },
  };
}

/** Keys moved per save: a workbook's whole state in one save could pass the file's cap where most of it fits. */
const MOVE_CHUNK = 50;

/**
 * A workbook made before its state lived in the file: move what this device
 * holds for it (`cd:doc:<id>:…`, the document's keys only) into the file,
 * then delete it here; a value the file already has (another device moved
 * or wrote it) wins. What the file cannot take stays here and is read from
 * here. Answers how many keys moved.
 */
export async function moveStateIntoFile(
  storage: KeyValueStorage,
  docId: string,
  state: DocumentState,
): Promise<number> {
  const prefix = `cd:doc:${docId}:`;
  const names = (await storage.getKeys()).filter((k) => k.startsWith(prefix));
  // The store key of a device name: `doc:` + what follows the prefix (un-namespaced keys share the setting's name).
  const pairs = names.map((n) => ({ n, key: `doc:${n.slice(prefix.length)}` })).filter((p) => belongsToFile(p.key));
  let moved = 0;
  for (let i = 0; i < pairs.length; i += MOVE_CHUNK) {
    const chunk = pairs.slice(i, i + MOVE_CHUNK);
    const values = await storage.getItems(chunk.map((p) => p.n));
    const inFile = await state.get(chunk.map((p) => p.key));
    const entries: Record<string, string> = {};
    chunk.forEach((p, j) => {
      const v = values[p.n];
      if (typeof v === "string" && inFile[j] === undefined) entries[p.key] = v;
    });
    const saved = Object.keys(entries).length ? (await state.put(entries)).saved : [];
    const gone = new Set(saved);
    // Deleted here only once the file holds it (saved now, or already there).
    const done = chunk.filter((p, j) => gone.has(p.key) || inFile[j] !== undefined).map((p) => p.n);
    if (done.length) await storage.removeItems(done);
    moved += saved.length;
  }
  return moved;
}

/**
 * How long a lease holds without being renewed: its holder renews it while
 * it runs (every third of it), so a copy that closed mid-run frees it after
 * this at the latest; the same device, opened again, takes its own lease
 * back at once (the owner is the device's, and one device runs one copy of
 * a workbook: one shared runtime per document).
 */
export const LEASE_MS = 3 * 60_000;
/**
 * How long a taker waits between writing its lease and reading it back:
 * longer than a read-then-write of the lease takes (one refresh and one
 * save), so of two takers that both saw it free the later writer wins and
 * the earlier one sees that (Fischer's timed mutual exclusion over a
 * last-writer-wins store).
 */
export const SETTLE_MS = 3_000;

export interface Lease {
  owner: string;
  until: number;
}

const leaseKey = (job: string) => `doc:lease:${job}`;
const parseLease = (raw: string | null | undefined): Lease | null => {
  try {
    const v = raw ? (JSON.parse(raw) as Partial<Lease>) : null;
    return v && typeof v.owner === "string" && typeof v.until === "number" ? { owner: v.owner, until: v.until } : null;
  } catch {
    return null;
  }
};

export interface LeaseOptions {
  owner: string;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  settleMs?: number;
  leaseMs?: number;
}

/** Take the workbook's lease for `job`: null when taken, else the other holder's lease (who, until when). */
export async function takeLease(state: DocumentState, job: string, o: LeaseOptions): Promise<Lease | null> {
  const now = o.now ?? Date.now;
  const read = async () => {
    await state.refresh();
    return parseLease((await state.get([leaseKey(job)]))[0]);
  };
  const held = await read();
  if (held && held.owner !== o.owner && held.until > now()) return held;
  const mine: Lease = { owner: o.owner, until: now() + (o.leaseMs ?? LEASE_MS) };
  const { saved } = await state.put({ [leaseKey(job)]: JSON.stringify(mine) });
  // Not in the file (a refused save): no other copy can see it, so it is no lease; the job waits for the next look.
  if (!saved.length) return { owner: "", until: now() + (o.settleMs ?? SETTLE_MS) };
  await (o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))))(o.settleMs ?? SETTLE_MS);
  const after = await read();
  return after?.owner === o.owner ? null : (after ?? { owner: "", until: now() });
}

/** Move the lease's end on while its owner still holds it (false: it is no longer this owner's). */
export async function renewLease(state: DocumentState, job: string, o: LeaseOptions): Promise<boolean> {
  const now = o.now ?? Date.now;
  await state.refresh();
  const held = parseLease((await state.get([leaseKey(job)]))[0]);
  if (held?.owner !== o.owner) return false;
  const { saved } = await state.put({
    [leaseKey(job)]: JSON.stringify({ owner: o.owner, until: now() + (o.leaseMs ?? LEASE_MS) }),
  });
  return saved.length > 0;
}

/** Give the lease back (only if it is still this owner's). */
export async function giveBackLease(state: DocumentState, job: string, owner: string): Promise<void> {
  await state.refresh();
  const held = parseLease((await state.get([leaseKey(job)]))[0]);
  if (held?.owner === owner) await state.put({ [leaseKey(job)]: null });
}
