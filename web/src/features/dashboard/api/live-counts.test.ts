// The dashboard's figures following the live feed: only the cached figures a message moves, over
// dates that include its day, are read again, once per burst.
import { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CallLogView } from "@shared/schemas/call-logs";
import type { LiveMessage } from "@shared/schemas/live";
import { aircallQueries, appointmentQueries, callLogCountQueries, callVolumeQueryOptions, leadSummaryQueryOptions } from "./dashboard";
import { createFigureRefresher, figureCovers, LIVE_COUNTS_DELAY_MS } from "./live-counts";

// 15:00 UTC on 11 March 2026 is 11:00 in New York.
const callOn = (startTime: string): LiveMessage => ({
  type: "call",
  cursor: "1",
  call: { id: 1, user_id: "u1", call_id: "c", phone_number: null, start_time: startTime, duration: 0, status: "ringing", summary: null, ended_reason: null, direction: "inbound", agent_id: null, recording_url: null } satisfies CallLogView,
});

const today = { startDate: "2026-03-11", endDate: "2026-03-11" };
const lastWeek = { startDate: "2026-03-01", endDate: "2026-03-07" };

function cache() {
  const queryClient = new QueryClient();
  const keys: (readonly unknown[])[] = [
    ...callLogCountQueries({ ...today, callType: "Outbound" }, 0).map((q) => q.queryKey),
    ...callLogCountQueries({ ...today, agent: "asst-1", callType: "Both" }, 0).map((q) => q.queryKey),
    ...callLogCountQueries({ ...lastWeek, callType: "Outbound" }, 0).map((q) => q.queryKey),
    callVolumeQueryOptions({ ...today, callType: "Outbound" }, 0).queryKey,
    ...aircallQueries(today, 0).map((q) => q.queryKey),
    ...appointmentQueries(today, 0).map((q) => q.queryKey),
    leadSummaryQueryOptions(today, 0).queryKey,
  ];
  for (const key of keys) queryClient.setQueryData(key, { count: 1 });
  const invalidated = () =>
    queryClient
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.isInvalidated)
      .map((q) => String(q.queryKey[0]));
  return { queryClient, invalidated };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("figureCovers", () => {
  it("matches a figure's path and dates that include the day", () => {
    const paths = new Set(["/api/call-logs/count"]);
    expect(figureCovers(["/api/call-logs/count?dateFilterType=range&startDate=2026-03-01&endDate=2026-03-11&callType=Both", 0], paths, "2026-03-11")).toBe(true);
    expect(figureCovers(["/api/call-logs/count?dateFilterType=range&startDate=2026-03-01&endDate=2026-03-10", 0], paths, "2026-03-11")).toBe(false);
    expect(figureCovers(["/api/voicemail-count?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11", 0], paths, "2026-03-11")).toBe(false);
    expect(figureCovers(["/api/call-logs", "pages"], paths, "2026-03-11")).toBe(false);
  });
});

describe("createFigureRefresher", () => {
  it("reads again today's call counts (every filter) and volume after a burst of call updates, once", async () => {
    vi.useFakeTimers();
    const { queryClient, invalidated } = cache();
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    const refresher = createFigureRefresher(queryClient);
    refresher.note(callOn("2026-03-11T15:00:00.000Z"));
    refresher.note(callOn("2026-03-11T15:00:00.000Z"));
    refresher.note({ type: "ready", cursor: "2" });
    await vi.advanceTimersByTimeAsync(LIVE_COUNTS_DELAY_MS - 1);
    expect(invalidated()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidated().sort()).toEqual(
      [
        ...["/api/call-logs/count", "/api/call-connected-count", "/api/voicemail-count", "/api/forwarded-count"].flatMap((p) => [
          `${p}?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11&callType=Outbound`,
          `${p}?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11&agent=asst-1&callType=Both`,
        ]),
        "/api/call-volume?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11&callType=Outbound",
      ].sort(),
    );
  });

  it("places a call on its New York day: 02:00 UTC on the 12th is still the 11th", async () => {
    vi.useFakeTimers();
    const { queryClient, invalidated } = cache();
    const refresher = createFigureRefresher(queryClient);
    refresher.note(callOn("2026-03-12T02:00:00.000Z"));
    await vi.advanceTimersByTimeAsync(LIVE_COUNTS_DELAY_MS);
    expect(invalidated().some((u) => u.startsWith("/api/call-logs/count?"))).toBe(true);
  });

  it("leaves figures over other dates alone", async () => {
    vi.useFakeTimers();
    const { queryClient, invalidated } = cache();
    const refresher = createFigureRefresher(queryClient);
    refresher.note(callOn("2026-03-09T15:00:00.000Z"));
    await vi.advanceTimersByTimeAsync(LIVE_COUNTS_DELAY_MS);
    expect(invalidated()).toEqual([]);
  });

  it("reads a store signal's section for its day only", async () => {
    vi.useFakeTimers();
    const { queryClient, invalidated } = cache();
    const refresher = createFigureRefresher(queryClient);
    refresher.note({ type: "store", kind: "aircall", day: "2026-03-11" });
    await vi.advanceTimersByTimeAsync(LIVE_COUNTS_DELAY_MS);
    expect(invalidated().every((u) => u.startsWith("/api/aircall/"))).toBe(true);
    expect(invalidated()).toHaveLength(4);
    refresher.note({ type: "store", kind: "lead", day: "2026-03-11" });
    refresher.note({ type: "store", kind: "appointment", day: "2026-03-10" });
    await vi.advanceTimersByTimeAsync(LIVE_COUNTS_DELAY_MS);
    expect(invalidated().filter((u) => !u.startsWith("/api/aircall/"))).toEqual(["/api/lead-counts/summary?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11"]);
  });

  it("reads nothing after it is disposed", async () => {
    vi.useFakeTimers();
    const { queryClient, invalidated } = cache();
    const refresher = createFigureRefresher(queryClient);
    refresher.note(callOn("2026-03-11T15:00:00.000Z"));
    refresher.dispose();
    await vi.advanceTimersByTimeAsync(LIVE_COUNTS_DELAY_MS);
    expect(invalidated()).toEqual([]);
  });
});
