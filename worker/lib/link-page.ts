// The small page a mailed link opens (the report mail's and the alert mail's unsubscribe, an alert
// address's confirmation): a title, a question or an answer, and at most one button. Plain HTML from
// the Worker, since a mail program opens it without the app; `hono/html` escapes every value.
import { html } from "hono/html";

export type LinkPageBody = ReturnType<typeof html>;

export function linkPage(title: string, body: LinkPageBody) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>
  body{font-family:system-ui,sans-serif;background:#f5f5fb;color:#1c1b29;margin:0;padding:24px}
  main{max-width:440px;margin:0 auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 4px #0002}
  h1{font-size:1.3rem;margin:0 0 12px} p{line-height:1.5}
  button{margin-top:12px;width:100%;padding:12px;border:0;border-radius:6px;background:#5b4bdb;color:#fff;font-size:1rem;cursor:pointer}
</style></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;
}
