/**
 * A Sheets sidebar page: the shared UI with the google.script.run host, one
 * panel per sidebar (the page names it in <body data-panel>).
 */
import { mountApp } from "../app.ts";
import { sheetsHost } from "../hosts/sheets.ts";
import { toLanguage } from "../../i18n/index.ts";

const root = document.getElementById("app") ?? document.body;
const panel = document.body.getAttribute("data-panel") ?? "search";
mountApp(root, sheetsHost(), { panels: [panel], initial: panel, language: toLanguage(navigator.language, "en") });
