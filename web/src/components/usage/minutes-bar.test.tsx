import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MINUTES_TEXT } from "@shared/messages";
import type { UsageStats } from "@shared/schemas/agents";
import { createQueryClient } from "@web/lib/query-client";
import { MinutesBar } from "./minutes-bar";
import { UsageFigures } from "./usage-figures";

const fill = (container: HTMLElement) => {
  const bar = container.querySelector('[role="progressbar"]');
  if (!bar?.firstElementChild) throw new Error("no progress bar");
  return bar.firstElementChild as HTMLElement;
};

afterEach(() => vi.unstubAllGlobals());

describe("MinutesBar: minutes this month against the plan's cap (docs/product/constants.md#business-constants usage colours)", () => {
  it("is green below 80 %", () => {
    const { container } = render(<MinutesBar stats={{ minutesThisMonth: 799.9, minuteLimit: 1000 }} />);
    expect(fill(container).className).toContain("bg-success");
    expect(screen.getByText(MINUTES_TEXT.usedOf(799.9, 1000))).toBeTruthy();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("turns yellow from 80 % and says so", () => {
    const { container } = render(<MinutesBar stats={{ minutesThisMonth: 800, minuteLimit: 1000 }} />);
    expect(fill(container).className).toContain("bg-warning");
    expect(screen.getByRole("status").textContent).toBe(MINUTES_TEXT.warning(1000));
  });

  it("turns red at the limit, counted in whole minutes as the test calls' limit counts them", () => {
    const below = render(<MinutesBar stats={{ minutesThisMonth: 4999.9, minuteLimit: 5000 }} />);
    expect(fill(below.container).className).toContain("bg-warning");
    below.unmount();
    const { container } = render(<MinutesBar stats={{ minutesThisMonth: 5000, minuteLimit: 5000 }} />);
    expect(fill(container).className).toContain("bg-destructive");
    expect(screen.getByRole("status").textContent).toBe(MINUTES_TEXT.full(5000));
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe(MINUTES_TEXT.usedOf(5000, 5000));
  });

  it("shows the minutes without a bar when there is no plan", () => {
    render(<MinutesBar stats={{ minutesThisMonth: 12, minuteLimit: null }} />);
    expect(screen.queryByRole("progressbar")).toBeNull();
    expect(screen.getByText(MINUTES_TEXT.noPlan)).toBeTruthy();
  });

  it("puts the cap and its bar on the usage figures' minutes", async () => {
    const stats: UsageStats = { callsThisMonth: 40, minutesThisMonth: 850.5, minuteLimit: 1000, agents: 2, agentLimit: 5, numbers: 1, numberLimit: 9, plan: "basic", planState: "subscribed", planRequired: false };
    vi.stubGlobal("fetch", vi.fn(async () => Response.json(stats)));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <UsageFigures />
      </QueryClientProvider>,
    );
    const tile = (await screen.findByText("850.5 / 1,000")).parentElement!;
    const bar = within(tile).getByRole("progressbar");
    expect(bar.getAttribute("aria-valuetext")).toBe(MINUTES_TEXT.usedOf(850.5, 1000));
    expect((bar.firstElementChild as HTMLElement).className).toContain("bg-warning");
  });
});
