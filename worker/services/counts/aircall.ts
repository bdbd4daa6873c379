// The Aircall counts (spec 1 §7): store-network calls by direction, user and line.
import type { AircallCountsQuery } from "@shared/schemas/counts";
import { countOver, distinctValues, type Condition } from "./engine";
import { aircallNumberSpec, aircallSpec, type AircallFigure } from "./figures";
import type { DbMeter } from "./meter";

function filters(q: AircallCountsQuery): Condition[] {
  const c: Condition[] = [];
  // Missed and voicemail calls have no user, so a user filter leaves them out (decision 009).
  // Unary + keeps the user filter off its index (it is for the option list): the day range is narrower.
  if (q.userName) c.push({ sql: "+r.user_name = ?", rollupSql: "r.user_name = ?", params: [q.userName] });
  if (q.numberName) c.push({ sql: "r.number_name = ?", params: [q.numberName] });
  return c;
}

async function one(meter: DbMeter, q: AircallCountsQuery, direction: "inbound" | "outbound", figure: AircallFigure) {
  // Without a user filter the (day, line, direction) table answers with a few rows a day.
  const spec = q.userName ? aircallSpec : aircallNumberSpec;
  const sums = await countOver(meter, spec, q, [figure], [{ sql: "+r.direction = ?", params: [direction] }, ...filters(q)]);
  return sums[figure];
}

export const aircallCallCount = (meter: DbMeter, q: AircallCountsQuery & { direction: "inbound" | "outbound" }) =>
  one(meter, q, q.direction, "total");

/** Outbound calls that were answered. */
export const aircallOutboundAnswered = (meter: DbMeter, q: AircallCountsQuery) => one(meter, q, "outbound", "answered");

/** Inbound calls transferred to a store line, each counted once. */
export const aircallStoreTransfers = (meter: DbMeter, q: AircallCountsQuery) => one(meter, q, "inbound", "store_transfers");

export async function aircallOptions(meter: DbMeter): Promise<{ users: string[]; numbers: string[] }> {
  const [users, numbers] = await meter.batch([
    distinctValues(meter, "aircall_calls", "user_name"),
    distinctValues(meter, "aircall_calls", "number_name"),
  ]);
  return { users: users.map((r) => r.x as string), numbers: numbers.map((r) => r.x as string) };
}
