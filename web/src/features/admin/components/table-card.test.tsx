// The admin tables' frame: heading, header cells, rows, what shows under the rows, and 'Load more'
// only for a paged list with further pages.
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ADMIN_TEXT } from "@shared/messages";
import { TableCell, TableRow } from "@web/components/ui/table";
import { TableCard } from "./table-card";

const loaded = { isPending: false, isError: false, error: null };
const states = (query: { isPending: boolean; isError: boolean; error: unknown }, empty: boolean) => ({
  query,
  empty,
  loadingLabel: "Loading things",
  failedText: "Failed to load things",
  emptyText: "No things yet.",
});

describe("TableCard", () => {
  it("shows its heading, the column headings (with their classes) and the rows", () => {
    render(
      <TableCard title="Things" columns={["Name", { label: "Count", className: "text-right" }]} states={states(loaded, false)}>
        <TableRow>
          <TableCell>First</TableCell>
          <TableCell>3</TableCell>
        </TableRow>
      </TableCard>,
    );
    expect(screen.getByRole("heading", { level: 2, name: "Things" })).toBeTruthy();
    const headers = screen.getAllByRole("columnheader");
    expect(headers.map((h) => h.textContent)).toEqual(["Name", "Count"]);
    expect(headers[1].className).toContain("text-right");
    expect(within(screen.getByRole("table")).getByRole("cell", { name: "First" })).toBeTruthy();
    expect(screen.queryByText("No things yet.")).toBeNull();
    expect(screen.queryByRole("button", { name: ADMIN_TEXT.loadMore })).toBeNull();
  });

  it("shows the empty text, the error, and 'Load more' while a paged list has further pages", () => {
    const fetchNextPage = vi.fn();
    const { rerender } = render(
      <TableCard title="Things" columns={["Name"]} states={states(loaded, true)} more={{ hasNextPage: true, isFetchingNextPage: false, fetchNextPage }}>
        {null}
      </TableCard>,
    );
    expect(screen.getByText("No things yet.")).toBeTruthy();
    screen.getByRole("button", { name: ADMIN_TEXT.loadMore }).click();
    expect(fetchNextPage).toHaveBeenCalledOnce();

    rerender(
      <TableCard title="Things" columns={["Name"]} states={states({ isPending: false, isError: true, error: new Error("x") }, true)}>
        {null}
      </TableCard>,
    );
    expect(screen.getByRole("alert").textContent).toBeTruthy();
    expect(screen.queryByRole("button", { name: ADMIN_TEXT.loadMore })).toBeNull();
  });
});
