/**
 * Values in PropertiesService, which takes about 9 KB a value and 500 KB a
 * store: longer values are split into parts under `key#1`, `key#2`, … with
 * a marker in the main key. One getProperties() per read, one
 * setProperties() per write: the store is read and written as a block.
 */
import { utf8Length } from "../shared/operations/index.ts";

type Props = GoogleAppsScript.Properties.Properties;

/** Characters per part: 9 KB even when every character takes three bytes in UTF-8. */
export const PART_CHARS = 3000;
const MARK = "\u0001parts:";

export function readValues(props: Props, keys: string[], all?: Record<string, string>): (string | null)[] {
  const map = all ?? props.getProperties();
  return keys.map((k) => {
    const v = map[k];
    if (v === undefined || v === null) return null;
    if (!v.startsWith(MARK)) return v;
    const n = Number(v.slice(MARK.length));
    let out = "";
    for (let i = 1; i <= n; i++) {
      const part = map[`${k}#${i}`];
      if (part === undefined) return null; // a half-written value is a miss
      out += part;
    }
    return out;
  });
}

/** Write or delete (null) values; parts of an older, longer value are removed. */
export function writeValues(props: Props, entries: Record<string, string | null>, all?: Record<string, string>): void {
  const keys = Object.keys(entries);
  if (keys.length === 0) return;
  const before = all ?? props.getProperties();
  const set: Record<string, string> = {};
  const remove: string[] = [];
  for (const [k, v] of Object.entries(entries)) {
    const oldParts = before[k]?.startsWith(MARK) ? Number(before[k].slice(MARK.length)) : 0;
    let newParts = 0;
    if (v === null) remove.push(k);
    else if (v.length <= PART_CHARS && !v.startsWith(MARK)) set[k] = v;
    else {
      newParts = Math.ceil(v.length / PART_CHARS);
      set[k] = MARK + newParts;
      for (let i = 1; i <= newParts; i++) set[`${k}#${i}`] = v.slice((i - 1) * PART_CHARS, i * PART_CHARS);
    }
    for (let i = newParts + 1; i <= oldParts; i++) remove.push(`${k}#${i}`);
  }
  if (Object.keys(set).length) props.setProperties(set, false);
  for (const k of remove) props.deleteProperty(k);
}

/**
 * Bytes (keys and values, UTF-8) the store grows by when `entries` are
 * written as writeValues writes them (parts included); negative when it shrinks.
 */
export function storeGrowth(all: Record<string, string>, entries: Record<string, string | null>): number {
  const size = (k: string, v: string | undefined) => (v === undefined ? 0 : utf8Length(k) + utf8Length(v));
  let d = 0;
  for (const [k, v] of Object.entries(entries)) {
    const oldParts = all[k]?.startsWith(MARK) ? Number(all[k].slice(MARK.length)) : 0;
    d -= size(k, all[k]);
    for (let i = 1; i <= oldParts; i++) d -= size(`${k}#${i}`, all[`${k}#${i}`]);
    if (v === null) continue;
    if (v.length <= PART_CHARS && !v.startsWith(MARK)) d += size(k, v);
    else {
      const n = Math.ceil(v.length / PART_CHARS);
      d += size(k, MARK + n);
      for (let i = 1; i <= n; i++) d += size(`${k}#${i}`, v.slice((i - 1) * PART_CHARS, i * PART_CHARS));
    }
  }
  return d;
}
