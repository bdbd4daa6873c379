import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SubmitButton } from "./submit-button";

describe("SubmitButton", () => {
  it("submits its form, shows its icon and is enabled while not pending", () => {
    render(
      <SubmitButton pending={false} pendingLabel="Saving" icon={<svg data-testid="icon" />}>
        Save
      </SubmitButton>,
    );
    const button = screen.getByRole("button", { name: "Save" }) as HTMLButtonElement;
    expect(button.type).toBe("submit");
    expect(button.disabled).toBe(false);
    expect(screen.getByTestId("icon")).toBeTruthy();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("while pending: disabled, the spinner named for the action in the icon's place, the label kept", () => {
    render(
      <SubmitButton pending pendingLabel="Saving" icon={<svg data-testid="icon" />}>
        Save
      </SubmitButton>,
    );
    const button = screen.getByRole("button", { name: /Save/ }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.textContent).toBe("SavingSave");
    expect(screen.getByRole("status").textContent).toBe("Saving");
    expect(screen.queryByTestId("icon")).toBeNull();
  });

  it("stays disabled for its own reason when not pending, and draws a silent spinner without a pending label", () => {
    const { rerender } = render(
      <SubmitButton type="button" pending={false} disabled>
        Assign
      </SubmitButton>,
    );
    const button = screen.getByRole("button", { name: "Assign" }) as HTMLButtonElement;
    expect(button.type).toBe("button");
    expect(button.disabled).toBe(true);
    rerender(
      <SubmitButton type="button" pending>
        Assign
      </SubmitButton>,
    );
    expect(button.disabled).toBe(true);
    expect(screen.queryByRole("status")).toBeNull();
    expect(button.querySelector("svg.animate-spin")).not.toBeNull();
  });
});
