import { act, render, screen } from "@testing-library/react";
import { useRef, useState } from "react";
import { describe, expect, it } from "vitest";
import { useRefocusOnSwap } from "./focus";

/** Assign turns into Unassign and back, as in the Agents screen's number rows. */
function Row() {
  const [assigned, setAssigned] = useState(false);
  const row = useRef<HTMLDivElement>(null);
  useRefocusOnSwap(row, assigned);
  return (
    <>
      <button type="button">Elsewhere</button>
      <div ref={row}>
        <span>Front desk</span>
        {assigned ? (
          <button type="button" key="unassign" onClick={() => setAssigned(false)}>
            Unassign
          </button>
        ) : (
          <button type="button" key="assign" onClick={() => setAssigned(true)}>
            Assign
          </button>
        )}
      </div>
    </>
  );
}

describe("useRefocusOnSwap", () => {
  it("moves focus to the control that replaced the focused one", () => {
    render(<Row />);
    const assign = screen.getByRole("button", { name: "Assign" });
    act(() => assign.focus());
    act(() => assign.click());
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Unassign" }));
    act(() => screen.getByRole("button", { name: "Unassign" }).click());
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Assign" }));
  });

  it("leaves focus alone when it is somewhere else", () => {
    render(<Row />);
    const elsewhere = screen.getByRole("button", { name: "Elsewhere" });
    act(() => elsewhere.focus());
    act(() => screen.getByRole("button", { name: "Assign" }).click());
    expect(document.activeElement).toBe(elsewhere);
  });

  it("leaves focus where the browser put it when the part first arrives (a null key before)", () => {
    function Loading() {
      const [loaded, setLoaded] = useState(false);
      const part = useRef<HTMLDivElement>(null);
      useRefocusOnSwap(part, loaded ? "card-1" : null);
      return (
        <div ref={part}>
          {loaded ? <button type="button">Edit</button> : <button type="button" onClick={() => setLoaded(true)}>Load</button>}
        </div>
      );
    }
    render(<Loading />);
    act(() => screen.getByRole("button", { name: "Load" }).click());
    // The page's first content is in; focus stays on the page, as after any page load.
    expect(document.activeElement).toBe(document.body);
  });
});
