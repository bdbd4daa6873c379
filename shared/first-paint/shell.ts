// What the Worker writes into the SPA's shell besides the app (decision 032): the client
// configuration GET /api/config answers, as a JSON script element the SPA reads instead of asking.
export const APP_CONFIG_ELEMENT_ID = "app-config";

const STYLESHEET = /[ \t]*<link rel="stylesheet"[^>]*>\n?/g;

/**
 * The shell with its stylesheet links first in the head, before its first script or module preload
 * (decision 033). Vite writes them last, so the browser asks for a dozen scripts before the one file
 * the first paint waits for, and that file then shares the connection with them. The build applies
 * it (scripts/vite/stylesheet-first.ts).
 */
export function stylesheetFirst(html: string): string {
  const head = html.indexOf("</head>");
  if (head === -1) return html;
  const sheets = html.slice(0, head).match(STYLESHEET);
  if (!sheets) return html;
  const rest = html.slice(0, head).replace(STYLESHEET, "");
  const first = rest.search(/[ \t]*<(script|link rel="modulepreload")\b/);
  if (first === -1) return html;
  return rest.slice(0, first) + sheets.map((s) => (s.endsWith("\n") ? s : `${s}\n`)).join("") + rest.slice(first) + html.slice(head);
}
