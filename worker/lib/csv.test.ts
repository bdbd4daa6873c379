import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { readAsSpreadsheet } from "../test/spreadsheet";
import { CSV_BOM, csvDocument, csvLines, csvResponse, csvRows, csvStream, FORMULA_START, safeFileName, spreadsheetText, TEXT_MARK, type CsvCell, type CsvColumn } from "./csv";

/** Reads a whole stream as text (the BOM kept). */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

/** Cells back from CSV text, the way a spreadsheet program reads them. */
function parse(text: string): string[][] {
  const body = text.startsWith(CSV_BOM) ? text.slice(1) : text;
  const rows = Papa.parse<string[]>(body, { newline: "\r\n", delimiter: "," }).data;
  // The last line ends in CRLF, which the parser reads as one more, empty row.
  return rows.slice(0, -1);
}

describe("csvLines", () => {
  it("quotes cells holding a comma, a quote or a line break, doubling quotes (RFC 4180)", () => {
    expect(csvLines([["plain", "a,b", 'say "hi"', "two\r\nlines", "x\ny"]])).toBe(
      'plain,"a,b","say ""hi""","two\r\nlines","x\ny"\r\n',
    );
  });

  it("writes null and undefined as empty cells and keeps numbers and booleans", () => {
    expect(csvLines([[null, undefined, 0, -12.5, true, false]])).toBe(",,0,-12.5,true,false\r\n");
  });

  it("neutralises every cell a spreadsheet would run as a formula", () => {
    const line = csvLines([["=SUM(A1:A9)", "+1", "-2", "@cmd", "\tx", "\ry", "=1\n+2", "a=b", "mail@x.com"]]);
    const m = TEXT_MARK;
    expect(parse(line)[0]).toEqual([`${m}=SUM(A1:A9)`, `${m}+1`, `${m}-2`, `${m}@cmd`, `${m}\tx`, `${m}\ry`, `${m}=1\n+2`, "a=b", "mail@x.com"]);
  });

  it("opens in a spreadsheet with phone numbers as their text, no apostrophe, and no cell a formula", () => {
    const cells = ["+13055550123", "=1+1", "+1+1", "-1+1", "@SUM(A1)", "=HYPERLINK(\"http://x\",\"y\")", "\t=1+1", "=1\n+2", "-", "a=b"];
    const [header, row] = readAsSpreadsheet(CSV_BOM + csvLines([cells.map((_, i) => `c${i}`), cells]));
    expect(header.map((c) => c.shown)).toEqual(cells.map((_, i) => `c${i}`));
    // The phone number is text showing exactly its digits and '+': not a number, no apostrophe.
    expect(row[0]).toMatchObject({ type: "s", formula: null, shown: "+13055550123" });
    // Every cell is text showing what was written, and none runs as a formula.
    expect(row.map((c) => c.formula)).toEqual(cells.map(() => null));
    expect(row.map((c) => c.type)).toEqual(cells.map(() => "s"));
    expect(row.map((c) => c.shown)).toEqual(cells);
  });

  it("leaves a negative number a number: only text can be a formula", () => {
    expect(csvLines([[-3]])).toBe("-3\r\n");
  });

  it("round-trips any text through a CSV reader, formula cells apart from their mark", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((width) =>
          fc.array(fc.array(fc.string({ unit: "binary", maxLength: 24 }), { minLength: width, maxLength: width }), { minLength: 1, maxLength: 6 }),
        ),
        (rows) => {
          const expected = rows.map((cells) => cells.map((cell) => (FORMULA_START.test(cell) ? `${TEXT_MARK}${cell}` : cell)));
          // A row of one empty cell is an empty line, which readers skip or keep as they like.
          fc.pre(rows.every((cells) => cells.length > 1 || cells[0] !== ""));
          expect(parse(csvLines(rows))).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
    // Generous: a loaded 2-core machine runs the 200 cases in a few seconds.
  }, 30_000);
});

describe("csvRows", () => {
  it("writes rows through their columns exactly as csvLines writes their cells", () => {
    const cell = fc.oneof(fc.string({ unit: "binary", maxLength: 12 }), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constant(undefined));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((width) => fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 8 })),
        (rows) => {
          const width = rows[0]?.length ?? 1;
          const columns: CsvColumn<CsvCell[]>[] = Array.from({ length: width }, (_, i) => ({ header: `c${i}`, value: (row) => row[i] }));
          expect(csvRows(columns, rows)).toBe(csvLines(rows));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("csvLines against papaparse", () => {
  // csvLines writes plain cells itself and quotes the others by papaparse's rule: papaparse's unparse
  // of the whole rows, each text cell through spreadsheetText, is the reference, byte for byte.
  const special = fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", " ", ",", '"', "'", "\uFEFF", "a", "Z", "9", ".", "é", "😀");
  const text = fc.oneof(
    fc.string({ unit: "binary", maxLength: 16 }),
    fc.array(special, { maxLength: 8 }).map((chars) => chars.join("")),
    fc.array(fc.oneof(special, fc.constant("abc")), { maxLength: 5 }).map((parts) => parts.join("")),
  );
  const cell = fc.oneof(text, text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined));
  const reference = (rows: CsvCell[][]) =>
    Papa.unparse(rows.map((cells) => cells.map((c) => (c === null || c === undefined ? "" : typeof c === "string" ? spreadsheetText(c) : c))) as unknown[][], {
      newline: "\r\n",
      header: false,
    }) + "\r\n";

  it("writes every row exactly as papaparse does", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }), (rows) => {
        expect(csvLines(rows)).toBe(reference(rows));
      }),
      { numRuns: 1000 },
    );
  });

  it("passes plain text through and sends the rest to papaparse, edge by edge", () => {
    for (const value of ["", "a", "a b", " a", "a ", " ", "a,b", 'a"b', "a\nb", "a\rb", "a\uFEFF", "\uFEFFa", "=1", "+1", "-1", "@a", "\ta", "\ra", "a=", "a-"]) {
      expect(csvLines([[value, "x"]]), JSON.stringify(value)).toBe(reference([[value, "x"]]));
    }
  });
});

