import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { USAGE_STATS_RETRIES } from "@shared/constants";
import { PHONE_TEXT, PLAN_TEXT } from "@shared/messages";
import { createQueryClient } from "@web/lib/query-client";
import { BuyNumberPanel } from "./buy-number-panel";

const usage = { callsThisMonth: 3, minutesThisMonth: 4.5, minuteLimit: 1000, agents: 1, agentLimit: 5, numbers: 2, numberLimit: 9, plan: "basic", planState: "subscribed", planRequired: false };

/** Answers the panel's two reads; `usageOk` decides whether usage stats load. */
function stubReads(state: { usageOk: boolean }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input);
    if (path === "/api/admin/config/phone-limit") return Response.json({ phoneNumberLimit: 9 });
    if (path === "/api/usage-stats") {
      return state.usageOk ? Response.json(usage) : new Response('{"error":"Database unavailable"}', { status: 503 });
    }
    return Response.json({ error: "Not found" }, { status: 404 });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("BuyNumberPanel usage bar", () => {
  it("says when the usage cannot be loaded, instead of a placeholder that never ends, and can try again", async () => {
    const state = { usageOk: false };
    const fetchMock = stubReads(state);
    // Usage stats are retried (docs/product/constants.md#business-constants) with growing pauses: let the clock run through them.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <BuyNumberPanel />
      </QueryClientProvider>,
    );
    const usageCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === "/api/usage-stats").length;
    for (let i = 0; i < 6 && usageCalls() <= USAGE_STATS_RETRIES; i++) await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByText(PHONE_TEXT.usageFailed)).toBeTruthy();
    expect(screen.queryByRole("progressbar")).toBeNull();

    state.usageOk = true;
    await act(async () => fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.retry })));
    await waitFor(() => expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe(PHONE_TEXT.usageCount(2, 9)));
    expect(screen.queryByText(PHONE_TEXT.usageFailed)).toBeNull();
  });
});

describe("BuyNumberPanel without a plan", () => {
  it("says before a search that buying a number needs a plan, with the way to the plans", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL) =>
        String(input) === "/api/usage-stats" ? Response.json({ ...usage, plan: null, planState: "none", minuteLimit: null, planRequired: true }) : Response.json({ phoneNumberLimit: 9 }),
      ),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <BuyNumberPanel email="new@store.example" />
      </QueryClientProvider>,
    );
    const notice = await screen.findByRole("region", { name: PLAN_TEXT.requiredTitle });
    expect(notice.textContent).toContain(PLAN_TEXT.requiredText);
    expect(screen.getByRole("link", { name: PLAN_TEXT.choosePlan }).getAttribute("href")).toBe("/buy?email=new%40store.example");
  });
});
