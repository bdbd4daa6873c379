// The Aircall counts (docs/product/api.md#dashboard-counts): store-network calls by direction, user and line.
import type { AircallCountsQuery } from "@shared/schemas/counts";
import { allOf, countOver, distinctValues, figureStatements, readCoverage, type Condition, type Coverage, type Plan } from "./engine";
import { AIRCALL_FIGURES, aircallNumberSpec, aircallSpecFor, type AircallFigure } from "./figures";
import type { DbMeter } from "./meter";

function filters(q: AircallCountsQuery): Condition[] {
  const c: Condition[] = [];
  // Missed and voicemail calls have no user, so a user filter leaves them out (decision 009). The
  // calls' user index leads (user_name, direction, started_at), so the live part seeks that user's day.
  if (q.userName) c.push({ sql: "r.user_name = ?", params: [q.userName] });
  if (q.numberName) c.push({ sql: "r.number_name = ?", params: [q.numberName] });
  // A store is its Aircall line (docs/product/README.md#records), however the line's name was typed: every line name whose
  // calls were stored with that store (storeOfLine at write time), "Naples" as well as "Naples.".
  if (q.store) c.push({ sql: `r.number_name IN (${STORE_LINES_SQL})`, params: [q.store] });
  return c;
}

/**
 * The line names of one store (`?`): the calls' distinct line names, one index seek each (as
 * distinctValues), each kept when its first call's store is that store. A line's calls all share its
 * store, since storeOfLine reads the name alone.
 */
export const STORE_LINES_SQL =
  "WITH RECURSIVE v(x) AS (SELECT min(number_name) FROM aircall_calls WHERE number_name > '' " +
  "UNION ALL SELECT (SELECT min(number_name) FROM aircall_calls WHERE number_name > v.x) FROM v WHERE v.x IS NOT NULL) " +
  "SELECT x FROM v WHERE x IS NOT NULL AND (SELECT store FROM aircall_calls WHERE number_name = v.x LIMIT 1) = ?";

/**
 * The direction, an equality both parts seek by: the roll-ups' read indexes and the calls' live
 * indexes lead with the filters and the direction, then the day or start time (decision 055).
 */
const inDirection = (direction: "inbound" | "outbound"): Condition => ({ sql: "r.direction = ?", params: [direction] });

async function one(meter: DbMeter, q: AircallCountsQuery, direction: "inbound" | "outbound", figure: AircallFigure) {
  // The roll-up keyed by exactly the filtered dimensions: one row a day (a store is its line).
  const spec = aircallSpecFor({ userName: q.userName, line: Boolean(q.numberName || q.store) });
  const sums = await countOver(meter, spec, q, [figure], [inDirection(direction), ...filters(q)]);
  return sums[figure];
}

export const aircallCallCount = (meter: DbMeter, q: AircallCountsQuery & { direction: "inbound" | "outbound" }) =>
  one(meter, q, q.direction, "total");

/** Outbound calls that were answered. */
export const aircallOutboundAnswered = (meter: DbMeter, q: AircallCountsQuery) => one(meter, q, "outbound", "answered");

/** Inbound calls transferred to a store line, each counted once. */
export const aircallStoreTransfers = (meter: DbMeter, q: AircallCountsQuery) => one(meter, q, "inbound", "store_transfers");

export type AircallLineCounts = { inbound: number; outbound: number; outboundAnswered: number; storeTransfers: number };

/**
 * The four counts above for every line at once, in one batch after the coverage: the same spec and
 * direction conditions, the line a group instead of a filter; with `byDay`, per New York day and line
 * (keys "day|line"). Lines without calls are absent.
 */
export async function aircallCountsByNumber(
  meter: DbMeter,
  range: { startDate: string; endDate: string },
  opts: { byDay?: boolean; coverage?: Coverage } = {},
): Promise<Map<string, AircallLineCounts>> {
  const coverage = opts.coverage ?? (await readCoverage(meter, aircallNumberSpec.source, range.startDate, range.endDate));
  const plan = aircallCountsByNumberPlan(meter, coverage, opts.byDay);
  return plan.read(await meter.batch(plan.statements));
}

/** aircallCountsByNumber's statements over the aircall coverage, for a caller's batch (the daily report's store lines, by day). */
export function aircallCountsByNumberPlan(meter: DbMeter, coverage: Coverage, byDay = false): Plan<Map<string, AircallLineCounts>> {
  const groups = byDay ? ["day", "number_name"] : ["number_name"];
  const by = (direction: "inbound" | "outbound") =>
    figureStatements(meter, aircallNumberSpec, coverage, AIRCALL_FIGURES, [inDirection(direction)], groups);
  const plan = allOf(by("inbound"), by("outbound"));
  const read = (results: Record<string, unknown>[][]) => {
    const [ins, outs] = plan.read(results);
    const out = new Map<string, AircallLineCounts>();
    for (const line of new Set([...ins.keys(), ...outs.keys()])) {
      const i = ins.get(line);
      const o = outs.get(line);
      out.set(line, { inbound: i?.total ?? 0, outbound: o?.total ?? 0, outboundAnswered: o?.answered ?? 0, storeTransfers: i?.store_transfers ?? 0 });
    }
    return out;
  };
  return { statements: plan.statements, read };
}

export async function aircallOptions(meter: DbMeter): Promise<{ users: string[]; numbers: string[] }> {
  const [users, numbers] = await meter.batch([
    distinctValues(meter, "aircall_calls", "user_name"),
    distinctValues(meter, "aircall_calls", "number_name"),
  ]);
  return { users: users.map((r) => r.x as string), numbers: numbers.map((r) => r.x as string) };
}
