// The appointment counts (spec 1 §7): totals, status counts and the 14 categories of decision 009,
// narrowed by store, booked by and appointment type.
import { STORES } from "@shared/constants";
import {
  emptyCategoryCounts,
  type AppointmentCategoryCounts,
  type AppointmentCountsQuery,
} from "@shared/schemas/counts";
import { distinctValues, figureStatements, readCoverage, where, type Condition } from "./engine";
import {
  APPOINTMENT_BEGIN_FIGURES,
  APPOINTMENT_BOOKED_FIGURES,
  appointmentBeginSpec,
  appointmentBeginStoreSpec,
  appointmentBookedSpec,
  appointmentBookedStoreSpec,
} from "./figures";
import type { DbMeter } from "./meter";
import { nyDayBounds } from "@shared/ny-time";

/** `storeIndexed`: only by begin day does (store, begin_utc) fit; by booked day the time index must win. */
function filters(q: AppointmentCountsQuery, storeIndexed = true): Condition[] {
  const c: Condition[] = [];
  if (q.store) c.push({ sql: `${storeIndexed ? "" : "+"}r.store = ?`, params: [q.store] });
  // Unary + keeps these off their indexes (they serve the option lists): the day range is narrower.
  if (q.bookedBy) c.push({ sql: "+r.booked_by = ?", rollupSql: "r.booked_by = ?", params: [q.bookedBy] });
  if (q.appointmentType) c.push({ sql: "+r.appointment_type = ?", rollupSql: "r.appointment_type = ?", params: [q.appointmentType] });
  return c;
}

/** Without booked-by or type filters the (day, store) tables answer with nine rows a day at most. */
const specs = (q: AppointmentCountsQuery) =>
  q.bookedBy || q.appointmentType
    ? { begin: appointmentBeginSpec, booked: appointmentBookedSpec }
    : { begin: appointmentBeginStoreSpec, booked: appointmentBookedStoreSpec };

async function beginDaySums(meter: DbMeter, q: AppointmentCountsQuery) {
  const coverage = await readCoverage(meter, "appointments", q.startDate, q.endDate);
  const s = figureStatements(meter, specs(q).begin, coverage, APPOINTMENT_BEGIN_FIGURES, filters(q));
  return s.read(await meter.batch(s.statements)).get("") ?? zero(APPOINTMENT_BEGIN_FIGURES);
}

const zero = <F extends string>(figures: readonly F[]) => Object.fromEntries(figures.map((f) => [f, 0])) as Record<F, number>;

/** Appointments beginning in the range, every status. */
export async function appointmentCount(meter: DbMeter, q: AppointmentCountsQuery): Promise<number> {
  return (await beginDaySums(meter, q)).total;
}

/** One count per Shopwindow status, every status present. */
export async function appointmentStatusCounts(meter: DbMeter, q: AppointmentCountsQuery): Promise<Record<string, number>> {
  return statusOf(await beginDaySums(meter, q));
}

/** The 14 category keys from the begin-day and booked-day sums and the upcoming count (decision 009). */
function categoriesOf(
  b: Record<(typeof APPOINTMENT_BEGIN_FIGURES)[number], number>,
  k: Record<(typeof APPOINTMENT_BOOKED_FIGURES)[number], number>,
  upcoming: number,
): AppointmentCategoryCounts {
  const counts = emptyCategoryCounts();
  counts["Reservations schedule today"] = b.total - b.cancelled;
  counts.Upcoming = upcoming;
  counts["Reservations visit"] = b.visited + b.sold;
  counts["Reservations took (sold)"] = b.sold;
  counts["Reservations booked today"] = k.booked;
  counts["Reservations Booked Today-Future"] = k.booked_future;
  counts["Virtual Scheduled Today"] = b.virtual_scheduled;
  counts["Virtual No Call"] = b.virtual_no_call;
  counts["Virtual No Answer"] = b.virtual_no_answer;
  counts["Virtual Answered"] = b.virtual_answered;
  counts["Virtual Purchased"] = b.virtual_purchased;
  counts["Inbound Booked"] = k.inbound_booked;
  counts["Outbound Booked"] = k.outbound_booked;
  counts.Total = b.total;
  return counts;
}

