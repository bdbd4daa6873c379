import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Button } from "./button";

describe("Button", () => {
  it("is disabled as usual when it does not have focus", () => {
    const onClick = vi.fn();
    render(
      <Button onClick={onClick} disabled>
        Save
      </Button>,
    );
    const button = screen.getByRole("button", { name: "Save" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute("aria-disabled")).toBeNull();
  });

  it("keeps focus when it turns busy while focused: aria-disabled, presses ignored, disabled once focus moves on", () => {
    const onClick = vi.fn();
    const { rerender } = render(
      <>
        <Button onClick={onClick}>Activate</Button>
        <Button>Other</Button>
      </>,
    );
    const button = screen.getByRole("button", { name: "Activate" }) as HTMLButtonElement;
    act(() => button.focus());
    rerender(
      <>
        <Button onClick={onClick} disabled>
          Activate
        </Button>
        <Button>Other</Button>
      </>,
    );
    expect(document.activeElement).toBe(button);
    expect(button.disabled).toBe(false);
    expect(button.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();

    act(() => (screen.getByRole("button", { name: "Other" }) as HTMLButtonElement).focus());
    expect(button.disabled).toBe(true);
    expect(button.getAttribute("aria-disabled")).toBeNull();
  });

  it("does not submit its form while busy and focused", () => {
    const onSubmit = vi.fn((e: { preventDefault(): void }) => e.preventDefault());
    const { rerender } = render(
      <form onSubmit={onSubmit}>
        <Button type="submit">Save</Button>
      </form>,
    );
    const button = screen.getByRole("button", { name: "Save" });
    act(() => button.focus());
    rerender(
      <form onSubmit={onSubmit}>
        <Button type="submit" disabled>
          Save
        </Button>
      </form>,
    );
    fireEvent.click(button);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
