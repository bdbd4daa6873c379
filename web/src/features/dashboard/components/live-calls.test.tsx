// The dashboard's live list of today's calls: read once the feed is live, then kept current by it;
// calls of other days stay out; nothing shows while the feed is off (signed out).
import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LIVE_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { createQueryClient } from "@web/lib/query-client";
import { FakeWebSocket, installLiveFeed, uninstallLiveFeed } from "@web/test/fake-socket";
import { LiveCalls } from "./live-calls";

const now = Date.now();
const call = (id: number, startTime: string, extra: Partial<CallLogView> = {}): CallLogView => ({
  id,
  user_id: "u1",
  call_id: `call-${id}`,
  phone_number: `+1512555010${id}`,
  start_time: startTime,
  duration: 0,
  status: "ended",
  summary: null,
  ended_reason: null,
  direction: "inbound",
  agent_id: null,
  recording_url: null,
  ...extra,
});

const earlierToday = new Date(now - 1000).toISOString();
const twoDaysAgo = new Date(now - 2 * 86_400_000).toISOString();

function stubApi() {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === "/api/live/ticket") return Response.json({ ticket: "u1.s", expiresInSeconds: 30, store: false });
    if (url === "/api/call-logs?limit=20") return Response.json({ logs: [call(1, earlierToday, { duration: 42 }), call(9, twoDaysAgo)], nextCursor: null });
    return Response.json({ error: "not found" }, { status: 404 });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const renderList = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <LiveCalls />
    </QueryClientProvider>,
  );

afterEach(() => {
  uninstallLiveFeed();
  vi.unstubAllGlobals();
});

describe("LiveCalls", () => {
  it("shows nothing and opens nothing when signed out", async () => {
    uninstallLiveFeed();
    const fetchMock = stubApi();
    renderList();
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId("live-calls")).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("lists today's calls once live and adds a new one at the top as it starts", async () => {
    installLiveFeed("u1");
    const fetchMock = stubApi();
    renderList();
    await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    // Not read before the feed is live.
    expect(fetchMock.mock.calls.map(([u]) => u)).not.toContain("/api/call-logs?limit=20");
    act(() => FakeWebSocket.last()!.send({ type: "ready", cursor: "3" }));
    const list = await screen.findByRole("list", { name: LIVE_TEXT.todayCalls });
    expect(within(list).getAllByRole("listitem")).toHaveLength(1);
    expect(list.textContent).toContain("0m 42s");
    expect(list.textContent).toContain(LIVE_TEXT.inbound);

    act(() => FakeWebSocket.last()!.send({ type: "call", cursor: "4", call: call(2, new Date(now).toISOString(), { status: "ringing", direction: "outbound" }) }));
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(2));
    const first = within(list).getAllByRole("listitem")[0]!;
    expect(first.textContent).toContain("ringing");
    expect(first.textContent).toContain(LIVE_TEXT.outbound);
    act(() => FakeWebSocket.last()!.send({ type: "call", cursor: "5", call: call(2, new Date(now).toISOString(), { status: "ended", direction: "outbound", duration: 61 }) }));
    await waitFor(() => expect(within(list).getAllByRole("listitem")[0]!.textContent).toContain("1m 1s"));
    expect(within(list).getAllByRole("listitem")).toHaveLength(2);
  });
});
