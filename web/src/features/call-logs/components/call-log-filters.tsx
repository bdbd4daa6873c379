// The line above a filtered call log (an alert's "Calls" link lands here): what the list is
// filtered by, in words, and "Show all calls", which clears the filters.
import { X } from "lucide-react";
import { CALL_LOG_FILTER_TEXT } from "@shared/messages";
import { nyDateTime } from "@shared/ny-time";
import type { CallLogFilters } from "@shared/schemas/call-logs";
import { Button } from "@web/components/ui/button";

/** `2026-11-20 14:00`, or only `14:00` for an end on the start's New York day. */
function windowText(from: string | undefined, to: string | undefined): string | null {
  if (!from && !to) return null;
  const start = from ? nyDateTime(from)!.slice(0, 16) : null;
  let end = to ? nyDateTime(to)!.slice(0, 16) : null;
  if (start && end && start.slice(0, 10) === end.slice(0, 10)) end = end.slice(11);
  return CALL_LOG_FILTER_TEXT.window(start, end);
}

/** The filters in words, e.g. "Errors · Agent Front desk · 2026-11-20 14:00–14:15 New York time". */
export function filterSummary(filters: CallLogFilters, agentName: (assistantId: string) => string | undefined): string {
  const parts: string[] = [];
  if (filters.outcome) parts.push(CALL_LOG_FILTER_TEXT.outcome[filters.outcome]);
  if (filters.agent) parts.push(CALL_LOG_FILTER_TEXT.agent(agentName(filters.agent) ?? filters.agent));
  const window = windowText(filters.from, filters.to);
  if (window) parts.push(window);
  return parts.join(" · ");
}

export function CallLogFilterLine({ summary, onClear }: { summary: string; onClear: () => void }) {
  return (
    <div className="mb-4 flex flex-wrap items-center gap-3 rounded-md border bg-muted/40 px-4 py-2 text-sm" data-testid="call-log-filters">
      <p>
        <span className="text-muted-foreground">{CALL_LOG_FILTER_TEXT.label}:</span> <span className="font-medium">{summary}</span>
      </p>
      <Button variant="outline" size="sm" onClick={onClear}>
        <X aria-hidden />
        {CALL_LOG_FILTER_TEXT.showAll}
      </Button>
      <p className="w-full text-xs text-muted-foreground">{CALL_LOG_FILTER_TEXT.notLive}</p>
    </div>
  );
}
