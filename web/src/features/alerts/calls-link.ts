// Where an alert's "Calls" link goes: the call log filtered to the calls behind the alert (its
// window, its scope's agent, and for the error and forwarded metrics that outcome), the dashboard
// for a store metric, or nowhere when no list of calls stands behind the value.
import { ALERT_METRICS } from "@shared/alerts";
import { nyMonthRange } from "@shared/ny-time";
import type { AlertView } from "@shared/schemas/alerts";
import type { CallLogsSearch } from "@web/lib/search";

export type AlertCallsLink = { to: "/call-logs"; search: CallLogsSearch } | { to: "/dashboard" } | null;

/** The call log's `to` is exclusive, while a window counts the calls started up to its end instant included. */
const justAfter = (iso: string) => new Date(Date.parse(iso) + 1).toISOString();

export function alertCallsLink(alert: AlertView): AlertCallsLink {
  const metric = ALERT_METRICS[alert.metric];
  // Store metrics read the store network's Aircall, appointment and lead figures, shown on the dashboard.
  if (metric.flag !== null) return { to: "/dashboard" };
  // A silent line is the absence of calls: no list of calls stands behind it.
  if (!metric.fromCalls) return null;
  const search: CallLogsSearch = {};
  if (alert.scopeKind === "agent" || alert.scopeKind === "number") {
    // The scope no longer reads an assistant (the agent was removed or the number unassigned):
    // every call of the account would be the wrong list.
    if (!alert.scopeAssistantId) return null;
    search.agent = alert.scopeAssistantId;
  }
  if (alert.metric === "error_calls") search.outcome = "error";
  if (alert.metric === "forwarded_share") search.outcome = "forwarded";
  // From the window's start (the New York month for the minutes used) to the firing, or to the
  // resolution once the alert is resolved.
  search.from = alert.windowMinutes > 0 ? new Date(alert.windowStart).toISOString() : nyMonthRange(new Date(alert.firedAt)).start;
  search.to = justAfter(alert.resolvedAt ?? alert.windowEnd);
  return { to: "/call-logs", search };
}
