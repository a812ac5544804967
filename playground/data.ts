/**
 * What the playground's grid starts with: the reference portfolio (ten real
 * companies with their real ids, from the provider's public sample data,
 * MIT licence) and a list of company names to enrich: real names with and
 * without a city, spelling variants, names the emulator holds more than once
 * (so the match review has something to show), one that does not exist, and
 * one hostile name that must stay inert text everywhere.
 */
import type { Cell } from "../shared/sheet/protocol.ts";

export const PORTFOLIO: { id: string; name: string }[] = [
  { id: "DEMWUYW5R962", name: "TRUMPF SE + Co. KG" },
  { id: "DE2FDKAK2567", name: "Festo SE & Co. KG" },
  { id: "DEPZ2VFJZF25", name: "Miele & Cie. KG" },
  { id: "DELTU2WDWS05", name: "dm-drogerie markt GmbH & Co. KG" },
  { id: "DEFZ4MICZY78", name: "Deutsche Lufthansa AG" },
  { id: "DENN6V27F320", name: "Bayer AG" },
  { id: "DEZI83ECZP59", name: "Zalando SE" },
  { id: "DE7CG4NJU223", name: "Heidelberger Druckmaschinen AG" },
  { id: "DEYQWR13CZ20", name: "Deutsche Bahn AG" },
  { id: "DEY1YQT3UN84", name: "Knorr-Bremse AG" },
];

export const HOSTILE_NAME = `<img src=x onerror="document.title='pwned'">=HYPERLINK("http://example.invalid","klick")`;

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
  const list: Cell[][] = [["Firma", "Ort"], ...NAMES.map(([n, c]) => [n, c]), ...ambiguousNames.map((n) => [n, ""]), [HOSTILE_NAME, "Berlin"]];
  return [
    { name: "Firmenliste", cells: list },
    { name: "Portfolio", cells: [["Firmen-ID", "Firma"], ...PORTFOLIO.map((p) => [p.id, p.name])] },
  ];
}
