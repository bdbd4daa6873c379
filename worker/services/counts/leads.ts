// The lead summary (spec 1 §7): submissions in the range, in total and per store.
import { STORES } from "@shared/constants";
import { LEADS_NO_STORE_KEY, type LeadSummaryQuery, type LeadSummaryResponse } from "@shared/schemas/counts";
import { figureStatements, overCoverage, readCoverage, type Condition, type Coverage } from "./engine";
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

/** Submissions per New York day and store (keys "day|store", "" for no store), one batch for a range: the daily report's leads. */
export async function leadSubmissionsByDayAndStore(meter: DbMeter, range: { startDate: string; endDate: string }, coverage?: Coverage): Promise<Map<string, number>> {
  const c = coverage ?? (await readCoverage(meter, "leads", range.startDate, range.endDate));
  const s = figureStatements(meter, leadSpec, c, ["submissions"], [], ["day", "store"]);
  const byKey = s.read(await meter.batch(s.statements));
  return new Map([...byKey].map(([k, v]) => [k, v.submissions]));
}
