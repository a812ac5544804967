/**
 * What the playground's grid starts with: the reference portfolio (ten real
 * companies with their real ids, from the provider's public sample data,
 * MIT licence) and a list of company names to enrich: real names with and
 * without a city, spelling variants, names the emulator holds more than once
 * (so the match review has something to show) and one that does not exist.
 * It is the first thing a prospect sees, so it holds no injection probe: the
 * hostile name that must stay inert text everywhere lives in the browser
 * tests (test/browser/browser.ts HOSTILE_NAME), which put it into the grid.
 */
import type { Cell } from "../shared/core/index.ts";
import reference from "../emulator/data/reference/portfolio.json" with { type: "json" };

export const PORTFOLIO: { id: string; name: string }[] = reference.portfolio;

const NAMES: [string, string][] = [
  ["SAP SE", "Walldorf"],
  ["Siemens Aktiengesellschaft", "München"],
  ["Robert Bosch GmbH", "Gerlingen"],
  ["adidas AG", ""],
  ["BASF SE", "Ludwigshafen"],
  ["Henkel AG & Co. KGaA", "Düsseldorf"],
  ["Continental AG", "Hannover"],
  ["HelloFresh SE", "Berlin"],
  ["Celonis SE", ""],
  ["Deutsche Telekom AG", "Bonn"],
  ["Vorwerk SE & Co. KG", "Wuppertal"],
  ["Phantasiefirma Nirgendwo GmbH", "Nirgendwo"],
];

export function initialSheets(ambiguousNames: string[] = []): { name: string; cells: Cell[][] }[] {
  const list: Cell[][] = [["Firma", "Ort"], ...NAMES.map(([n, c]) => [n, c]), ...ambiguousNames.map((n) => [n, ""])];
  return [
    { name: "Firmenliste", cells: list },
    { name: "Portfolio", cells: [["Firmen-ID", "Firma"], ...PORTFOLIO.map((p) => [p.id, p.name])] },
  ];
}
