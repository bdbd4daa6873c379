// The test call panel on the live feed: it follows its call by the feed's messages and does not poll
// while the feed is live; it polls again when the feed drops.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TEST_CALL_POLL } from "@shared/constants";
import { AGENT_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { resetToasts } from "@web/lib/toast-store";
import { FakeWebSocket, installLiveFeed, uninstallLiveFeed } from "@web/test/fake-socket";
import { makeAgent, renderWithApp, stubApi, usageStats, voices } from "../test/render-agents";
import { AgentsPage } from "./agents-page";

const call = (status: string, extra: Partial<CallLogView> = {}): CallLogView => ({
  id: 41,
  user_id: "user-1",
  call_id: "sim_call_9",
  phone_number: "+15125550199",
  start_time: "2026-03-01T15:00:00.000Z",
  duration: 0,
  status,
  summary: null,
  ended_reason: null,
  direction: "outbound",
  agent_id: 7,
  recording_url: null,
  ...extra,
});

let ticketsAnswered = true;

function account() {
  ticketsAnswered = true;
  return stubApi({
    "GET /api/agents": { agents: [makeAgent({ id: 7, vapi_assistant_id: "asst_1" })] },
    "GET /api/usage-stats": usageStats,
    "GET /api/vapi/voices": voices,
    "GET /api/twilio/my-numbers": { numbers: [] },
    "POST /api/trigger-call": { success: true, callId: "sim_call_9" },
    "GET /api/call-logs?limit=20": { logs: [], nextCursor: null },
    "POST /api/live/ticket": () =>
      ticketsAnswered ? { ticket: "user-1.secret", expiresInSeconds: 30, store: false } : Response.json({ error: "down", code: "unavailable" }, { status: 503 }),
  });
}

async function placeCall() {
  await renderWithApp(<AgentsPage userId="user-1" />);
  fireEvent.change(await screen.findByLabelText(AGENT_TEXT.testCallNumberLabel), { target: { value: "+15125550199" } });
  await act(async () => fireEvent.click(screen.getByRole("button", { name: AGENT_TEXT.testCallButton })));
  await screen.findByTestId("latest-test-call");
}

beforeEach(() => installLiveFeed("user-1"));

afterEach(() => {
  act(() => resetToasts());
  uninstallLiveFeed();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("TestCall on the live feed", () => {
  it("opens no feed before a call is placed", async () => {
    const api = account();
    await renderWithApp(<AgentsPage userId="user-1" />);
    await screen.findByLabelText(AGENT_TEXT.testCallNumberLabel);
    expect(api.calls.some((c) => c.path === "/api/live/ticket")).toBe(false);
    expect(FakeWebSocket.opened).toHaveLength(0);
  });

  it("shows the call's states as the feed brings them, without polling", async () => {
    const api = account();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await placeCall();
    await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    const socket = FakeWebSocket.last()!;
    expect(new URL(socket.url).pathname).toBe("/api/live");
    expect(new URL(socket.url).searchParams.get("ticket")).toBe("user-1.secret");
    act(() => socket.send({ type: "ready", cursor: "5" }));
    const count = (path: string) => api.calls.filter((c) => c.method === "GET" && c.path === path).length;
    await waitFor(() => expect(count("/api/call-logs?limit=20")).toBeGreaterThan(0));
    // Settle the reads placing the call and going live made.
    await act(() => vi.advanceTimersByTimeAsync(100));
    const logsLive = count("/api/call-logs?limit=20");
    const latest = screen.getByTestId("latest-test-call");

    act(() => socket.send({ type: "call", cursor: "6", call: call("ringing") }));
    expect(await within(latest).findByText("ringing")).toBeTruthy();
    act(() => socket.send({ type: "call", cursor: "7", call: call("in-progress") }));
    expect(await within(latest).findByText("in-progress")).toBeTruthy();
    act(() => socket.send({ type: "call", cursor: "8", call: call("ended", { duration: 75, summary: "Booked" }) }));
    expect(await within(latest).findByText("ended")).toBeTruthy();
    expect(within(latest).getByText("1m 15s")).toBeTruthy();

    for (let i = 0; i < TEST_CALL_POLL.durationMs / TEST_CALL_POLL.intervalMs; i++) await act(() => vi.advanceTimersByTimeAsync(TEST_CALL_POLL.intervalMs));
    expect(count("/api/call-logs?limit=20")).toBe(logsLive);
  });

  it("polls again while the feed is down", async () => {
    const api = account();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await placeCall();
    await waitFor(() => expect(FakeWebSocket.opened).toHaveLength(1));
    act(() => FakeWebSocket.last()!.send({ type: "ready", cursor: "5" }));
    await act(() => vi.advanceTimersByTimeAsync(100));
    const count = () => api.calls.filter((c) => c.method === "GET" && c.path === "/api/call-logs?limit=20").length;
    const before = count();
    // The ticket requests fail from now on: the feed stays down.
    ticketsAnswered = false;
    act(() => FakeWebSocket.last()!.drop());
    await act(() => vi.advanceTimersByTimeAsync(TEST_CALL_POLL.intervalMs * 2));
    expect(count()).toBeGreaterThanOrEqual(before + 2);
  });
});
