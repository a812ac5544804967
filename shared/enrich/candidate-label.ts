/**
 * The one label of a candidate company, "DE… – Name, City", and its inverse.
 * Every place that names a candidate for a person to pick uses it: the review
 * status and the ID dropdown of an enriched table, the portfolio's ID
 * dropdown, the ambiguous-name error of a formula. The id comes first so a
 * pick in a dropdown cell is an id at the start of the cell (rows.ts
 * idFromCell, monitor/layout.ts idFromCell).
 *
 * The inverse reads a label back only where the label is the record itself:
 * the review status of a row (see rows.ts reviewCandidates for why). It also
 * reads the portfolio's labels of the earlier version, "Name, City (DE…)", so
 * a sheet written then still reads.
 */
import { COMPANY_ID_AT_START, COMPANY_ID_PATTERN } from "../api/index.ts";

/** What a label shows of a candidate. */
export interface CandidateRef {
  id: string;
  name?: string | null;
  city?: string | null;
}

/** A candidate as its label names it ("" where the label shows no name or city). */
export interface LabelledCandidate {
  id: string;
  name: string;
  city: string;
}

const DASH = " – ";

export const candidateLabel = (c: CandidateRef): string =>
  [c.id, [c.name, c.city].filter(Boolean).join(", ")].filter(Boolean).join(DASH);

/** "Name, City" → name and city: a city never holds ", ", a name may. */
function nameAndCity(rest: string): { name: string; city: string } {
  const comma = rest.lastIndexOf(", ");
  return comma >= 0 ? { name: rest.slice(0, comma), city: rest.slice(comma + 2) } : { name: rest, city: "" };
}

/** The candidate a label names; null for text that is no label. */
export function parseCandidateLabel(label: string): LabelledCandidate | null {
  const text = label.trim();
  const m = COMPANY_ID_AT_START.exec(text);
  if (m?.[1]) {
    const rest = text.slice(m[0].length);
    if (rest === "") return { id: m[1], name: "", city: "" };
    const dash = /^\s+–\s+/.exec(rest);
    if (dash) return { id: m[1], ...nameAndCity(rest.slice(dash[0].length)) };
  }
  // The portfolio's label of the earlier version: "Name, City (DE…)", a name that was the id itself shown as such.
  const open = text.lastIndexOf(" (");
  const id = open >= 0 && text.endsWith(")") ? text.slice(open + 2, -1) : "";
  if (!COMPANY_ID_PATTERN.test(id)) return null;
  const nc = nameAndCity(text.slice(0, open));
  return { id, name: nc.name === id ? "" : nc.name, city: nc.city };
}
