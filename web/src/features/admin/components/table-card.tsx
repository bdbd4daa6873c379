// The frame of every admin table: a card with its heading (and anything beside it, such as a search),
// the table edge to edge, then what shows under the rows (loading, error, empty) and 'Load more' for
// a paged list.
import type { ComponentProps, ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { LoadMore, TableStates } from "./table-states";

/** A column heading: its text, or its text and the class of its header cell (e.g. right-aligned figures). */
export type TableCardColumn = string | { label: string; className?: string };

export function TableCard({ title, header, headerClassName, columns, states, more, children }: {
  title: string;
  /** Beside the heading. */
  header?: ReactNode;
  headerClassName?: string;
  columns: readonly TableCardColumn[];
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
          <Table>
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
