// The dashboard's figures following the live feed: a call that starts or changes moves the call
// counts of its New York day, and a store signal (Aircall event, appointment, lead) moves that
// section's figures for its day. Only the cached figures whose dates include that day are read
// again, after a short wait, so a burst of updates (a call ringing, answered, ended, reported) is
// one read per figure.
import type { Query, QueryClient } from "@tanstack/react-query";
import { nyDayOf } from "@shared/ny-time";
import type { ApiPath } from "@shared/schemas/answers";
import type { LiveMessage } from "@shared/schemas/live";

export const LIVE_COUNTS_DELAY_MS = 2_000;

type GetPath = ApiPath<"GET">;

/** The figures a call moves: the Call Logs counts and volume, and the calls per store. */
const CALL_FIGURES: readonly GetPath[] = ["/api/call-logs/count", "/api/call-connected-count", "/api/voicemail-count", "/api/forwarded-count", "/api/call-volume", "/api/store-funnel"];

/** The figures each store signal moves. */
const STORE_FIGURES: Record<"aircall" | "appointment" | "lead", readonly GetPath[]> = {
  aircall: ["/api/aircall/call-count", "/api/aircall/outbound-answered-count", "/api/aircall/store-transfer-solutions-count"],
  appointment: ["/api/appointment-count", "/api/appointment-status-count", "/api/appointment-category-count", "/api/store-funnel"],
  lead: ["/api/lead-counts/summary"],
};

/** The figures a message moves and the day it moves them on; null for messages that move none. */
export function figuresMoved(msg: LiveMessage): { paths: readonly GetPath[]; day: string } | null {
  if (msg.type === "call") return { paths: CALL_FIGURES, day: nyDayOf(msg.call.start_time) };
  if (msg.type === "store") return { paths: STORE_FIGURES[msg.kind], day: msg.day };
  return null;
}

/** Whether a dashboard query (key: its URL, then the refresh generation) is one of `paths` over dates including `day`. */
export function figureCovers(queryKey: readonly unknown[], paths: ReadonlySet<string>, day: string): boolean {
  const url = queryKey[0];
  if (typeof url !== "string") return false;
  const [path, search = ""] = url.split("?", 2);
  if (!paths.has(path!)) return false;
  const params = new URLSearchParams(search);
  const start = params.get("startDate");
  const end = params.get("endDate");
  return start !== null && end !== null && start <= day && day <= end;
}

/** Collects what messages move and, `delayMs` after the first, reads those figures again. */
export function createFigureRefresher(queryClient: QueryClient, delayMs: number = LIVE_COUNTS_DELAY_MS) {
  const pending = new Map<string, Set<string>>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    timer = null;
    const moved = [...pending.entries()];
    pending.clear();
    const predicate = (query: Query) => moved.some(([day, paths]) => figureCovers(query.queryKey, paths, day));
    void queryClient.invalidateQueries({ predicate });
  };
  return {
    note(msg: LiveMessage) {
      const moved = figuresMoved(msg);
      if (!moved) return;
      const paths = pending.get(moved.day) ?? new Set<string>();
      for (const p of moved.paths) paths.add(p);
      pending.set(moved.day, paths);
      timer ??= setTimeout(flush, delayMs);
    },
    dispose() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending.clear();
    },
  };
}
