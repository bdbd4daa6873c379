import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "./alert-dialog";
import { Button } from "./button";

/** An agent's Delete, as on the Agents screen: the confirmation removes the row its trigger sat in. */
function Agents() {
  const [agents, setAgents] = useState(["Front desk"]);
  return (
    <main id="main">
      <Button>Add New Agent</Button>
      {agents.map((name) => (
        <AlertDialog key={name}>
          <AlertDialogTrigger asChild>
            <Button>Delete</Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogTitle>Delete {name}?</AlertDialogTitle>
            <AlertDialogDescription>This action cannot be undone</AlertDialogDescription>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={() => setAgents([])}>Confirm</AlertDialogAction>
          </AlertDialogContent>
        </AlertDialog>
      ))}
    </main>
  );
}

describe("AlertDialog focus", () => {
  it("Cancel closes and gives focus back to the trigger", async () => {
    render(<Agents />);
    const trigger = screen.getByRole("button", { name: "Delete" });
    act(() => trigger.focus());
    fireEvent.click(trigger);
    fireEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it("when the confirmation removed its trigger, focus goes to the first control of the page's content", async () => {
    render(<Agents />);
    const trigger = screen.getByRole("button", { name: "Delete" });
    act(() => trigger.focus());
    fireEvent.click(trigger);
    fireEvent.click(await screen.findByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Add New Agent" })));
  });
});
