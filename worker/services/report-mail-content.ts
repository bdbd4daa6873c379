// The daily report mail's content (decision 060): the day's per-store figures as the stored report
// holds them, the all-stores totals against the same weekday a week earlier, a link to the Daily
// Report screen for the day and the unsubscribe link, as plain text and as HTML (every value escaped).
import { STORES } from "@shared/constants";
import { DAILY_REPORT_ALL_STORES, DAILY_REPORT_COLUMNS, DAILY_REPORT_GROUPS, type DailyReportRow } from "@shared/daily-report";
import { REPORT_MAIL_TEXT } from "@shared/messages";
import { reportDayLabel } from "@shared/report-mail";
import Papa from "papaparse";
import { CSV_BOM } from "../lib/csv";
import { DAILY_REPORT_CSV_COLUMNS } from "./daily-report";

/**
 * The rows of a stored report's CSV (decision 012), read back by the columns that wrote it: the
 * mail shows exactly the stored figures.
 */
export function rowsOfStoredReport(csv: string): DailyReportRow[] {
  const parsed = Papa.parse<string[]>(csv.startsWith(CSV_BOM) ? csv.slice(CSV_BOM.length) : csv, { newline: "\r\n", delimiter: ",", skipEmptyLines: true });
  const [header, ...lines] = parsed.data;
  const expected = DAILY_REPORT_CSV_COLUMNS.map((c) => c.header);
  if (!header || header.join(",") !== expected.join(",")) throw new Error("the stored report's columns are not the report's columns");
  return lines.map((cells) => ({
    date: cells[0],
    store: cells[1],
    figures: Object.fromEntries(DAILY_REPORT_COLUMNS.map((c, i) => [c.key, Number(cells[i + 2])])),
  }));
}

export type ReportMailContent = {
  day: string;
  /** The day's rows: one per store and the ALL row (the stored all-stores report). */
  rows: readonly DailyReportRow[];
  /** The ALL row of the same weekday a week earlier. */
  weekEarlier: DailyReportRow;
  reportUrl: string;
  unsubscribeUrl: string;
};

/** "+3 (+12%)", "-2 (-5%)", "0"; a rise from nothing has no percentage. */
export function change(now: number, before: number): string {
  const diff = now - before;
  if (diff === 0) return "0";
  const sign = diff > 0 ? "+" : "-";
  const abs = `${sign}${n(Math.abs(diff))}`;
  if (before === 0) return abs;
  return `${abs} (${sign}${Math.round((Math.abs(diff) / before) * 100)}%)`;
}

const NUMBER = new Intl.NumberFormat("en-US");
const n = (v: number | undefined) => NUMBER.format(v ?? 0);

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text as HTML text or attribute value. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

function storeColumns(rows: readonly DailyReportRow[]) {
  // The stores in the report's order, whatever order the rows came in, then the all-stores row.
  const byStore = new Map(rows.map((r) => [r.store, r]));
  const known = STORES.filter((s) => byStore.has(s)).map((s) => ({ title: s as string, row: byStore.get(s)! }));
  const others = rows.filter((r) => r.store !== DAILY_REPORT_ALL_STORES && !STORES.includes(r.store as never)).map((r) => ({ title: r.store, row: r }));
  const all = byStore.get(DAILY_REPORT_ALL_STORES);
  return [...known, ...others, ...(all ? [{ title: REPORT_MAIL_TEXT.allStores, row: all }] : [])];
}

/** A fixed-width text table: the first column left-aligned, the others right-aligned. */
function textTable(head: string[], body: (string[] | string)[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.filter((r): r is string[] => Array.isArray(r)).map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(head), rule, ...body.map((r) => (Array.isArray(r) ? line(r) : `${r}`))].join("\n");
}

