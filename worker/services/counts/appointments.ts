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
import { addDays, dayStartUtc } from "./ny-days";

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
  const s = await beginDaySums(meter, q);
  return { Scheduled: s.scheduled, Visited: s.visited, Sold: s.sold, "No Show": s.no_show, Cancelled: s.cancelled };
}

/** The 14 category keys, always all present. */
export async function appointmentCategoryCounts(meter: DbMeter, q: AppointmentCountsQuery): Promise<AppointmentCategoryCounts> {
  const conditions = filters(q);
  const coverage = await readCoverage(meter, "appointments", q.startDate, q.endDate);
  const begin = figureStatements(meter, specs(q).begin, coverage, APPOINTMENT_BEGIN_FIGURES, conditions);
  const booked = figureStatements(meter, specs(q).booked, coverage, APPOINTMENT_BOOKED_FIGURES, filters(q, false));
  // Upcoming depends on the range's end, not on one day, so it is always live: scheduled
  // appointments beginning after the range (appointments_scheduled_begin_idx), booked by its end.
  const rangeEnd = dayStartUtc(addDays(q.endDate, 1));
  const w = where(conditions);
  const upcoming = meter.statement(
    `SELECT count(*) AS n FROM appointments r INDEXED BY appointments_scheduled_begin_idx WHERE r.status = 'Scheduled' AND r.begin_utc >= ? AND r.booked_at < ?${w.sql}`,
    [rangeEnd, rangeEnd, ...w.params],
  );
  const results = await meter.batch([...begin.statements, ...booked.statements, upcoming]);
  const nb = begin.statements.length;
  const b = begin.read(results.slice(0, nb)).get("") ?? zero(APPOINTMENT_BEGIN_FIGURES);
  const k = booked.read(results.slice(nb, nb + booked.statements.length)).get("") ?? zero(APPOINTMENT_BOOKED_FIGURES);
  const counts = emptyCategoryCounts();
  counts["Reservations schedule today"] = b.total - b.cancelled;
  counts.Upcoming = Number(results[results.length - 1][0]?.n ?? 0);
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

/** The filter choices: the nine stores, and who booked and which types occur in the data. */
export async function appointmentOptions(meter: DbMeter): Promise<{ stores: string[]; bookedBy: string[]; types: string[] }> {
  const [bookedBy, types] = await meter.batch([
    distinctValues(meter, "appointments", "booked_by"),
    distinctValues(meter, "appointments", "appointment_type"),
  ]);
  return { stores: [...STORES], bookedBy: bookedBy.map((r) => r.x as string), types: types.map((r) => r.x as string) };
}
