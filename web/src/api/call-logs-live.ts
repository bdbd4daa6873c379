// The live feed's calls applied to the cached call log: the Call Logs pages and the recent calls (the
// test call panel, the dashboard's live list). A call is upserted by id: a new one takes its place in
// start_time order, a changed one is replaced where it is, and none is ever listed twice.
import { useQueryClient, type InfiniteData, type Query, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { CallLogsResponse, CallLogView } from "@shared/schemas/call-logs";
import type { LiveMessage } from "@shared/schemas/live";
import { liveFeed, useLiveFeed, type LiveStatus } from "@web/lib/live/live-feed";
import { callLogKeys, RECENT_CALLS_LIMIT } from "./call-logs";
import { usageStatsKeys } from "./usage-stats";

/** Newest first, as the server pages them: start_time, then id, both descending. */
export function compareCalls(a: CallLogView, b: CallLogView): number {
  const ta = Date.parse(a.start_time);
  const tb = Date.parse(b.start_time);
  if (ta !== tb) return tb - ta;
  return b.id - a.id;
}

function insertSorted(rows: readonly CallLogView[], call: CallLogView): CallLogView[] {
  const next = [...rows];
  const at = next.findIndex((row) => compareCalls(call, row) < 0);
  next.splice(at === -1 ? next.length : at, 0, call);
  return next;
}

/**
 * The pages with `call` upserted. A known id is replaced in its page (moved within it if its start
 * time changed). A new call goes into the first page whose last row it sorts before; after the last
 * loaded row only when nothing is left to load, since a later page ('Load more') would bring it again.
 * The pages' cursors stay as they were: each names its own last row, which is unchanged.
 */
export function upsertIntoPages(data: InfiniteData<CallLogsResponse, unknown>, call: CallLogView): InfiniteData<CallLogsResponse, unknown> {
  const pages = data.pages;
  const holder = pages.findIndex((p) => p.logs.some((row) => row.id === call.id));
  if (holder !== -1) {
    const page = pages[holder]!;
    const current = page.logs.find((row) => row.id === call.id)!;
    if (sameCall(current, call)) return data;
    const without = page.logs.filter((row) => row.id !== call.id);
    const logs = current.start_time === call.start_time ? page.logs.map((row) => (row.id === call.id ? call : row)) : insertSorted(without, call);
    return { ...data, pages: pages.map((p, i) => (i === holder ? { ...p, logs } : p)) };
  }
  let target = pages.findIndex((p) => {
    const last = p.logs[p.logs.length - 1];
    return last !== undefined && compareCalls(call, last) < 0;
  });
  const lastPage = pages[pages.length - 1];
  if (target === -1 && lastPage && lastPage.nextCursor === null) target = pages.length - 1;
  if (target === -1) return data;
  return { ...data, pages: pages.map((p, i) => (i === target ? { ...p, logs: insertSorted(p.logs, call) } : p)) };
}

/** The newest `limit` calls with `call` upserted: one that sorts past the last of a full list stays out. */
export function upsertIntoList(data: CallLogsResponse, call: CallLogView, limit: number = RECENT_CALLS_LIMIT): CallLogsResponse {
  const current = data.logs.find((row) => row.id === call.id);
  if (current && sameCall(current, call)) return data;
  const logs = insertSorted(
    data.logs.filter((row) => row.id !== call.id),
    call,
  );
  if (logs.length > limit) {
    const dropped = logs.splice(limit);
    // The list is the first page of a longer log: what fell off is behind its cursor again.
    if (dropped.some((row) => row.id === call.id)) return data;
    return { logs, nextCursor: data.nextCursor };
  }
  return { ...data, logs };
}

function sameCall(a: CallLogView, b: CallLogView): boolean {
  return (Object.keys(b) as (keyof CallLogView)[]).every((k) => a[k] === b[k]);
}

/** Applies one call to every cached call-log list. */
export function applyLiveCall(queryClient: QueryClient, call: CallLogView) {
  queryClient.setQueryData<InfiniteData<CallLogsResponse, unknown>>(callLogKeys.pages, (data) => (data ? upsertIntoPages(data, call) : data));
  queryClient.setQueryData<CallLogsResponse>(callLogKeys.recent, (data) => (data ? upsertIntoList(data, call) : data));
}

/** How long after a call the month's usage figures are read again (several updates of one call make one read). */
export const USAGE_REFRESH_DELAY_MS = 2_000;
/** How many of the latest live calls are remembered, to lay over an answer that left before they arrived. */
const REMEMBERED_CALLS = 200;

const isCallLogList = (query: Query) => {
  const [first, second] = query.queryKey;
  return (first === callLogKeys.pages[0] && second === callLogKeys.pages[1]) || first === callLogKeys.recent[0];
};

/**
 * Binds the tab's feed to a query cache: calls are upserted, a resync (or a first connection) reads
 * the lists and usage again, and the month's usage is read again shortly after calls change. A list
 * answer that started before a live call arrived would put the older row back: the calls received
 * while live are laid over each list answer as it lands.
 */
export function bindCallLogCache(queryClient: QueryClient, feed = liveFeed()): () => void {
  const remembered = new Map<number, CallLogView>();
  let usageTimer: ReturnType<typeof setTimeout> | null = null;
  const refreshUsageSoon = () => {
    if (usageTimer !== null) return;
    usageTimer = setTimeout(() => {
      usageTimer = null;
      void queryClient.invalidateQueries({ queryKey: usageStatsKeys.all });
    }, USAGE_REFRESH_DELAY_MS);
  };
  const stopListening = feed.listen({
    message: (msg: LiveMessage) => {
      if (msg.type !== "call") return;
      remembered.delete(msg.call.id);
      remembered.set(msg.call.id, msg.call);
      if (remembered.size > REMEMBERED_CALLS) remembered.delete(remembered.keys().next().value!);
      applyLiveCall(queryClient, msg.call);
      refreshUsageSoon();
    },
    refetch: () => {
      remembered.clear();
      void queryClient.invalidateQueries({ predicate: isCallLogList });
      void queryClient.invalidateQueries({ queryKey: usageStatsKeys.all });
    },
  });
  // Off the feed, a later answer is newer than anything remembered.
  const stopStatus = feed.subscribe(() => {
    if (feed.getStatus() !== "live") remembered.clear();
  });
  const stopCache = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "success" || event.action.manual) return;
    if (remembered.size === 0 || !isCallLogList(event.query)) return;
    const data = event.query.state.data as InfiniteData<CallLogsResponse, unknown> | CallLogsResponse | undefined;
    if (!data) return;
    let next = data;
    for (const call of remembered.values()) next = "pages" in next ? upsertIntoPages(next, call) : upsertIntoList(next, call);
    if (next !== data) queryClient.setQueryData(event.query.queryKey, next);
  });
  return () => {
    stopListening();
    stopStatus();
    stopCache();
    if (usageTimer !== null) clearTimeout(usageTimer);
  };
}

const bindings = new WeakMap<QueryClient, { count: number; unbind: () => void }>();

/** Keeps the feed open while mounted, with its calls applied to the query cache; returns the feed's status. */
export function useLiveCallLogs(enabled = true): LiveStatus {
  const queryClient = useQueryClient();
  const status = useLiveFeed(undefined, enabled);
  useEffect(() => {
    if (!enabled) return;
    let binding = bindings.get(queryClient);
    if (!binding) {
      binding = { count: 0, unbind: bindCallLogCache(queryClient) };
      bindings.set(queryClient, binding);
    }
    binding.count++;
    const held = binding;
    return () => {
      held.count--;
      if (held.count === 0) {
        held.unbind();
        bindings.delete(queryClient);
      }
    };
  }, [queryClient, enabled]);
  return status;
}
