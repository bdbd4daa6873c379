// CSV reports (docs/product/api.md#dashboard-counts: the call report and the daily report), streamed page by page so a
// million-row export holds one page in memory, never the file.
//
// Cell encoding is papaparse's, byte for byte (RFC 4180 quoting; plain cells pass as they are):
// csv.test.ts holds every line to papaparse's own unparse of the cells through spreadsheetText,
// which is this file's reference, not its hot path (decision 031). We add what a report opened in a
// spreadsheet needs: a UTF-8 byte-order mark so accents survive, CRLF line ends, and formula
// neutralising that leaves the text as written.

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";
export const CSV_BOM = "\uFEFF";
const CRLF = "\r\n";

/**
 * A cell starting with one of these is run as a formula by spreadsheet programs (CSV injection);
 * such a cell starts with TEXT_MARK instead. papaparse's own `escapeFormulae: true` pattern ends in
 * `.*$`, which misses a cell with a line break after the first character, so we keep our own.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * U+2060 WORD JOINER: invisible and not white space, so a spreadsheet reads the cell after it as
 * the text it is. A phone number such as +15551234567 shows as written, neither a formula nor a
 * number without its '+'; a leading apostrophe (OWASP's advice) would stay visible in a CSV opened
 * by Excel or LibreOffice.
 */
export const TEXT_MARK = "\u2060";

/** A text cell as a spreadsheet must read it: after TEXT_MARK when it would start a formula. */
export function spreadsheetText(cell: string): string {
  return FORMULA_START.test(cell) ? TEXT_MARK + cell : cell;
}

export type CsvCell = string | number | boolean | null | undefined;
export type CsvColumn<Row> = { header: string; value: (row: Row) => CsvCell };

/** Rows as CSV lines, each ending in CRLF; null and undefined are empty cells. */
export function csvLines(rows: readonly (readonly CsvCell[])[]): string {
  let out = "";
  for (const cells of rows) {
    for (let i = 0; i < cells.length; i++) out += i === 0 ? csvCell(cells[i]) : `,${csvCell(cells[i])}`;
    out += CRLF;
  }
  return out;
}

/**
 * A text cell papaparse writes as it is: no formula start, no leading or trailing space, nothing to
 * quote. Most cells of a report are like that and pass through; the others are quoted by
 * papaparse's rule (quotedCell). Calling papaparse's unparse for each of those cost about 1.7 s of
 * a million-row export, mostly phone numbers (a leading +) and summaries (commas), decision 031.
 * A property test holds csvLines byte-equal to papaparse's unparse of the whole rows (text cells
 * through spreadsheetText).
 */
const PLAIN = /^(?:[^=+\-@\t\r "\n,\uFEFF](?:[^"\r\n,\uFEFF]*[^"\r\n,\uFEFF ])?)?$/;
/** papaparse quotes a cell holding a line break, a quote, a byte-order mark or the delimiter. */
const NEEDS_QUOTES = /[\r\n"\uFEFF,]/;

function csvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell !== "string") return String(cell);
  if (PLAIN.test(cell)) return cell;
  return quotedCell(cell);
}

/** A cell that is not plain, marked when it starts a formula and quoted by papaparse's rule, without a call to unparse per cell. */
function quotedCell(cell: string): string {
  const value = spreadsheetText(cell);
  const escaped = value.includes('"') ? value.replaceAll('"', '""') : value;
  return NEEDS_QUOTES.test(escaped) || escaped.startsWith(" ") || escaped.endsWith(" ") ? `"${escaped}"` : escaped;
}

/**
 * Rows as CSV lines through their columns: csvLines of each row's cells, without building the
 * cells' arrays first (a million-row export made a million of them).
 */
export function csvRows<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  let out = "";
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) out += i === 0 ? csvCell(columns[i].value(row)) : `,${csvCell(columns[i].value(row))}`;
    out += CRLF;
  }
  return out;
}

/** One whole CSV document (header line included), for small reports kept as text. */
export function csvDocument<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[], { bom = true } = {}): string {
  const header = columns.map((c) => c.header);
  return (bom ? CSV_BOM : "") + csvLines([header]) + csvRows(columns, rows);
}

/**
 * Reads the page after `cursor` (null: the first page), at most `limit` rows, in a stable order.
 * Keyset pagination: the cursor is the sort key of the last row sent, so every page is one index
 * seek, however deep the export is.
 */
export type PageReader<Row, Cursor> = (cursor: Cursor | null, limit: number) => Promise<Row[]>;

export type CsvStreamOptions<Row, Cursor> = {
  columns: readonly CsvColumn<Row>[];
  readPage: PageReader<Row, Cursor>;
  cursorOf: (row: Row) => Cursor;
  pageSize?: number;
  bom?: boolean;
  /** Called with a failure after the first byte, when the answer can no longer be an error status. */
  onError?: (error: unknown) => void;
};

/**
 * A CSV body that reads one page each time the reader asks for more (a pull stream), so memory
 * stays at two pages whatever the row count, and a client that stops reading stops the queries.
 * The next page's query starts as soon as a page arrives, so the database reads it while this one
 * is encoded and sent (the first page while the header goes out).
 */
export function csvStream<Row, Cursor>(options: CsvStreamOptions<Row, Cursor>): ReadableStream<Uint8Array> {
  const { columns, readPage, cursorOf, pageSize = 1000, bom = true, onError } = options;
  const encoder = new TextEncoder();
  let next: Promise<Row[]> | null = null;
  let headerSent = false;
  let done = false;
  const fetchPage = (cursor: Cursor | null) => {
    const page = readPage(cursor, pageSize);
    // A page read ahead for a client that has gone away is never awaited: its failure is no one's.
    page.catch(() => undefined);
    return page;
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          next = fetchPage(null);
          controller.enqueue(encoder.encode((bom ? CSV_BOM : "") + csvLines([columns.map((c) => c.header)])));
          return;
        }
        if (done || !next) return;
        try {
          const rows = await next;
          // Cancelled while the page was read: nothing more to send, and no page to read ahead.
          if (done) return;
          next = null;
          if (rows.length < pageSize) done = true;
          else next = fetchPage(cursorOf(rows[rows.length - 1]));
          if (rows.length > 0) controller.enqueue(encoder.encode(csvRows(columns, rows)));
          if (done) controller.close();
        } catch (error) {
          done = true;
          next = null;
          onError?.(error);
          controller.error(error);
        }
      },
      cancel() {
        done = true;
        next = null;
      },
    },
    // Nothing queued beyond what the reader asks for: the page read ahead is the only one in flight.
    { highWaterMark: 0 },
  );
}

/** A file name safe in a Content-Disposition header: letters, digits, dot, dash and underscore. */
export function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[^\w.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/-+\./g, ".")
    .replace(/^[-.]+|-+$/g, "");
  return cleaned || "report.csv";
}

/** The download answer for a CSV body (streamed or whole). */
export function csvResponse(body: ReadableStream<Uint8Array> | string, fileName: string, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  h.set("Content-Type", CSV_CONTENT_TYPE);
  h.set("Content-Disposition", `attachment; filename="${safeFileName(fileName)}"`);
  h.set("Cache-Control", "no-store");
  h.set("X-Content-Type-Options", "nosniff");
  return new Response(body, { headers: h });
}