describe("csvDocument", () => {
  type Row = { name: string; n: number | null };
  const columns: CsvColumn<Row>[] = [
    { header: "Name", value: (r) => r.name },
    { header: "Count", value: (r) => r.n },
  ];

  it("starts with a UTF-8 byte-order mark and a header line", () => {
    const text = csvDocument(columns, [{ name: "Pérez", n: 3 }, { name: "Ana", n: null }]);
    expect(text).toBe(`${CSV_BOM}Name,Count\r\nPérez,3\r\nAna,\r\n`);
    expect([...new TextEncoder().encode(text).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it("can leave the mark out", () => {
    expect(csvDocument(columns, [], { bom: false })).toBe("Name,Count\r\n");
  });
});

describe("csvStream", () => {
  type Row = { id: number; label: string };
  const columns: CsvColumn<Row>[] = [
    { header: "Id", value: (r) => r.id },
    { header: "Label", value: (r) => r.label },
  ];

  /** A table of `total` rows read by keyset (id > cursor), recording every page request. */
  function table(total: number, failOnPage?: number) {
    const calls: (number | null)[] = [];
    const readPage = async (cursor: number | null, limit: number): Promise<Row[]> => {
      calls.push(cursor);
      if (failOnPage !== undefined && calls.length === failOnPage) throw new Error("database went away");
      const from = (cursor ?? 0) + 1;
      const to = Math.min(total, from + limit - 1);
      return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => ({ id: from + i, label: `row ${from + i}` }));
    };
    return { calls, readPage };
  }

  it("writes every row once, in order, asking for each page after the last row sent", async () => {
    const { calls, readPage } = table(2500);
    const text = await readAll(csvStream({ columns, readPage, cursorOf: (r) => r.id, pageSize: 1000 }));
    const rows = parse(text);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(rows[0]).toEqual(["Id", "Label"]);
    expect(rows.length).toBe(2501);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(calls).toEqual([null, 1000, 2000]);
  });

  it("ends after an empty page when the row count is a multiple of the page size", async () => {
    const { calls, readPage } = table(2000);
    const rows = parse(await readAll(csvStream({ columns, readPage, cursorOf: (r) => r.id, pageSize: 1000 })));
    expect(rows.length).toBe(2001);
    expect(calls).toEqual([null, 1000, 2000]);
  });

  it("is only a header line when there are no rows", async () => {
    const { readPage } = table(0);
    expect(await readAll(csvStream({ columns, readPage, cursorOf: (r) => r.id }))).toBe(`${CSV_BOM}Id,Label\r\n`);
  });

  it("reads pages only as fast as the client reads: a client that stops stops the queries", async () => {
    const { calls, readPage } = table(1_000_000);
    const reader = csvStream({ columns, readPage, cursorOf: (r) => r.id, pageSize: 100 }).getReader();
    await reader.read(); // header
    await reader.read(); // first page
    await reader.read(); // second page
    await reader.cancel();
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Two pages read, and at most one more queued ahead: never the 10,000 pages of the table.
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it("a client that goes away while a page is read gets no error reported and no page read ahead", async () => {
    const asked: (number | null)[] = [];
    const slowPage = async (cursor: number | null, limit: number) => {
      asked.push(cursor);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const from = (cursor ?? 0) + 1;
      return Array.from({ length: limit }, (_, i) => ({ id: from + i, label: `row ${from + i}` }));
    };
    const errors: unknown[] = [];
    const reader = csvStream({ columns, readPage: slowPage, cursorOf: (r) => r.id, pageSize: 100, onError: (e) => errors.push(e) }).getReader();
    await reader.read(); // header; the first page is being read
    const pending = reader.read();
    await reader.cancel();
    expect((await pending).done).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(errors).toEqual([]);
    expect(asked).toEqual([null]);
  });

  it("fails the download (and reports it) when a page cannot be read", async () => {
    const { readPage } = table(5000, 2);
    const errors: unknown[] = [];
    const stream = csvStream({ columns, readPage, cursorOf: (r) => r.id, pageSize: 1000, onError: (e) => errors.push(e) });
    await expect(readAll(stream)).rejects.toThrow("database went away");
    expect(errors).toHaveLength(1);
  });
});

describe("csvResponse", () => {
  it("answers a CSV download that is never cached", async () => {
    const res = csvResponse("a,b\r\n", "call-report-2026-11-01-to-2026-11-22.csv");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="call-report-2026-11-01-to-2026-11-22.csv"');
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe("a,b\r\n");
  });

  it("keeps header-breaking characters out of the file name", () => {
    expect(safeFileName('daily-report-2026-11-22-"MIAMI"\r\n.csv')).toBe("daily-report-2026-11-22-MIAMI.csv");
    expect(safeFileName("///")).toBe("report.csv");
    expect(safeFileName("../../etc/passwd")).toBe("etc-passwd");
  });
});
