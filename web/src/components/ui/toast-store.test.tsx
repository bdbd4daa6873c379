import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from "@shared/constants";
import { Toaster } from "./toaster";
import { dismissToast, resetToasts, toast, useToasts } from "@web/lib/toast-store";

function Probe() {
  const toasts = useToasts();
  return <output data-testid="count">{toasts.map((t) => `${t.title as string}:${t.open ? "open" : "closed"}`).join(",")}</output>;
}

afterEach(() => {
  act(() => resetToasts());
  vi.useRealTimers();
});

describe("toasts", () => {
  it("shows at most one toast: the newest replaces the previous", () => {
    expect(TOAST_LIMIT).toBe(1);
    render(<Toaster />);
    act(() => {
      toast({ title: "First" });
      toast({ title: "Second", description: "Newest wins" });
    });
    expect(screen.queryByText("First")).toBeNull();
    expect(screen.getByText("Second")).toBeTruthy();
    expect(screen.getByText("Newest wins")).toBeTruthy();
  });

  it("keeps a dismissed toast until the removal delay has passed", () => {
    vi.useFakeTimers();
    render(<Probe />);
    act(() => {
      const { id } = toast({ title: "Saved" });
      dismissToast(id);
    });
    expect(screen.getByTestId("count").textContent).toBe("Saved:closed");
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1));
    expect(screen.getByTestId("count").textContent).toBe("Saved:closed");
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId("count").textContent).toBe("");
  });

  it("renders the destructive variant for failures", () => {
    render(<Toaster />);
    act(() => {
      toast({ variant: "destructive", title: "Error", description: "Failed to log in" });
    });
    const title = screen.getByText("Error");
    expect(title.closest("li")?.className).toContain("destructive");
  });
});
