// The appointment counts (docs/product/api.md#dashboard-counts): totals, status counts and the 14 categories of decision 009,
// narrowed by store, booked by and appointment type.
import { STORES } from "@shared/constants";
import {
  emptyCategoryCounts,
  type AppointmentCategoryCounts,
  type AppointmentCountsQuery,
} from "@shared/schemas/counts";
import { distinctValues, figureStatements, groupKey, overCoverage, where, type Condition, type Coverage, type Plan } from "./engine";
import {
  APPOINTMENT_BEGIN_FIGURES,
  APPOINTMENT_BOOKED_FIGURES,
  appointmentSpecsFor,
  DAYS_CTE,
} from "./figures";
import type { DbMeter } from "./meter";
import { addDays, nyDateRange, nyDayBounds } from "@shared/ny-time";
import { dayBounds } from "./ny-days";

/** `storeIndexed`: only by begin day does (store, begin_utc) fit; by booked day the time index must win. */
function filters(q: AppointmentCountsQuery, storeIndexed = true): Condition[] {
  const c: Condition[] = [];
  if (q.store) c.push({ sql: `${storeIndexed ? "" : "+"}r.store = ?`, params: [q.store] });
  // Unary + keeps these off their indexes (they serve the option lists): the day range is narrower.
  if (q.bookedBy) c.push({ sql: "+r.booked_by = ?", rollupSql: "r.booked_by = ?", params: [q.bookedBy] });
  if (q.appointmentType) c.push({ sql: "+r.appointment_type = ?", rollupSql: "r.appointment_type = ?", params: [q.appointmentType] });
  return c;
}

