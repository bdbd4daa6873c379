import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { USAGE_BAR_WARNING_RATIO } from "@shared/constants";
import { PHONE_TEXT } from "@shared/messages";
import { usageLevel } from "@shared/usage";
import { UsageBar } from "./usage-bar";

function indicatorOf(container: HTMLElement) {
  const bar = container.querySelector('[role="progressbar"]');
  if (!bar?.firstElementChild) throw new Error("no progress indicator rendered");
  return bar.firstElementChild as HTMLElement;
}

describe("UsageBar", () => {
  it("is green below 80 % of the limit", () => {
    expect(USAGE_BAR_WARNING_RATIO).toBe(0.8);
    const { container } = render(<UsageBar count={79} limit={100} />);
    expect(indicatorOf(container).className).toContain("bg-success");
    expect(indicatorOf(container).style.width).toBe("79%");
    expect(screen.getByText(PHONE_TEXT.usageCount(79, 100))).toBeTruthy();
    expect(screen.queryByText(PHONE_TEXT.atLimit)).toBeNull();
  });

  it("turns yellow at 80 %", () => {
    const { container } = render(<UsageBar count={80} limit={100} />);
    expect(indicatorOf(container).className).toContain("bg-warning");
    expect(indicatorOf(container).className).not.toContain("bg-success");
  });

  it("turns red at the limit and says buying is blocked", () => {
    const { container } = render(<UsageBar count={100} limit={100} />);
    expect(indicatorOf(container).className).toContain("bg-destructive");
    expect(screen.getByText(PHONE_TEXT.atLimit)).toBeTruthy();
    const bar = screen.getByRole("progressbar");
    expect(bar.getAttribute("aria-valuenow")).toBe("100");
    expect(bar.getAttribute("aria-valuemax")).toBe("100");
  });

  it("uses the same thresholds for the default limit of 9", () => {
    expect(usageLevel(7, 9)).toBe("ok"); // 77.8 %
    expect(usageLevel(8, 9)).toBe("warning"); // 88.9 %
    expect(usageLevel(9, 9)).toBe("full");
    expect(usageLevel(12, 9)).toBe("full");
    expect(usageLevel(4, 5)).toBe("warning"); // exactly 80 %
  });
});
