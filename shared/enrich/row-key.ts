/**
 * Row identity: which input a row is, independent of where it stands.
 *
 * A user sorts, inserts, deletes and edits while a long job runs, and reruns
 * a file that changed since the last run. A result may only be written next
 * to the row it was computed for, so every write is guarded by the row's key:
 * the normal form of its input cells (the same normal forms matching uses,
 * so "Siemens AG" and "SIEMENS Aktiengesellschaft" in the same place count
 * as the same input, and a changed city counts as a changed row).
 *
 * This module is the one place that says what a row's key is and how rows
 * are paired by key; the sheet job, the portfolio check and the CLI all use it.
 */
import type { Cell } from "../core/index.ts";
import { normaliseCity, normaliseName, normaliseRegister, normaliseZip } from "../batch/index.ts";
import { INPUT_ROLES, type ColumnMapping } from "./columns.ts";

/** A cell as text (numbers as typed, dates as ISO day), never "undefined". */
function text(v: Cell | undefined): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "";
  if (typeof v === "boolean") return v ? "true" : "false";
  return String(v).trim();
}

/**
 * The normal form of one input cell for its role. A cell whose normal form is
 * empty though it holds text ("!!!", "GmbH") keeps its text: it is input (the
 * job answers it), so its row is not an empty row.
 */
function normalForRole(role: string, v: Cell | undefined): string {
  const t = text(v);
  const n = normalOf(role, t);
  return n || (t ? "~" + t.toLowerCase().replace(/\s+/g, " ") : "");
}

function normalOf(role: string, t: string): string {
  switch (role) {
    case "name":
      return normaliseName(t);
    case "city":
      return normaliseCity(t);
    // A postcode typed as a number lost its leading zero: digits only, padded.
    case "zip": {
      const d = normaliseZip(t);
      return d && d.length < 5 ? d.padStart(5, "0") : d;
    }
    case "register":
      return normaliseRegister(t);
    case "id":
      return t.toUpperCase();
    // Roles added later (website, VAT id, …): case and spacing do not count.
    default:
      return t.toLowerCase().replace(/\s+/g, " ");
  }
}

/**
 * The key of an input row: every mapped input role's normal form, in a fixed
 * order of roles, so the key does not depend on the column order. A row with
 * no input at all has the key "" (an empty row).
 */
export function rowKey(row: readonly Cell[], mapping: ColumnMapping): string {
  const roles = [
    ...INPUT_ROLES,
    ...Object.keys(mapping)
      .filter((r) => !(INPUT_ROLES as readonly string[]).includes(r))
      .sort(),
  ];
  const parts: string[] = [];
  let any = false;
  for (const role of roles) {
    const col = (mapping as Record<string, number | undefined>)[role];
    if (col === undefined) continue;
    const n = normalForRole(role, row[col]);
    if (n !== "") any = true;
    parts.push(role + "=" + n);
  }
  return any ? parts.join("\u001f") : "";
}

/**
 * Pair rows by key. For each current row, the index of the earlier row with
 * the same key, or null (a new or edited row). Rows with the same key are
 * paired in order of occurrence (the second "Siemens AG" with the second),
 * each earlier row at most once. Empty keys are never paired.
 */
export function pairByKey(earlier: readonly string[], current: readonly string[]): (number | null)[] {
  const queues = new Map<string, number[]>();
  earlier.forEach((k, i) => {
    if (k === "") return;
    const q = queues.get(k);
    if (q) q.push(i);
    else queues.set(k, [i]);
  });
  const cursor = new Map<string, number>();
  return current.map((k) => {
    if (k === "") return null;
    const q = queues.get(k);
    if (!q) return null;
    const at = cursor.get(k) ?? 0;
    if (at >= q.length) return null;
    cursor.set(k, at + 1);
    return q[at] ?? null;
  });
}

/**
 * Does a name in a row fit the name the service has for the row's id? Both
 * normalised; equal, or one's words all within the other's ("Siemens" in a
 * row, "Siemens Aktiengesellschaft" from the service). An id whose company
 * is called something else was typed, pasted or moved into the wrong row.
 */
export function namesAgree(rowName: string, serviceName: string): boolean {
  const a = normaliseName(rowName);
  const b = normaliseName(serviceName);
  if (!a || !b || a === b) return true;
  const wa = a.split(" ").filter(Boolean);
  const wb = new Set(b.split(" ").filter(Boolean));
  const wbList = [...wb];
  const wa2 = new Set(wa);
  return wa.every((w) => wb.has(w)) || wbList.every((w) => wa2.has(w));
}