const statusOf = (s: Record<(typeof APPOINTMENT_BEGIN_FIGURES)[number], number>): Record<string, number> => ({
  Scheduled: s.scheduled,
  Visited: s.visited,
  Sold: s.sold,
  "No Show": s.no_show,
  Cancelled: s.cancelled,
});

export type AppointmentCounts = { categories: AppointmentCategoryCounts; status: Record<string, number> };

/**
 * The categories and status counts, in one batch: summed ("" key), or per store when `byStore`
 * (the daily report's nine stores in one round trip; a store without appointments is absent).
 */
async function appointmentCounts(meter: DbMeter, q: AppointmentCountsQuery, byStore = false): Promise<Map<string, AppointmentCounts>> {
  const conditions = filters(q);
  const group = byStore ? "store" : undefined;
  const coverage = await readCoverage(meter, "appointments", q.startDate, q.endDate);
  const begin = figureStatements(meter, specs(q).begin, coverage, APPOINTMENT_BEGIN_FIGURES, conditions, group);
  const booked = figureStatements(meter, specs(q).booked, coverage, APPOINTMENT_BOOKED_FIGURES, filters(q, false), group);
  // Upcoming depends on the range's end, not on one day, so it is always live: scheduled
  // appointments beginning after the range (appointments_scheduled_begin_idx), booked by its end.
  const rangeEnd = nyDayBounds(q.endDate).endUtc;
  const w = where(conditions);
  const upcoming = meter.statement(
    `SELECT ${group ? "r.store AS k, " : ""}count(*) AS n FROM appointments r INDEXED BY appointments_scheduled_begin_idx WHERE r.status = 'Scheduled' AND r.begin_utc >= ? AND r.booked_at < ?${w.sql}` +
      (group ? " GROUP BY r.store" : ""),
    [rangeEnd, rangeEnd, ...w.params],
  );
  const results = await meter.batch([...begin.statements, ...booked.statements, upcoming]);
  const nb = begin.statements.length;
  const bs = begin.read(results.slice(0, nb));
  const ks = booked.read(results.slice(nb, nb + booked.statements.length));
  const us = new Map(results[results.length - 1].map((r) => [group ? String(r.k ?? "") : "", Number(r.n ?? 0)]));
  const out = new Map<string, AppointmentCounts>();
  for (const key of new Set(["", ...bs.keys(), ...ks.keys(), ...us.keys()])) {
    if (group && key === "") continue;
    const b = bs.get(key) ?? zero(APPOINTMENT_BEGIN_FIGURES);
    out.set(key, { categories: categoriesOf(b, ks.get(key) ?? zero(APPOINTMENT_BOOKED_FIGURES), us.get(key) ?? 0), status: statusOf(b) });
  }
  return out;
}

/** The 14 category keys, always all present. */
export async function appointmentCategoryCounts(meter: DbMeter, q: AppointmentCountsQuery): Promise<AppointmentCategoryCounts> {
  return (await appointmentCounts(meter, q)).get("")!.categories;
}

/** The categories and status counts of each store (keys are stores; one without appointments is absent). */
export const appointmentCountsByStore = (meter: DbMeter, q: AppointmentCountsQuery) => appointmentCounts(meter, q, true);

/** The filter choices: the nine stores, and who booked and which types occur in the data. */
export async function appointmentOptions(meter: DbMeter): Promise<{ stores: string[]; bookedBy: string[]; types: string[] }> {
  const [bookedBy, types] = await meter.batch([
    distinctValues(meter, "appointments", "booked_by"),
    distinctValues(meter, "appointments", "appointment_type"),
  ]);
  return { stores: [...STORES], bookedBy: bookedBy.map((r) => r.x as string), types: types.map((r) => r.x as string) };
}
