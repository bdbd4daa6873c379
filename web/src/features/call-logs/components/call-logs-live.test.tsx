// /call-logs on the live feed: a call appears at the top the moment it starts and changes in place
// until its report arrives, without a reload; the connection's state is shown in a polite status.
import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LIVE_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { createQueryClient } from "@web/lib/query-client";
import { FakeWebSocket, installLiveFeed, uninstallLiveFeed } from "@web/test/fake-socket";
import { CallLogsPage } from "./call-logs-page";

const log = (id: number, start: string, extra: Partial<CallLogView> = {}): CallLogView => ({
  id,
  user_id: "u1",
  call_id: `call-${id}`,
  phone_number: `+1305555010${id}`,
  start_time: `2026-03-10T${start}:00.000Z`,
  duration: 0,
  status: "ended",
  summary: `Summary ${id}`,
  ended_reason: null,
  direction: "inbound",
  agent_id: null,
  recording_url: null,
  ...extra,
});

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

function stubApi() {
  const fetchMock = vi.fn(async (url: string) => {
    if (url.startsWith("/api/usage-stats")) return json({ callsThisMonth: 1, minutesThisMonth: 1, agents: 1, agentLimit: null, numbers: 1, numberLimit: 9 });
    if (url === "/api/live/ticket") return json({ ticket: "u1.secret", expiresInSeconds: 30, store: false });
    return json({ logs: [log(2, "14:00"), log(1, "13:00")], nextCursor: null });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const rowsText = () =>
  screen
    .getAllByRole("row")
    .slice(1)
    .map((r) => r.textContent ?? "");

beforeEach(() => installLiveFeed("u1"));

afterEach(() => {
  uninstallLiveFeed();
  vi.unstubAllGlobals();
});

describe("CallLogsPage live", () => {
  it("shows a call appear at the top and change state until it ends, listed once", async () => {
    stubApi();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <CallLogsPage />
      </QueryClientProvider>,
    );
    expect(await screen.findByText("Summary 2")).toBeTruthy();
    await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    const socket = FakeWebSocket.last()!;
    const status = screen.getAllByRole("status").find((el) => el.hasAttribute("data-status"))!;
    expect(status.getAttribute("aria-live")).toBe("polite");
    act(() => socket.send({ type: "ready", cursor: "10" }));
    await waitFor(() => expect(within(status).getByText(LIVE_TEXT.live)).toBeTruthy());

    act(() => socket.send({ type: "call", cursor: "11", call: log(3, "15:00", { status: "ringing", summary: null }) }));
    await waitFor(() => expect(rowsText()[0]).toContain("ringing"));
    expect(rowsText()).toHaveLength(3);
    act(() => socket.send({ type: "call", cursor: "12", call: log(3, "15:00", { status: "in-progress", summary: null }) }));
    await waitFor(() => expect(rowsText()[0]).toContain("in-progress"));
    act(() => socket.send({ type: "call", cursor: "13", call: log(3, "15:00", { status: "ended", duration: 125, summary: "Asked for a quote" }) }));
    await waitFor(() => expect(rowsText()[0]).toContain("Asked for a quote"));
    expect(rowsText()[0]).toContain("2m 5s");
    expect(rowsText()).toHaveLength(3);
    expect(screen.getAllByText("Asked for a quote")).toHaveLength(1);

    act(() => socket.drop());
    await waitFor(() => expect(within(status).getByText(LIVE_TEXT.reconnecting)).toBeTruthy());
  });

  it("says live updates are paused when the server refuses one more connection, and why", async () => {
    stubApi();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <CallLogsPage />
      </QueryClientProvider>,
    );
    expect(await screen.findByText("Summary 2")).toBeTruthy();
    await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    const status = screen.getAllByRole("status").find((el) => el.hasAttribute("data-status"))!;
    // Too many sockets on the account or its sign-in (LIVE_CLOSE.tooMany).
    act(() => FakeWebSocket.last()!.drop(4429));
    await waitFor(() => expect(within(status).getByText(LIVE_TEXT.limited)).toBeTruthy());
    expect(status.getAttribute("data-status")).toBe("limited");
  });
});
