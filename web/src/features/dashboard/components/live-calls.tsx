// Today's latest calls in the Call Logs section, as they happen: status, direction, number and
// duration, from the recent calls the live feed keeps current. Mounted with the dashboard, it also
// holds the feed open for the dashboard's figures, which follow calls and store signals.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { formatDuration, formatPhone } from "@shared/format";
import { LIVE_TEXT } from "@shared/messages";
import { nyDayOf, nyToday } from "@shared/ny-time";
import type { CallLogView } from "@shared/schemas/call-logs";
import { recentCallsQueryOptions } from "@web/api/call-logs";
import { useLiveCallLogs } from "@web/api/call-logs-live";
import { CallStatusBadge } from "@web/components/calls/call-status-badge";
import { LiveStatusIndicator } from "@web/components/calls/live-status";
import { useLiveFeed } from "@web/lib/live/live-feed";
import { createFigureRefresher } from "../api/live-counts";

/** How many of today's calls the section lists. */
export const TODAY_CALLS_SHOWN = 5;

const DIRECTION: Record<CallLogView["direction"], string> = { inbound: LIVE_TEXT.inbound, outbound: LIVE_TEXT.outbound, web: LIVE_TEXT.web };

export function LiveCalls() {
  const queryClient = useQueryClient();
  const status = useLiveCallLogs();
  const refresher = useMemo(() => createFigureRefresher(queryClient), [queryClient]);
  useEffect(() => () => refresher.dispose(), [refresher]);
  useLiveFeed({ message: (msg) => refresher.note(msg) });
  // Read once the feed is live, so nothing that happens between the read and the socket is missed;
  // from then on the feed keeps it current.
  const recent = useQuery({ ...recentCallsQueryOptions(), enabled: status === "live" });

  if (status === "off") return null;
  const today = nyToday();
  const calls = (recent.data?.logs ?? []).filter((c) => nyDayOf(c.start_time) === today).slice(0, TODAY_CALLS_SHOWN);
  return (
    <div className="grid gap-2" data-testid="live-calls">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-medium">{LIVE_TEXT.todayCalls}</h3>
        <LiveStatusIndicator status={status} className="min-h-0" />
      </div>
      {recent.data ? (
        calls.length === 0 ? (
          <p className="text-sm text-muted-foreground">{LIVE_TEXT.noCallsToday}</p>
        ) : (
          <ul aria-label={LIVE_TEXT.todayCalls} className="divide-y divide-border rounded-md border border-border">
            {calls.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
                <CallStatusBadge status={c.status} />
                <span className="text-muted-foreground">{DIRECTION[c.direction] ?? c.direction}</span>
                <span className="tabular-nums">{formatPhone(c.phone_number)}</span>
                <span className="ml-auto text-muted-foreground tabular-nums">{formatDuration(c.duration)}</span>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
