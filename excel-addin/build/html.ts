/**
 * The shared runtime's page. Office.js comes from Microsoft's CDN (a store
 * requirement); the page loads the functions, the commands and the task
 * pane, since one runtime serves all three. The UI's stylesheet
 * (buildTaskpaneAssets() in scripts/build-ui.ts) is inlined, so the pane
 * looks like the Sheets sidebar and the playground without another request.
 */
export const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

/** CSS inside <style> must not close its own element. */
export const inlineCss = (css: string) => css.replace(/<\/(style)/gi, "<\\/$1");

const PAGE_CSS = `html,body{margin:0}body{font:14px "Segoe UI",system-ui,sans-serif;color:#1b1b1b}main{padding:12px}`;

export function taskpaneHtml(opts: { help?: boolean; css?: string } = {}): string {
  const body = opts.help
    ? `<main><h1>Company data / Firmendaten</h1><p>Open the Company data tab in Excel, or type =COMPANY.RESOLVE("Siemens AG") in a cell.</p><p>Öffnen Sie die Registerkarte Firmendaten oder tippen Sie =COMPANY.RESOLVE("Siemens AG") in eine Zelle.</p></main>`
    : `<div id="app"></div>`;
  const scripts = opts.help ? "" : `
  <script defer src="functions.js"></script>
  <script defer src="commands.js"></script>
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
