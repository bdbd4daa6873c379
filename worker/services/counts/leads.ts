// The lead summary (docs/product/api.md#dashboard-counts): the stores' lead submissions in the range, in total and per store.
// Visitors' plan leads are kept in another table (plan_leads) and are in no count.
import { STORES } from "@shared/constants";
import { type LeadSummaryQuery, type LeadSummaryResponse } from "@shared/schemas/counts";
import { figureStatements, overCoverage, type Condition, type Coverage, type Plan } from "./engine";
import { leadSpec } from "./figures";
import type { DbMeter } from "./meter";

export async function leadSummary(meter: DbMeter, q: LeadSummaryQuery): Promise<LeadSummaryResponse> {
  const conditions: Condition[] = q.store ? [{ sql: "r.store = ?", params: [q.store] }] : [];
  const byKey = await overCoverage(meter, ["leads"], q, (coverage) => figureStatements(meter, leadSpec, coverage.leads, ["submissions"], conditions, "store"));
  // Every store is present, zero when none; the total is their sum.
  const byStore: Record<string, number> = {};
  for (const store of q.store ? [q.store] : STORES) byStore[store] = byKey.get(store)?.submissions ?? 0;
  const totalSubmissions = Object.values(byStore).reduce((n, v) => n + v, 0);
  return { totalSubmissions, byStore };
}

/** The statements of the submissions per New York day and store (keys "day|store") over the leads coverage: the daily report's leads. */
export function leadSubmissionsByDayAndStorePlan(meter: DbMeter, coverage: Coverage): Plan<Map<string, number>> {
  const s = figureStatements(meter, leadSpec, coverage, ["submissions"], [], ["day", "store"]);
  // Only the stores' leads: a row without a store (none is written) is in no figure, as in leadSummary.
  return { statements: s.statements, read: (results) => new Map([...s.read(results)].filter(([k]) => !k.endsWith("|")).map(([k, v]) => [k, v.submissions])) };
}
