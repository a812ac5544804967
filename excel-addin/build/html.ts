/**
 * The shared runtime's page. Office.js comes from Microsoft's CDN (a store
 * requirement); the page loads the functions and the task pane, since one
 * runtime serves both (the ribbon button opens this page with ShowTaskpane
 * and needs no script of its own). The UI's stylesheet
 * (buildTaskpaneAssets() in scripts/build-ui.ts) is inlined, so the pane
 * looks like the Sheets sidebar and the playground without another request.
 */
export const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

/** CSS inside <style> must not close its own element. */
export const inlineCss = (css: string) => css.replace(/<\/(style)/gi, "<\\/$1");

const PAGE_CSS = `html,body{margin:0}body{font:14px "Segoe UI",system-ui,sans-serif;color:#1b1b1b}main{padding:12px}`;

export function taskpaneHtml(opts: { css?: string } = {}): string {
  const body = `<div id="app"></div>`;
  const scripts = `
  <script defer src="functions.js"></script>
  <script defer src="taskpane.js"></script>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="X-UA-Compatible" content="IE=edge">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Company data</title>
  <script src="${OFFICE_JS}"></script>
  <style>${PAGE_CSS}${inlineCss(opts.css ?? "")}</style>${scripts}
</head>
<body>
  ${body}
</body>
</html>
`;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The support page (the manifest's SupportUrl and the Get Started
 * "Learn more" link; AppSource asks for a working support page): what the
 * add-in does, where the key comes from, what costs credits, the custom
 * functions, what to do when something does not work, privacy, contact.
 * German and English on one page. No script.
 */
export function supportHtml(functions: readonly { name: string; en: string; de: string }[] = []): string {
  const list = (lang: "en" | "de") =>
    functions.length
      ? `<ul>${functions.map((f) => `<li><code>COMPANY.${esc(f.name)}</code> – ${esc(f[lang])}</li>`).join("")}</ul>`
      : "";
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Company data for Excel – support / Hilfe</title>
  <style>${PAGE_CSS}main{max-width:46em}code{background:#f3f3f3;padding:0 2px}</style>
</head>
<body>
<main>
<h1>Company data for Excel – support</h1>
<p>German company data (register, address, industry, size, people, financials, announcements) in Excel: a task pane (ribbon tab <b>Company data › Open</b>) to search, enrich the selected table, find similar companies and monitor a portfolio, and custom functions in the <code>COMPANY</code> namespace.</p>
<h2 id="key">Your API key</h2>
<p>The data comes from the company data API of Implisense GmbH (Berlin), billed in credits. A key comes from the provider's self-service sign-up (100 credits included, no credit card). Enter it in the pane under <b>Settings</b>; it is kept per user in Office's add-in storage, never in the workbook.</p>
<h2 id="credits">Credits</h2>
<p>Every paid action in the pane shows its price before anything is spent. Formulas spend from a daily budget per workbook (Settings). Answers are cached, so recalculating does not pay again. <code>COMPANY.CREDITS()</code> shows the balance; it is not volatile (it would otherwise ask the service on every edit anywhere in the workbook): Excel calculates it when it is entered, when the workbook is opened again and on a full recalculation (Ctrl+Alt+F9), and each time it asks the free account endpoint afresh.</p>
<h2 id="functions">Custom functions</h2>
${list("en")}
<h2 id="trouble">When something does not work</h2>
<ul>
<li><b>Functions missing or outdated</b>: Excel keeps the functions' description until the add-in's manifest changes; remove and add the add-in again, or clear the Office cache.</li>
<li><b>Settings › Test connection says the service refused the add-in's origin</b>: the API must allow calls from the address the add-in is served from (CORS), or the add-in's host must forward the calls (a proxy on the same origin). Ask whoever hosts the add-in.</li>
<li><b>"No connection"</b>: check the network and the base URL in Settings.</li>
<li><b>A data card shows as a row of values</b>: this Excel (for example Office 2021 or 2024 bought once) cannot show data types from add-in functions.</li>
</ul>
<h2 id="privacy">Privacy</h2>
<p>The add-in sends the names, ids and places you ask for to the company data API and nothing else. The key stays in Office's add-in storage on your device; the workbook holds only a random id and the language of data-card field names.</p>
<h2 id="contact">Contact</h2>
<p>Questions about data, your account or credits: the data provider, Implisense GmbH, Berlin. Questions about the add-in: whoever deployed it in your organisation.</p>
<hr>
<h1 lang="de">Firmendaten für Excel – Hilfe</h1>
<div lang="de">
<p>Deutsche Firmendaten (Register, Anschrift, Branche, Größe, Personen, Finanzdaten, Bekanntmachungen) in Excel: ein Aufgabenbereich (Registerkarte <b>Firmendaten › Öffnen</b>) zum Suchen, Anreichern der markierten Tabelle, Finden ähnlicher Firmen und Überwachen eines Portfolios, und eigene Funktionen im Namensraum <code>COMPANY</code>.</p>
<h2>Ihr API-Schlüssel</h2>
<p>Die Daten kommen aus der Firmendaten-API der Implisense GmbH (Berlin), abgerechnet in Credits. Einen Schlüssel gibt es über die Selbstregistrierung des Anbieters (100 Credits inklusive, keine Kreditkarte). Eintragen im Bereich unter <b>Einstellungen</b>; er wird je Benutzer im Add-in-Speicher von Office abgelegt, nie in der Arbeitsmappe.</p>
<h2>Credits</h2>
<p>Jede kostenpflichtige Aktion im Bereich zeigt ihren Preis, bevor etwas ausgegeben wird. Formeln zahlen aus einem Tagesbudget je Arbeitsmappe (Einstellungen). Antworten werden zwischengespeichert; Neuberechnen zahlt nicht erneut. <code>COMPANY.CREDITS()</code> zeigt das Guthaben; die Funktion ist nicht flüchtig (sonst fragte sie bei jeder Änderung irgendwo in der Mappe den Dienst): Excel berechnet sie bei der Eingabe, beim erneuten Öffnen der Mappe und bei einer vollständigen Neuberechnung (Strg+Alt+F9), und jedes Mal fragt sie den kostenlosen Kontoendpunkt neu.</p>
<h2>Eigene Funktionen</h2>
${list("de")}
<h2>Wenn etwas nicht funktioniert</h2>
<ul>
<li><b>Funktionen fehlen oder sind veraltet</b>: Excel behält die Beschreibung der Funktionen, bis sich das Manifest des Add-ins ändert; das Add-in entfernen und neu hinzufügen oder den Office-Cache leeren.</li>
<li><b>Einstellungen › Verbindung testen meldet, dass der Dienst die Herkunft des Add-ins ablehnt</b>: Die API muss Aufrufe von der Adresse erlauben, von der das Add-in geladen wird (CORS), oder der Server des Add-ins muss die Aufrufe weiterleiten (ein Proxy auf derselben Herkunft). Bitte an den Betreiber des Add-ins wenden.</li>
<li><b>„Keine Verbindung“</b>: Netzwerk und Basis-URL in den Einstellungen prüfen.</li>
<li><b>Eine Datenkarte erscheint als Zeile von Werten</b>: Diese Excel-Version (etwa Office 2021 oder 2024 als Kaufversion) kann keine Datentypen aus Add-in-Funktionen anzeigen.</li>
</ul>
<h2>Datenschutz</h2>
<p>Das Add-in sendet die Namen, IDs und Orte, nach denen Sie fragen, an die Firmendaten-API, sonst nichts. Der Schlüssel bleibt im Add-in-Speicher von Office auf Ihrem Gerät; die Arbeitsmappe enthält nur eine zufällige ID und die Sprache der Feldnamen von Datenkarten.</p>
<h2>Kontakt</h2>
<p>Fragen zu Daten, Konto oder Credits: der Datenanbieter, Implisense GmbH, Berlin. Fragen zum Add-in: wer es in Ihrer Organisation bereitgestellt hat.</p>
</div>
</main>
</body>
</html>
`;
}
