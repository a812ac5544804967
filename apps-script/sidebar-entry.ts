/**
 * Sidebar page script used until the UI build (scripts/build-ui.ts) provides
 * its own pages: the shared UI with the Sheets host, one panel per sidebar.
 * The panel id comes from the page (data-panel on <body>).
 */
import { mountApp } from "../shared/ui/app.ts";
import { sheetsHost } from "../shared/ui/hosts/sheets.ts";

const root = document.getElementById("app") ?? document.body;
const panel = document.body.getAttribute("data-panel") ?? "search";
mountApp(root, sheetsHost(), { panels: [panel], initial: panel });