export function reportMail(content: ReportMailContent): { subject: string; text: string; html: string } {
  const label = reportDayLabel(content.day);
  const earlierLabel = reportDayLabel(content.weekEarlier.date);
  const columns = storeColumns(content.rows);
  const all = content.rows.find((r) => r.store === DAILY_REPORT_ALL_STORES);
  const groups = DAILY_REPORT_GROUPS.map((title) => ({ title, keys: DAILY_REPORT_COLUMNS.filter((c) => c.group === title).map((c) => c.key) }));
  const totals = DAILY_REPORT_COLUMNS.map((c) => {
    const now = all?.figures[c.key] ?? 0;
    const before = content.weekEarlier.figures[c.key] ?? 0;
    return { key: c.key, now, before, change: change(now, before) };
  });

  const perStoreText = textTable(
    [REPORT_MAIL_TEXT.figure, ...columns.map((c) => c.title)],
    groups.flatMap((g) => [`[${g.title}]`, ...g.keys.map((k) => [k, ...columns.map((c) => n(c.row.figures[k]))])]),
  );
  const totalsText = textTable(
    [REPORT_MAIL_TEXT.figure, content.day, content.weekEarlier.date, REPORT_MAIL_TEXT.change],
    totals.map((t) => [t.key, n(t.now), n(t.before), t.change]),
  );
  const text = [
    REPORT_MAIL_TEXT.heading(label),
    "",
    REPORT_MAIL_TEXT.totals(label, earlierLabel),
    "",
    totalsText,
    "",
    REPORT_MAIL_TEXT.perStore,
    "",
    perStoreText,
    "",
    `${REPORT_MAIL_TEXT.openReport}:`,
    content.reportUrl,
    "",
    "--",
    REPORT_MAIL_TEXT.why,
    `${REPORT_MAIL_TEXT.unsubscribe}: ${content.unsubscribeUrl}`,
    "",
  ].join("\n");

  const e = escapeHtml;
  const cell = "padding:4px 8px;border-bottom:1px solid #e3e2ee;";
  const num = `${cell}text-align:right;font-variant-numeric:tabular-nums;`;
  const th = `${cell}text-align:left;background:#f5f5fb;font-weight:600;`;
  const thNum = `${th}text-align:right;`;
  const table = "border-collapse:collapse;font-size:13px;margin:8px 0 20px;";
  const totalsHtml = `<table style="${table}" data-table="totals">
<thead><tr><th scope="col" style="${th}">${e(REPORT_MAIL_TEXT.figure)}</th><th scope="col" style="${thNum}">${e(content.day)}</th><th scope="col" style="${thNum}">${e(content.weekEarlier.date)}</th><th scope="col" style="${thNum}">${e(REPORT_MAIL_TEXT.change)}</th></tr></thead>
<tbody>
${totals.map((t) => `<tr><th scope="row" style="${cell}text-align:left;font-weight:400;">${e(t.key)}</th><td style="${num}">${e(n(t.now))}</td><td style="${num}">${e(n(t.before))}</td><td style="${num}">${e(t.change)}</td></tr>`).join("\n")}
</tbody></table>`;
  const perStoreHtml = `<table style="${table}" data-table="stores">
<thead><tr><th scope="col" style="${th}">${e(REPORT_MAIL_TEXT.figure)}</th>${columns.map((c) => `<th scope="col" style="${thNum}">${e(c.title)}</th>`).join("")}</tr></thead>
<tbody>
${groups
  .map(
    (g) =>
      `<tr><th scope="rowgroup" colspan="${columns.length + 1}" style="${th}">${e(g.title)}</th></tr>\n` +
      g.keys
        .map((k) => `<tr><th scope="row" style="${cell}text-align:left;font-weight:400;">${e(k)}</th>${columns.map((c) => `<td style="${num}">${e(n(c.row.figures[k]))}</td>`).join("")}</tr>`)
        .join("\n"),
  )
  .join("\n")}
</tbody></table>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(REPORT_MAIL_TEXT.subject(label))}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1c1b29;margin:0;padding:16px;">
<h1 style="font-size:20px;margin:0 0 12px;">${e(REPORT_MAIL_TEXT.heading(label))}</h1>
<h2 style="font-size:15px;margin:16px 0 4px;">${e(REPORT_MAIL_TEXT.totals(label, earlierLabel))}</h2>
${totalsHtml}
<h2 style="font-size:15px;margin:16px 0 4px;">${e(REPORT_MAIL_TEXT.perStore)}</h2>
<div style="overflow-x:auto;">${perStoreHtml}</div>
<p><a href="${e(content.reportUrl)}" style="color:#5b4bdb;">${e(REPORT_MAIL_TEXT.openReportLink)}</a></p>
<hr style="border:0;border-top:1px solid #e3e2ee;margin:20px 0 8px;">
<p style="font-size:12px;color:#5c5b6e;">${e(REPORT_MAIL_TEXT.why)} <a href="${e(content.unsubscribeUrl)}" style="color:#5c5b6e;">${e(REPORT_MAIL_TEXT.unsubscribeText)}</a></p>
</body></html>
`;
  return { subject: REPORT_MAIL_TEXT.subject(label), text, html };
}
