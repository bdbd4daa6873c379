// The frame of every admin table: a card with its heading (and anything beside it, such as a search),
// the table edge to edge (a list of cards on narrow screens), then what shows under the rows
// (loading, error, empty) and 'Load more' for a paged list.
import type { ComponentProps, ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { LoadMore, TableStates } from "./table-states";

/** A column heading: its text, or its text and the class of its header cell (e.g. right-aligned figures). */
export type TableCardColumn = string | { label: string; className?: string };

/**
 * Below the breakpoint the table reads as a list of cards, with no sideways scrolling: one card per
 * row, each cell a line of its column's label (the cell's `data-label`) and its value; the column
 * headings stay for screen readers only. Written out per breakpoint, as Tailwind needs whole class names.
 */
const STACKED = {
  md:
    "max-md:block max-md:[&_thead]:sr-only max-md:[&_tbody]:grid max-md:[&_tbody]:gap-3 max-md:[&_tbody]:p-4 " +
    "max-md:[&_tbody_tr]:grid max-md:[&_tbody_tr]:gap-2 max-md:[&_tbody_tr]:rounded-lg max-md:[&_tbody_tr]:border! max-md:[&_tbody_tr]:p-4 " +
    "max-md:[&_td]:flex max-md:[&_td]:min-w-0 max-md:[&_td]:items-center max-md:[&_td]:justify-between max-md:[&_td]:gap-4 max-md:[&_td]:p-0 max-md:[&_td]:text-right " +
    "max-md:[&_td]:before:shrink-0 max-md:[&_td]:before:text-left max-md:[&_td]:before:text-xs max-md:[&_td]:before:font-medium max-md:[&_td]:before:tracking-wide max-md:[&_td]:before:text-muted-foreground max-md:[&_td]:before:uppercase max-md:[&_td]:before:content-[attr(data-label)]",
  xl:
    "max-xl:block max-xl:[&_thead]:sr-only max-xl:[&_tbody]:grid max-xl:[&_tbody]:gap-3 max-xl:[&_tbody]:p-4 md:max-xl:[&_tbody]:grid-cols-2 " +
    "max-xl:[&_tbody_tr]:grid max-xl:[&_tbody_tr]:content-start max-xl:[&_tbody_tr]:gap-2 max-xl:[&_tbody_tr]:rounded-lg max-xl:[&_tbody_tr]:border! max-xl:[&_tbody_tr]:p-4 " +
    "max-xl:[&_td]:flex max-xl:[&_td]:min-w-0 max-xl:[&_td]:items-center max-xl:[&_td]:justify-between max-xl:[&_td]:gap-4 max-xl:[&_td]:p-0 max-xl:[&_td]:text-right " +
    "max-xl:[&_td]:before:shrink-0 max-xl:[&_td]:before:text-left max-xl:[&_td]:before:text-xs max-xl:[&_td]:before:font-medium max-xl:[&_td]:before:tracking-wide max-xl:[&_td]:before:text-muted-foreground max-xl:[&_td]:before:uppercase max-xl:[&_td]:before:content-[attr(data-label)] " +
    // As a table, narrower gaps between its many columns.
    "xl:[&_td]:px-2 xl:[&_th]:px-2",
} as const;

export function TableCard({ title, header, headerClassName, columns, stackBelow = "md", states, more, children }: {
  title: string;
  /** Beside the heading. */
  header?: ReactNode;
  headerClassName?: string;
  columns: readonly TableCardColumn[];
  /** Below this width the rows read as cards; each cell carries its column's label as `data-label`. */
  stackBelow?: keyof typeof STACKED;
  /** What shows under the rows while the first page loads, when it failed, or when there are none. */
  states: ComponentProps<typeof TableStates>;
  /** A paged list's query: 'Load more' shows while the server has further pages. */
  more?: ComponentProps<typeof LoadMore>["query"];
  /** The table's rows. */
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader className={headerClassName}>
        <CardTitle>{title}</CardTitle>
        {header}
      </CardHeader>
      <CardContent className="p-0 sm:p-0">
        <div>
          <Table className={STACKED[stackBelow]}>
            <TableHeader>
              <TableRow>
                {columns.map((col) => {
                  const { label, className } = typeof col === "string" ? { label: col, className: undefined } : col;
                  return (
                    <TableHead key={label} className={className}>
                      {label}
                    </TableHead>
                  );
                })}
              </TableRow>
            </TableHeader>
            <TableBody>{children}</TableBody>
          </Table>
        </div>
        <TableStates {...states} />
        {more ? <LoadMore query={more} /> : null}
      </CardContent>
    </Card>
  );
}