async function beginDaySums(meter: DbMeter, q: AppointmentCountsQuery) {
  const sums = await overCoverage(meter, ["appointments"], q, (coverage) =>
    figureStatements(meter, appointmentSpecsFor(q, false).begin, coverage.appointments, APPOINTMENT_BEGIN_FIGURES, filters(q)),
  );
  return sums.get("") ?? zero(APPOINTMENT_BEGIN_FIGURES);
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
function categoriesOf(b: BeginSums, k: BookedSums, upcoming: number): AppointmentCategoryCounts {
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

type BeginSums = Record<(typeof APPOINTMENT_BEGIN_FIGURES)[number], number>;
type BookedSums = Record<(typeof APPOINTMENT_BOOKED_FIGURES)[number], number>;

/** The begin-day figures the categories read; the status counts read every one. */
const CATEGORY_BEGIN_FIGURES = APPOINTMENT_BEGIN_FIGURES.filter((f) => f !== "scheduled" && f !== "no_show");

type SumsOptions = { groupBy?: ("day" | "store")[]; beginFigures?: readonly (typeof APPOINTMENT_BEGIN_FIGURES)[number][] };
type Sums = Map<string, { begin: BeginSums; booked: BookedSums; upcoming: number }>;

/** appointmentSums over the source's coverage, in one batch with it once this isolate has read it (overCoverage). */
const appointmentSums = (meter: DbMeter, q: AppointmentCountsQuery, opts: SumsOptions = {}): Promise<Sums> =>
  overCoverage(meter, ["appointments"], q, (coverage) => sumsPlan(meter, q, coverage.appointments, opts));

/**
 * The statements of the begin-day and booked-day sums and Upcoming over a coverage, and how to read
 * their results: summed ("" key), or per value of `groupBy` (`store`; `day` and `store` for the daily
 * report, keys "day|store"; groups without appointments are absent). Only `beginFigures` are
 * computed; the others read 0.
 */
function sumsPlan(meter: DbMeter, q: AppointmentCountsQuery, coverage: Coverage, opts: SumsOptions): Plan<Sums> {
  const conditions = filters(q);
  const groups = opts.groupBy ?? [];
  const group = groups.length ? groups : undefined;
  const specs = appointmentSpecsFor(q, groups.includes("store"));
  const begin = figureStatements(meter, specs.begin, coverage, opts.beginFigures ?? APPOINTMENT_BEGIN_FIGURES, conditions, group);
  const booked = figureStatements(meter, specs.booked, coverage, APPOINTMENT_BOOKED_FIGURES, filters(q, false), group);
  // Upcoming depends on the range's end, not on one day: scheduled appointments beginning after the
  // range, booked by its end. Without booked-by or type filters and for one range, the roll-up of
  // bookings by begin day answers it, plus the live bookings it does not cover; otherwise it is
  // counted live from appointments_scheduled_cover_idx (by day, each day's end `d.e` is its end).
  const byStore = groups.length === 1 && groups[0] === "store";
  const upcoming =
    (groups.length === 0 || byStore) && !q.bookedBy && !q.appointmentType && coverage.trusted
      ? upcomingOverRollups(meter, q, coverage.trusted, byStore, specs.upcoming.rollupTable)
      : [upcomingLive(meter, q, conditions, groups)];
  const read = (results: Record<string, unknown>[][]): Sums => {
    const nb = begin.statements.length;
    const bs = begin.read(results.slice(0, nb));
    const ks = booked.read(results.slice(nb, nb + booked.statements.length));
    const us = new Map<string, number>();
    for (const rows of results.slice(nb + booked.statements.length)) {
      for (const r of rows) {
        const key = groupKey(...groups.map((_, i) => String(r[`k${i}`] ?? "")));
        us.set(key, (us.get(key) ?? 0) + Number(r.n ?? 0));
      }
    }
    const out = new Map<string, { begin: BeginSums; booked: BookedSums; upcoming: number }>();
    for (const key of new Set(["", ...bs.keys(), ...ks.keys(), ...us.keys()])) {
      if (group && key === "") continue;
      out.set(key, {
        begin: { ...zero(APPOINTMENT_BEGIN_FIGURES), ...bs.get(key) },
        booked: ks.get(key) ?? zero(APPOINTMENT_BOOKED_FIGURES),
        upcoming: us.get(key) ?? 0,
      });
    }
    return out;
  };
  return { statements: [...begin.statements, ...booked.statements, ...upcoming], read };
}

/** The categories and status counts of each group of sums. */
function countsOf(sums: Sums): Map<string, AppointmentCounts> {
  const out = new Map<string, AppointmentCounts>();
  for (const [key, s] of sums) out.set(key, { categories: categoriesOf(s.begin, s.booked, s.upcoming), status: statusOf(s.begin) });
  return out;
}

/** Upcoming counted live from the covering index of scheduled appointments, for any filters and groups. */
function upcomingLive(meter: DbMeter, q: AppointmentCountsQuery, conditions: Condition[], groups: ("day" | "store")[]) {
  const w = where(conditions);
  const exprs = groups.map((g) => (g === "day" ? "d.day" : `r.${g}`));
  const keyed = exprs.map((e, i) => `${e} AS k${i}, `).join("");
  const grouped = exprs.length ? ` GROUP BY ${exprs.map((_, i) => `k${i}`).join(", ")}` : "";
  const rangeEnd = nyDayBounds(q.endDate).endUtc;
  return groups.includes("day")
    ? meter.statement(
        `WITH ${DAYS_CTE} SELECT ${keyed}count(*) AS n FROM d CROSS JOIN appointments r INDEXED BY appointments_scheduled_cover_idx ` +
          `ON r.status = 'Scheduled' AND r.begin_utc >= d.e AND r.booked_at < d.e WHERE 1 = 1${w.sql}${grouped}`,
        [JSON.stringify(dayBounds(nyDateRange(q.startDate, q.endDate))), ...w.params],
      )
    : meter.statement(
        `SELECT ${keyed}count(*) AS n FROM appointments r INDEXED BY appointments_scheduled_cover_idx WHERE r.status = 'Scheduled' AND r.begin_utc >= ? AND r.booked_at < ?${w.sql}${grouped}`,
        [rangeEnd, rangeEnd, ...w.params],
      );
}

/**
 * Upcoming for the range ending on day R (decision 047): the roll-up rows of the trusted booking days
 * up to R that begin after R, plus, live from appointments_scheduled_booked_idx, the scheduled
 * appointments booked on the days the roll-up does not answer (before its first day, dirty days,
 * after its last trusted day up to R) that begin after R. Keys `k0` are stores when `byStore`; `table` is the upcoming roll-up appointmentSpecsFor picked.
 */
function upcomingOverRollups(
  meter: DbMeter,
  q: AppointmentCountsQuery,
  trusted: NonNullable<Coverage["trusted"]>,
  byStore: boolean,
  table: string,
) {
  const day = q.endDate;
  const end = nyDayBounds(day).endUtc;
  const through = trusted.through < day ? trusted.through : day;
  const key = byStore ? "k0" : null;
  const store = q.store ? { sql: " AND x.store = ?", params: [q.store] } : { sql: "", params: [] };
  const statements: D1PreparedStatement[] = [];
  const live: [string, string][] = [];
  if (trusted.from <= through) {
    const dirty = trusted.dirty.filter((d) => d >= trusted.from && d <= through);
    statements.push(
      meter.statement(
        `SELECT ${key ? "x.store AS k0, " : ""}coalesce(sum(x.scheduled), 0) AS n FROM ${table} x INDEXED BY ${table}_begin_idx ` +
          `WHERE x.begin_day > ? AND x.day >= ? AND x.day <= ?${dirty.length ? " AND x.day NOT IN (SELECT value FROM json_each(?))" : ""}${store.sql}` +
          (key ? " GROUP BY x.store" : ""),
        [day, trusted.from, through, ...(dirty.length ? [JSON.stringify(dirty)] : []), ...store.params],
      ),
    );
    live.push(["", nyDayBounds(trusted.from).startUtc]);
    for (const d of dirty) {
      const { startUtc, endUtc } = nyDayBounds(d);
      live.push([startUtc, endUtc]);
    }
    if (through < day) live.push([nyDayBounds(addDays(through, 1)).startUtc, end]);
  } else {
    live.push(["", end]);
  }
  statements.push(
    meter.statement(
      `WITH b(s, e) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)) ` +
        `SELECT ${key ? "x.store AS k0, " : ""}count(*) AS n FROM b CROSS JOIN appointments x INDEXED BY appointments_scheduled_booked_idx ` +
        `ON x.booked_at >= b.s AND x.booked_at < b.e WHERE x.status = 'Scheduled' AND x.begin_utc >= ?${store.sql}` +
        (key ? " GROUP BY k0" : ""),
      [JSON.stringify(live), end, ...store.params],
    ),
  );
  return statements;
}

/** The 14 category keys, always all present. */
export async function appointmentCategoryCounts(meter: DbMeter, q: AppointmentCountsQuery): Promise<AppointmentCategoryCounts> {
  const s = (await appointmentSums(meter, q, { beginFigures: CATEGORY_BEGIN_FIGURES })).get("")!;
  return categoriesOf(s.begin, s.booked, s.upcoming);
}

/** The categories and status counts of each store (keys are stores; one without appointments is absent). */
export const appointmentCountsByStore = async (meter: DbMeter, q: AppointmentCountsQuery) => countsOf(await appointmentSums(meter, q, { groupBy: ["store"] }));

/** appointmentCountsByStore's statements over a coverage, to send in a batch with a caller's own (the store funnel). */
export function appointmentCountsByStorePlan(meter: DbMeter, q: AppointmentCountsQuery, coverage: Coverage): Plan<Map<string, AppointmentCounts>> {
  const plan = sumsPlan(meter, q, coverage, { groupBy: ["store"] });
  return { statements: plan.statements, read: (results) => countsOf(plan.read(results)) };
}

/** The statements of the same per New York day and store (keys "day|store") over a coverage: the daily report's appointments, one batch for a whole range. */
export function appointmentCountsByDayAndStorePlan(meter: DbMeter, q: AppointmentCountsQuery, coverage: Coverage): Plan<Map<string, AppointmentCounts>> {
  const plan = sumsPlan(meter, q, coverage, { groupBy: ["day", "store"] });
  return { statements: plan.statements, read: (results) => countsOf(plan.read(results)) };
}

/** The filter choices: the nine stores, and who booked and which types occur in the data. */
export async function appointmentOptions(meter: DbMeter): Promise<{ stores: string[]; bookedBy: string[]; types: string[] }> {
  const [bookedBy, types] = await meter.batch([
    distinctValues(meter, "appointments", "booked_by"),
    distinctValues(meter, "appointments", "appointment_type"),
  ]);
  return { stores: [...STORES], bookedBy: bookedBy.map((r) => r.x as string), types: types.map((r) => r.x as string) };
}
