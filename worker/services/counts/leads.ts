// The lead summary (spec 1 §7): submissions in the range, in total and per store.
import { STORES } from "@shared/constants";
import { LEADS_NO_STORE_KEY, type LeadSummaryQuery, type LeadSummaryResponse } from "@shared/schemas/counts";
import { figureStatements, overCoverage, type Condition, type Coverage, type Plan } from "./engine";
import { leadSpec } from "./figures";
import type { DbMeter } from "./meter";

export async function leadSummary(meter: DbMeter, q: LeadSummaryQuery): Promise<LeadSummaryResponse> {
  const conditions: Condition[] = q.store ? [{ sql: "r.store = ?", params: [q.store] }] : [];
  const byKey = await overCoverage(meter, ["leads"], q, (coverage) => figureStatements(meter, leadSpec, coverage.leads, ["submissions"], conditions, "store"));
  // Every store is present, zero when none; "no store" only when no store filter narrows the range.
  const byStore: Record<string, number> = {};
  for (const store of q.store ? [q.store] : STORES) byStore[store] = byKey.get(store)?.submissions ?? 0;
  if (!q.store) byStore[LEADS_NO_STORE_KEY] = byKey.get("")?.submissions ?? 0;
  const totalSubmissions = [...byKey.values()].reduce((n, v) => n + v.submissions, 0);
  return { totalSubmissions, byStore };
}

/** The statements of the submissions per New York day and store (keys "day|store", "" for no store) over the leads coverage: the daily report's leads. */
export function leadSubmissionsByDayAndStorePlan(meter: DbMeter, coverage: Coverage): Plan<Map<string, number>> {
  const s = figureStatements(meter, leadSpec, coverage, ["submissions"], [], ["day", "store"]);
  return { statements: s.statements, read: (results) => new Map([...s.read(results)].map(([k, v]) => [k, v.submissions])) };
}
