/**
 * Why a custom function could not reach its service, in the cell: the same
 * diagnosis as Settings › Test connection (shared/web/local-network.ts: the
 * browser's Local Network Access blocked a private or loopback address, the
 * service answers but not to the add-in's origin (CORS), or nothing
 * answers), said short (shared/web/network-messages.ts networkCellMessage),
 * instead of the generic "could not reach the data service".
 *
 * The address is the one the formulas use now (the settings' connection:
 * the team server's or the API's base URL). A recalculation that fails in
 * 1,000 cells asks once: the diagnosis of an address is kept for a few
 * seconds, and calls in that time share it (one no-cors probe, one
 * permission query).
 */
import { runAsync, type AsyncDriver } from "../../shared/core/index.ts";
import { loadSettings } from "../../shared/app/index.ts";
import type { Language } from "../../shared/i18n/index.ts";
import { diagnoseFailure, networkCellMessage, type Diagnosis } from "../../shared/web/index.ts";

/** How long one diagnosis answers for an address (a burst of failing cells, the retries right after). */
export const DIAGNOSIS_TTL_MS = 15_000;

export interface NetworkExplainerDeps {
  driver: AsyncDriver;
  /** This page's host and origin (location.hostname, location.origin). */
  pageHost: string;
  origin: string;
  now: () => number;
  /** The diagnosis of a failed fetch of `url` (default: diagnoseFailure from this page). */
  diagnose?: (url: string) => Promise<Diagnosis>;
}

/** The cell's message for a network failure in the user's language; null when it cannot be told (the generic one stays). */
export type NetworkExplainer = (lang: Language) => Promise<string | null>;

export function networkExplainer(deps: NetworkExplainerDeps): NetworkExplainer {
  const diagnose = deps.diagnose ?? ((url: string) => diagnoseFailure(url, { pageHost: deps.pageHost }));
  const seen = new Map<string, { at: number; diagnosis: Promise<Diagnosis> }>();
  const diagnosisOf = (url: string): Promise<Diagnosis> => {
    const hit = seen.get(url);
    if (hit && deps.now() - hit.at < DIAGNOSIS_TTL_MS) return hit.diagnosis;
    const diagnosis = diagnose(`${url}/v2/account`);
    seen.set(url, { at: deps.now(), diagnosis });
    return diagnosis;
  };
  return async (lang) => {
    try {
      const settings = await runAsync(loadSettings(), deps.driver);
      const mode = settings.connection === "server" ? "server" : "direct";
      const url = ((mode === "server" ? settings.serverUrl : settings.baseUrl) ?? "").replace(/\/+$/, "");
      if (!/^https?:\/\//i.test(url)) return null;
      const d = await diagnosisOf(url);
      return networkCellMessage(d, { url, origin: deps.origin, mode, from: "excel" })[lang];
    } catch {
      // The explanation is a courtesy: if it cannot be worked out, the generic message stands.
      return null;
    }
  };
}
