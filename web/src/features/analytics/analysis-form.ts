// The analysis form's rules (docs/product/screens-and-routes.md#route-table, docs/product/screens-and-routes.md#roles-and-flags, docs/product/constants.md#business-constants): which agents may be analysed, and the client-side checks
// run before a request, each with a message shown next to its field.
import { ANALYTICS_TEXT } from "@shared/messages";
import { daysInRange, lastRangeEnd, MAX_RANGE_DAYS } from "@shared/ny-time";
import type { Agent } from "@shared/schemas/agents";

export type AnalysisAgent = Agent & { vapi_assistant_id: string; store: string; type: string };

/** Agents with an assistant, a store and a type whose type or name says 'outbound' (any case). */
export function outboundAgents(agents: readonly Agent[]): AnalysisAgent[] {
  return agents.filter((a): a is AnalysisAgent => {
    if (!a.vapi_assistant_id?.trim() || !a.store?.trim() || !a.type?.trim() || !a.name?.trim()) return false;
    return /outbound/i.test(a.type) || /outbound/i.test(a.name);
  });
}

export type AnalysisFormValues = { agentId: string; startDate: string; endDate: string };
export type AnalysisFormErrors = Partial<Record<keyof AnalysisFormValues, string>>;

export function validateAnalysisForm(v: AnalysisFormValues): AnalysisFormErrors {
  const errors: AnalysisFormErrors = {};
  if (!v.agentId) errors.agentId = ANALYTICS_TEXT.agentRequired;
  if (!v.startDate) errors.startDate = ANALYTICS_TEXT.datesRequired;
  if (!v.endDate) errors.endDate = ANALYTICS_TEXT.datesRequired;
  // YYYY-MM-DD days compare correctly as strings.
  if (v.startDate && v.endDate && v.endDate < v.startDate) errors.endDate = ANALYTICS_TEXT.endBeforeStart;
  // The server takes at most MAX_RANGE_DAYS: a longer range is stopped here, naming the limit.
  else if (v.startDate && v.endDate && daysInRange(v.startDate, v.endDate) > MAX_RANGE_DAYS) {
    errors.endDate = ANALYTICS_TEXT.rangeTooLong(MAX_RANGE_DAYS, lastRangeEnd(v.startDate));
  }
  return errors;
}
