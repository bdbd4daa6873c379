// Live calls applied to the cached call log: upsert by id in start_time order, never twice, the
// pages' boundaries respected, resync reads the lists again, and a list answer that left before a
// live call arrived does not put the older row back.
import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CallLogsResponse, CallLogView } from "@shared/schemas/call-logs";
import { LiveFeed, type LiveSocket } from "@web/lib/live/feed";
import { ringingCall as row } from "@web/test/call-logs";
import { callLogKeys } from "./call-logs";
import { bindCallLogCache, upsertIntoList, upsertIntoPages, USAGE_REFRESH_DELAY_MS } from "./call-logs-live";
import { usageStatsKeys } from "./usage-stats";

const pages = (...ps: { logs: CallLogView[]; nextCursor: string | null }[]): InfiniteData<CallLogsResponse, unknown> => ({
  pages: ps,
  pageParams: ps.map((_, i) => (i === 0 ? null : `c${i}`)),
});
const ids = (d: InfiniteData<CallLogsResponse, unknown>) => d.pages.map((p) => p.logs.map((l) => l.id));

describe("upsertIntoPages", () => {
  const data = pages({ logs: [row(5, "15:00"), row(4, "14:00")], nextCursor: "c1" }, { logs: [row(3, "13:00"), row(2, "12:00")], nextCursor: "c2" });

  it("puts a new call at the top", () => {
    expect(ids(upsertIntoPages(data, row(6, "16:00")))).toEqual([
      [6, 5, 4],
      [3, 2],
    ]);
  });

  it("puts a call in start_time order, within the page it belongs to", () => {
    expect(ids(upsertIntoPages(data, row(7, "12:30")))).toEqual([
      [5, 4],
      [3, 7, 2],
    ]);
  });

  it("orders equal start times by id, newest first", () => {
    expect(ids(upsertIntoPages(data, row(9, "14:00")))).toEqual([
      [5, 9, 4],
      [3, 2],
    ]);
  });

  it("leaves out a call older than every loaded row while more pages remain ('Load more' brings it)", () => {
    expect(upsertIntoPages(data, row(1, "11:00"))).toBe(data);
  });

  it("appends an older call when the whole log is loaded", () => {
    const all = pages({ logs: [row(5, "15:00")], nextCursor: null });
    expect(ids(upsertIntoPages(all, row(1, "11:00")))).toEqual([[5, 1]]);
    expect(ids(upsertIntoPages(pages({ logs: [], nextCursor: null }), row(1, "11:00")))).toEqual([[1]]);
  });

  it("changes a known call in place, never adding it twice", () => {
    const ended = row(3, "13:00", { status: "ended", duration: 95, summary: "Booked a visit" });
    const next = upsertIntoPages(data, ended);
    expect(ids(next)).toEqual([
      [5, 4],
      [3, 2],
    ]);
    expect(next.pages[1]!.logs[0]).toEqual(ended);
    expect(next.pages[0]).toBe(data.pages[0]);
    expect(upsertIntoPages(next, ended)).toBe(next);
  });

  it("moves a known call within its page when its start time changes", () => {
    expect(ids(upsertIntoPages(data, row(4, "15:30")))).toEqual([
      [4, 5],
      [3, 2],
    ]);
  });

  it("keeps every page's cursor", () => {
    const next = upsertIntoPages(data, row(6, "16:00"));
    expect(next.pages.map((p) => p.nextCursor)).toEqual(["c1", "c2"]);
    expect(next.pageParams).toEqual(data.pageParams);
  });
});

describe("upsertIntoList", () => {
  const list: CallLogsResponse = { logs: [row(5, "15:00"), row(4, "14:00")], nextCursor: null };

  it("adds a new call in order and changes a known one in place", () => {
    expect(upsertIntoList(list, row(6, "16:00")).logs.map((l) => l.id)).toEqual([6, 5, 4]);
    const next = upsertIntoList(list, row(4, "14:00", { status: "in-progress" }));
    expect(next.logs.map((l) => [l.id, l.status])).toEqual([
      [5, "ringing"],
      [4, "in-progress"],
    ]);
  });

  it("keeps the list at its length: the oldest falls off, and a call older than a full list stays out", () => {
    const full: CallLogsResponse = { logs: [row(5, "15:00"), row(4, "14:00")], nextCursor: "n" };
    expect(upsertIntoList(full, row(6, "16:00"), 2).logs.map((l) => l.id)).toEqual([6, 5]);
    expect(upsertIntoList(full, row(1, "11:00"), 2)).toBe(full);
  });
});

