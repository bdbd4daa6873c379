// A CSV download read the way a spreadsheet program opens it, through SheetJS's CSV reader: what
// each cell becomes (text, number or formula) and the text it shows.
import * as XLSX from "xlsx";

export type SheetCell = {
  /** SheetJS's cell type: "s" text, "n" number, "b" boolean. */
  type: string;
  /** The cell's formula when the program would run one, else null. */
  formula: string | null;
  /** The value the cell holds (a number cell's number, a text cell's text). */
  value: unknown;
  /** What the cell shows: its text or number, without invisible characters (Unicode default-ignorable code points). */
  shown: string;
};

/**
 * The characters that make a text cell a formula in Excel, LibreOffice or Google Sheets when it is
 * typed or opened from a CSV. SheetJS's reader runs only '=' cells, so a text cell starting with
 * any of these counts as a formula here too.
 */
const FORMULA_LEAD = /^[=+\-@]/;

/** The rows of a CSV document (its byte-order mark included) as a spreadsheet reads them. */
export function readAsSpreadsheet(csv: string): SheetCell[][] {
  const book = XLSX.read(csv, { type: "string" });
  const sheet = book.Sheets[book.SheetNames[0]];
  const rows: SheetCell[][] = [];
  const range = XLSX.utils.decode_range(sheet["!ref"] ?? "A1");
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: SheetCell[] = [];
    for (let c = range.s.c; c <= range.e.c; c++) {
      const cell = sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
      const value = cell?.v ?? "";
      const text = String(value);
      const formula = cell?.f ?? (typeof value === "string" && FORMULA_LEAD.test(value) ? value : null);
      row.push({ type: cell?.t ?? "z", formula, value, shown: text.replace(/\p{Default_Ignorable_Code_Point}/gu, "") });
    }
    rows.push(row);
  }
  return rows;
}
