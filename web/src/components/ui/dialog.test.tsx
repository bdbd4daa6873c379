import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "./dialog";

/** A dialog opened from state, with no Trigger: the row's button only sets what is chosen. */
function Rows({ fallback }: { fallback?: boolean }) {
  const [rows, setRows] = useState(["a", "b"]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <button type="button">Search</button>
      <ul>
        {rows.map((r) => (
          <li key={r}>
            <button type="button" onClick={() => setOpen(r)}>
              Open {r}
            </button>
          </li>
        ))}
      </ul>
      <Dialog open={open !== null} onOpenChange={(o) => !o && setOpen(null)}>
        <DialogContent fallbackFocus={fallback ? () => screen.queryByRole("button", { name: "Search" }) : undefined}>
          <DialogTitle>Row {open}</DialogTitle>
          <DialogDescription>Details</DialogDescription>
          <button type="button" onClick={() => setRows((all) => all.filter((r) => r !== open))}>
            Remove
          </button>
        </DialogContent>
      </Dialog>
    </>
  );
}

describe("DialogContent focus", () => {
  it("gives focus back to the control that opened it, with no Trigger", async () => {
    render(<Rows />);
    const opener = screen.getByRole("button", { name: "Open b" });
    act(() => opener.focus());
    fireEvent.click(opener);
    await screen.findByRole("dialog");
    await waitFor(() => expect(screen.getByRole("dialog").contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it("sends focus to its fallback when the opener has left the page", async () => {
    render(<Rows fallback />);
    const opener = screen.getByRole("button", { name: "Open a" });
    act(() => opener.focus());
    fireEvent.click(opener);
    fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
    await waitFor(() => expect(opener.isConnected).toBe(false));
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Search" })));
  });
});
