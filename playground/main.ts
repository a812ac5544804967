/**
 * The playground page: the grid on the left, the product's one UI on the
 * right, running the app service in the browser (runAsync) against the
 * local emulator. The emulator URL and the demo key come from the server at
 * page load; nothing secret is in the bundle.
 */
import { mountApp } from "../shared/ui/index.ts";
import { directHost } from "../shared/ui/index.ts";
import { h } from "../shared/ui/index.ts";
import { SETTINGS_KEYS } from "../shared/app/index.ts";
import { Workbook } from "../shared/sheet/index.ts";
import { mountGrid } from "./grid.ts";
import { playgroundDriver } from "./driver.ts";
import { initialSheets } from "./data.ts";
import { toCsv, toXlsx } from "./export.ts";
import { Pacer } from "../shared/api/index.ts";
import { connectionLine } from "./connection.ts";
import { browserPlace, startLanguage, withPageLanguage } from "./language.ts";

interface Config {
  baseUrl: string;
  demoKey: string;
  ambiguousNames?: string[];
}

function readConfig(): Config {
  const el = document.getElementById("pg-config");
  try {
    return JSON.parse(el?.textContent ?? "{}") as Config;
  } catch {
    return { baseUrl: "", demoKey: "" };
  }
}

function download(name: string, data: BlobPart, type: string) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = h("a", { attrs: { href: url, download: name } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function start() {
  const config = readConfig();
  const workbook = new Workbook(initialSheets(config.ambiguousNames ?? []));
  // The first language by the one rule: a saved choice, else the browser's languages (./language.ts).
  const place = browserPlace();
  const driver = withPageLanguage(playgroundDriver(workbook), place);
  // Pre-configured: the demo key and the emulator, as a user would save them in Settings.
  await driver.storePut({
    [SETTINGS_KEYS.apiKey]: config.demoKey || null,
    [SETTINGS_KEYS.baseUrl]: config.baseUrl || null,
  });

  const gridBox = document.getElementById("pg-grid-box")!;
  const side = document.getElementById("pg-side")!;
  document.getElementById("pg-export-csv")!.addEventListener("click", () => {
    const { rows, cols } = workbook.size();
    download(
      `${workbook.active}.csv`,
      toCsv(workbook.block(workbook.active, 1, 1, rows, cols)),
      "text/csv;charset=utf-8",
    );
  });
  document.getElementById("pg-export-xlsx")!.addEventListener("click", () => {
    const sheets = [...workbook.sheets.keys()].map((name) => {
      const { rows, cols } = workbook.size(name);
      return { name, rows: workbook.block(name, 1, 1, rows, cols) };
    });
    download(
      "playground.xlsx",
      toXlsx(sheets) as BlobPart,
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
  });

  mountGrid(gridBox, workbook, { label: "Tabelle / Sheet" });
  const direct = directHost("playground", driver, () => ({
    host: "playground",
    now: () => Date.now(),
    random: Math.random,
    // Short steps, so the enrichment's progress bar moves as it would in a sidebar.
    deadline: Date.now() + 1500,
    documentId: "playground",
    // A pacer per step, as before the Pacer was explicit: the playground's steps are 1.5 s
    // short, and a page-wide pacer made a check's free calls (drained by the price just
    // before) wait past the step's end again and again. The emulator's own 429s and their
    // Retry-After still pace the client across steps.
    pacer: new Pacer(),
  }));
  // The header names the saved connection (playground/connection.ts), following the UI's own calls.
  const { host } = connectionLine(direct, config.baseUrl);
  const mounted = mountApp(side, host, { language: startLanguage(place), embedded: true });
  (window as unknown as { __playground: unknown }).__playground = { workbook, ui: mounted.ui, ready: mounted.ready };
}

void start();
