import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CALL_LOG_FILTER_TEXT, CALL_LOG_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { createQueryClient } from "@web/lib/query-client";
import { listedCall as log } from "@web/test/call-logs";
import { CallLogsPage } from "./call-logs-page";

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
const stats = { callsThisMonth: 1234, minutesThisMonth: 4567.5, agents: 2, agentLimit: null, numbers: 2, numberLimit: 9 };

/** A stand-in API: the first page has a cursor to a second page. */
function stubApi(firstPage: CallLogView[], nextCursor: string | null) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url.startsWith("/api/usage-stats")) return json(stats);
    const cursor = new URL(url, "http://x").searchParams.get("cursor");
    if (cursor === "c1") return json({ logs: [log(3, "Second page call")], nextCursor: null });
    return json({ logs: firstPage, nextCursor });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const renderPage = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <CallLogsPage />
    </QueryClientProvider>,
  );

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("CallLogsPage", () => {
  it("shows 'No call logs found. Try triggering a test call.' when there are none", async () => {
    stubApi([], null);
    renderPage();
    expect(await screen.findByText(CALL_LOG_TEXT.empty)).toBeTruthy();
    expect(screen.queryByRole("button", { name: CALL_LOG_TEXT.loadMore })).toBeNull();
  });

  it("loads the next page with the keyset cursor, and shows usage with thousands separators", async () => {
    const fetchMock = stubApi([log(1, "First call"), log(2, "Another call")], "c1");
    renderPage();
    expect(await screen.findByText("First call")).toBeTruthy();
    expect(await screen.findByText("1,234")).toBeTruthy();
    expect(screen.getByText("4,567.5")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: CALL_LOG_TEXT.loadMore }));
    expect(await screen.findByText("Second page call")).toBeTruthy();
    expect(screen.getByText("First call")).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain("/api/call-logs?limit=50&cursor=c1");
    await waitFor(() => expect(screen.queryByRole("button", { name: CALL_LOG_TEXT.loadMore })).toBeNull());
  });

  it("says which calls the month's figure counts: phone calls as on the dashboard, browser calls left out", async () => {
    stubApi([], null);
    renderPage();
    expect(await screen.findByText("Phone calls this month")).toBeTruthy();
    expect(screen.getByText(/browser calls are not among them/)).toBeTruthy();
  });

  it("keeps the rows it has when loading the next page fails", async () => {
    const fetchMock = stubApi([log(1, "First call")], "c1");
    renderPage();
    await screen.findByText("First call");
    fetchMock.mockImplementation(async (url: string) =>
      url.startsWith("/api/usage-stats") ? json(stats) : new Response("boom", { status: 500, statusText: "Internal Server Error" }),
    );
    fireEvent.click(screen.getByRole("button", { name: CALL_LOG_TEXT.loadMore }));
    await waitFor(() => expect(screen.getByRole("button", { name: CALL_LOG_TEXT.loadMore }).hasAttribute("disabled")).toBe(false));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url.includes("cursor=c1"))).toBe(true));
    expect(screen.getByText("First call")).toBeTruthy();
    expect(screen.queryByText(CALL_LOG_TEXT.retry)).toBeNull();
  });

  it("'Refresh Logs' asks again for the logs and the usage stats", async () => {
    const fetchMock = stubApi([log(1, "First call")], null);
    renderPage();
    await screen.findByText("First call");
    await screen.findByText("1,234");
    const count = (prefix: string) => fetchMock.mock.calls.filter(([url]) => url.startsWith(prefix)).length;
    const before = { logs: count("/api/call-logs"), stats: count("/api/usage-stats") };

    fireEvent.click(screen.getByRole("button", { name: CALL_LOG_TEXT.refresh }));
    await waitFor(() => {
      expect(count("/api/call-logs")).toBe(before.logs + 1);
      expect(count("/api/usage-stats")).toBe(before.stats + 1);
    });
  });

  it("asks for the filtered calls, says what the list is filtered by, and 'Show all calls' clears the filters", async () => {
    const fetchMock = vi.fn(async (url: string) => {
      if (url.startsWith("/api/usage-stats")) return json(stats);
      if (url.startsWith("/api/agents")) return json({ agents: [{ id: 7, name: "Front desk", vapi_assistant_id: "asst-front" }] });
      return json({ logs: [log(1, "Failed call")], nextCursor: null });
    });
    vi.stubGlobal("fetch", fetchMock);
    const onClear = vi.fn();
    const filters = { from: "2026-11-20T19:00:00.000Z", to: "2026-11-20T19:15:00.000Z", agent: "asst-front", outcome: "error" as const };
    render(
      <QueryClientProvider client={createQueryClient()}>
        <CallLogsPage filters={filters} onClearFilters={onClear} userId="user-1" />
      </QueryClientProvider>,
    );
    expect(await screen.findByText("Failed call")).toBeTruthy();
    const asked = fetchMock.mock.calls.map(([url]) => url).find((u) => u.startsWith("/api/call-logs?"));
    expect(Object.fromEntries(new URL(asked!, "http://x").searchParams)).toEqual({ limit: "50", ...filters });
    // New York is 5 hours behind UTC in November.
    await waitFor(() => expect(screen.getByTestId("call-log-filters").textContent).toContain("Errors · Agent Front desk · 2026-11-20 14:00–14:15 New York time"));
    fireEvent.click(screen.getByRole("button", { name: CALL_LOG_FILTER_TEXT.showAll }));
    expect(onClear).toHaveBeenCalledOnce();
  });

  it("shows no filter line for the whole log", async () => {
    stubApi([log(1, "First call")], null);
    renderPage();
    expect(await screen.findByText("First call")).toBeTruthy();
    expect(screen.queryByTestId("call-log-filters")).toBeNull();
  });
});
