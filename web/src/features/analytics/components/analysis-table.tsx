// The analysis result table (docs/product/screens-and-routes.md#route-table): six sortable columns. A column's first click sorts it
// ascending, the next click toggles; choosing another column starts ascending again.
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useMemo, useState } from "react";
import { ANALYTICS_TEXT } from "@shared/messages";
import type { AnalysisItem } from "@shared/schemas/counts";
import { formatPhone, formatTimestamp } from "@shared/format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";

type Column = { key: keyof AnalysisItem; label: string };

export const ANALYSIS_COLUMNS: Column[] = [
  { key: "begin_utc", label: ANALYTICS_TEXT.appointmentDate },
  { key: "phone_number", label: ANALYTICS_TEXT.personNumber },
  { key: "customer_name", label: ANALYTICS_TEXT.customerName },
  { key: "matched_call", label: ANALYTICS_TEXT.callFound },
  { key: "call_date", label: ANALYTICS_TEXT.callDate },
  { key: "won", label: ANALYTICS_TEXT.won },
];

type Sort = { key: keyof AnalysisItem; dir: "asc" | "desc" } | null;

function compare(a: AnalysisItem[keyof AnalysisItem], b: AnalysisItem[keyof AnalysisItem]): number {
  if (typeof a === "boolean" || typeof b === "boolean") return Number(Boolean(a)) - Number(Boolean(b));
  // Empty values sort first ascending; ISO timestamps and phone numbers compare as text.
  return (a ?? "").localeCompare(b ?? "");
}

export function nextSort(sort: Sort, key: keyof AnalysisItem): Sort {
  if (sort?.key !== key) return { key, dir: "asc" };
  return { key, dir: sort.dir === "asc" ? "desc" : "asc" };
}

export function AnalysisTable({ items }: { items: AnalysisItem[] }) {
  const [sort, setSort] = useState<Sort>(null);
  const rows = useMemo(() => {
    if (!sort) return items;
    const sign = sort.dir === "asc" ? 1 : -1;
    return [...items].sort((x, y) => sign * compare(x[sort.key], y[sort.key]));
  }, [items, sort]);

  return (
    <Table>
      <TableHeader>
        <TableRow>
          {ANALYSIS_COLUMNS.map((c) => {
            const active = sort?.key === c.key;
            const Icon = !active ? ArrowUpDown : sort.dir === "asc" ? ArrowUp : ArrowDown;
            return (
              <TableHead key={c.key} aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : "none"}>
                <button type="button" className="inline-flex items-center gap-1 uppercase hover:text-foreground" onClick={() => setSort((s) => nextSort(s, c.key))}>
                  {c.label}
                  <Icon className="size-3.5" aria-hidden />
                </button>
              </TableHead>
            );
          })}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((item, i) => (
          <TableRow key={`${item.begin_utc}-${item.phone_number ?? ""}-${i}`}>
            <TableCell className="whitespace-nowrap tabular-nums">{formatTimestamp(item.begin_utc)}</TableCell>
            <TableCell className="whitespace-nowrap tabular-nums">{formatPhone(item.phone_number)}</TableCell>
            <TableCell>{item.customer_name?.trim() || <span className="text-muted-foreground">{ANALYTICS_TEXT.noName}</span>}</TableCell>
            <TableCell>{item.matched_call ? ANALYTICS_TEXT.yes : ANALYTICS_TEXT.no}</TableCell>
            <TableCell className="whitespace-nowrap tabular-nums">{item.call_date ? formatTimestamp(item.call_date) : ""}</TableCell>
            <TableCell>{item.won ? ANALYTICS_TEXT.true : ANALYTICS_TEXT.false}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