class FakeSocket implements LiveSocket {
  onopen: LiveSocket["onopen"] = null;
  onmessage: LiveSocket["onmessage"] = null;
  onclose: LiveSocket["onclose"] = null;
  onerror: LiveSocket["onerror"] = null;
  close() {}
  send(msg: unknown) {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

async function liveCache() {
  const sockets: FakeSocket[] = [];
  const feed = new LiveFeed({
    getTicket: async () => ({ ticket: "t", expiresInSeconds: 30, store: false }),
    openSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    socketUrl: () => "ws://x/api/live",
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
    random: () => 0.5,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  const unbind = bindCallLogCache(queryClient, feed);
  feed.setToken("token");
  feed.acquire();
  await new Promise((r) => setTimeout(r, 0));
  const socket = sockets[0]!;
  return { feed, queryClient, socket, unbind };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("bindCallLogCache", () => {
  it("upserts each call into the cached pages and recent calls, once", async () => {
    const { queryClient, socket } = await liveCache();
    queryClient.setQueryData(callLogKeys.pages, pages({ logs: [row(5, "15:00")], nextCursor: "c1" }));
    queryClient.setQueryData(callLogKeys.recent, { logs: [row(5, "15:00")], nextCursor: null });
    socket.send({ type: "ready", cursor: "1" });
    socket.send({ type: "call", cursor: "2", call: row(6, "16:00") });
    socket.send({ type: "call", cursor: "3", call: row(6, "16:00", { status: "in-progress" }) });
    socket.send({ type: "call", cursor: "4", call: row(6, "16:00", { status: "ended", duration: 61, summary: "Asked about hours" }) });
    const cached = queryClient.getQueryData<InfiniteData<CallLogsResponse, unknown>>(callLogKeys.pages)!;
    expect(cached.pages[0]!.logs.map((l) => [l.id, l.status, l.duration, l.summary])).toEqual([
      [6, "ended", 61, "Asked about hours"],
      [5, "ringing", 0, null],
    ]);
    const recent = queryClient.getQueryData<CallLogsResponse>(callLogKeys.recent)!;
    expect(recent.logs.map((l) => [l.id, l.status])).toEqual([
      [6, "ended"],
      [5, "ringing"],
    ]);
  });

  it("reads the call lists and usage again on resync", async () => {
    const { queryClient, socket } = await liveCache();
    const fetches: string[] = [];
    await queryClient.fetchInfiniteQuery({
      queryKey: callLogKeys.pages,
      queryFn: () => {
        fetches.push("pages");
        return { logs: [], nextCursor: null };
      },
      initialPageParam: null,
    });
    socket.send({ type: "ready", cursor: "1" });
    expect(queryClient.getQueryState(callLogKeys.pages)!.isInvalidated).toBe(true);
    queryClient.setQueryData(callLogKeys.pages, pages({ logs: [], nextCursor: null }));
    expect(queryClient.getQueryState(callLogKeys.pages)!.isInvalidated).toBe(false);
    queryClient.setQueryData(usageStatsKeys.all, { callsThisMonth: 1 });
    socket.send({ type: "resync", cursor: "99" });
    expect(queryClient.getQueryState(callLogKeys.pages)!.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(usageStatsKeys.all)!.isInvalidated).toBe(true);
  });

  it("lays the calls received while live over a list answer that left before them", async () => {
    const { queryClient, socket } = await liveCache();
    socket.send({ type: "ready", cursor: "1" });
    let answer!: (v: CallLogsResponse) => void;
    const pending = queryClient.fetchQuery({ queryKey: callLogKeys.recent, queryFn: () => new Promise<CallLogsResponse>((r) => (answer = r)) });
    socket.send({ type: "call", cursor: "2", call: row(6, "16:00", { status: "ended", duration: 30 }) });
    // The server read the call while it was still ringing.
    answer({ logs: [row(6, "16:00"), row(5, "15:00")], nextCursor: null });
    await pending;
    const recent = queryClient.getQueryData<CallLogsResponse>(callLogKeys.recent)!;
    expect(recent.logs.map((l) => [l.id, l.status])).toEqual([
      [6, "ended"],
      [5, "ringing"],
    ]);
  });

  it("reads the month's usage again shortly after calls change, once for a burst", async () => {
    vi.useFakeTimers();
    const { queryClient, socket } = await (async () => {
      const p = liveCache();
      await vi.advanceTimersByTimeAsync(0);
      return p;
    })();
    queryClient.setQueryData(usageStatsKeys.all, { callsThisMonth: 1 });
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    socket.send({ type: "ready", cursor: "1" });
    invalidate.mockClear();
    socket.send({ type: "call", cursor: "2", call: row(6, "16:00") });
    socket.send({ type: "call", cursor: "3", call: row(6, "16:00", { status: "ended" }) });
    await vi.advanceTimersByTimeAsync(USAGE_REFRESH_DELAY_MS - 1);
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: usageStatsKeys.all });
  });
});
