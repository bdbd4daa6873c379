// Each roll-up table as SQL: the dimensions it keys on and the figures it sums, written once from
// docs/decisions/009-count-definitions.md. The roll-up job and the live part of every count select
// the same expressions over the same rows, so the two agree by construction.
import {
  CONNECTED_ENDED_REASONS,
  FORWARDED_ENDED_REASONS,
  VOICEMAIL_ENDED_REASONS,
} from "@shared/call-outcomes";
import type { RollupSource } from "../rollup-dirty";

/** A SQL string literal of a constant (never of user input: filters are bound parameters). */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
const list = (xs: readonly string[]) => xs.map(literal).join(", ");
/**
 * The rows where the condition holds (a NULL condition counts 0). FILTER runs the aggregate step only
 * for those rows, cheaper per row than sum(CASE WHEN … THEN 1 ELSE 0 END) (decision 049).
 */
const countIf = (condition: string) => `count(*) FILTER (WHERE ${condition})`;

/**
 * One roll-up table. The source table is aliased `r`; the live day list is the CTE `d(day, s, e)`
 * (a New York day and its UTC bounds), so an expression may compare with the day's end, `d.e`.
 */
export interface RollupSpec<F extends string = string> {
  source: RollupSource;
  sourceTable: string;
  /** The source timestamp that places a row on a day. */
  time: string;
  rollupTable: string;
  /** Roll-up column <- source expression ('' for NULL, so keys stay unique). */
  dims: Record<string, string>;
  figures: Record<F, string>;
  /** Source rows that belong in no roll-up. */
  exclude?: string;
  /**
   * The intraday roll-up of the same dims and figures by hour (with `hour` and `day` columns), for
   * a source in HOURLY_SOURCES (docs/decisions/034-intraday-rollups.md).
   */
  hourlyTable?: string;
}

export const CALL_LOG_FIGURES = ["total", "connected", "voicemail", "forwarded", "duration_seconds", "cost"] as const;
export type CallLogFigure = (typeof CALL_LOG_FIGURES)[number];

/** Call logs by account, assistant and direction; calls without an account belong to no one. */
export const callLogSpec: RollupSpec<CallLogFigure> = {
  source: "call_logs",
  sourceTable: "call_logs",
  time: "start_time",
  rollupTable: "call_log_daily",
  dims: { user_id: "r.user_id", assistant_id: "coalesce(r.assistant_id, '')", direction: "r.direction" },
  figures: {
    total: "count(*)",
    connected: countIf(`r.ended_reason IN (${list(CONNECTED_ENDED_REASONS)})`),
    voicemail: countIf(`r.ended_reason IN (${list(VOICEMAIL_ENDED_REASONS)})`),
    forwarded: countIf(`r.ended_reason IN (${list(FORWARDED_ENDED_REASONS)})`),
    duration_seconds: "coalesce(sum(r.duration), 0)",
    // Rounded so float sums cannot drift between runs.
    cost: "round(coalesce(sum(r.cost), 0), 6)",
  },
  exclude: "r.user_id IS NULL",
  hourlyTable: "call_log_hourly",
};

/**
 * The same figures by (account, day, direction): what counts without an agent filter read, a few
 * rows a day however many assistants the account has (decision 048).
 */
export const callLogUserSpec: RollupSpec<CallLogFigure> = {
  ...callLogSpec,
  rollupTable: "call_log_user_daily",
  hourlyTable: "call_log_user_hourly",
  dims: { user_id: callLogSpec.dims.user_id, direction: callLogSpec.dims.direction },
};

/** The call-log roll-up a count reads: the per-assistant table only when it filters by agent. */
export const callLogSpecFor = (agent: string | undefined): RollupSpec<CallLogFigure> => (agent ? callLogSpec : callLogUserSpec);

export const AIRCALL_FIGURES = ["total", "answered", "store_transfers"] as const;
export type AircallFigure = (typeof AIRCALL_FIGURES)[number];

export const aircallSpec: RollupSpec<AircallFigure> = {
  source: "aircall",
  sourceTable: "aircall_calls",
  time: "started_at",
  rollupTable: "aircall_daily",
  dims: { number_name: "coalesce(r.number_name, '')", user_name: "coalesce(r.user_name, '')", direction: "r.direction" },
  figures: {
    total: "count(*)",
    answered: countIf("r.answered_at IS NOT NULL"),
    store_transfers: countIf("r.transferred_to_store = 1"),
  },
};

/** The same figures by (day, line, direction): counts with a line and no user, and the report's lines. */
export const aircallNumberSpec: RollupSpec<AircallFigure> = {
  ...aircallSpec,
  rollupTable: "aircall_number_daily",
  dims: { number_name: aircallSpec.dims.number_name, direction: aircallSpec.dims.direction },
};

/** By (day, user, direction): counts with a user and no line (decision 055). */
export const aircallUserSpec: RollupSpec<AircallFigure> = {
  ...aircallSpec,
  rollupTable: "aircall_user_daily",
  dims: { user_name: aircallSpec.dims.user_name, direction: aircallSpec.dims.direction },
};

/** By (day, direction), every line and user summed: counts with neither (decision 055). */
export const aircallAllSpec: RollupSpec<AircallFigure> = {
  ...aircallSpec,
  rollupTable: "aircall_all_daily",
  dims: { direction: aircallSpec.dims.direction },
};

/**
 * The Aircall roll-up a count reads: the one keyed by exactly the dimensions it filters on, so it
 * reads one row a day (decision 055). A dimension the table lacks is summed over, which is what a
 * count without that filter asks.
 */
export function aircallSpecFor(q: { userName?: string; line: boolean }): RollupSpec<AircallFigure> {
  if (q.userName) return q.line ? aircallSpec : aircallUserSpec;
  return q.line ? aircallNumberSpec : aircallAllSpec;
}

const appointmentDims = { store: "r.store", booked_by: "coalesce(r.booked_by, '')", appointment_type: "r.appointment_type" };

export const APPOINTMENT_BEGIN_FIGURES = [
  "total",
  "scheduled",
  "visited",
  "sold",
  "no_show",
  "cancelled",
  "virtual_scheduled",
  "virtual_no_call",
  "virtual_no_answer",
  "virtual_answered",
  "virtual_purchased",
] as const;
export type AppointmentBeginFigure = (typeof APPOINTMENT_BEGIN_FIGURES)[number];

/** Appointments on the day they begin: the status counts and the begin-day categories. */
export const appointmentBeginSpec: RollupSpec<AppointmentBeginFigure> = {
  source: "appointments",
  sourceTable: "appointments",
  time: "begin_utc",
  rollupTable: "appointment_begin_daily",
  dims: appointmentDims,
  figures: {
    total: "count(*)",
    scheduled: countIf("r.status = 'Scheduled'"),
    visited: countIf("r.status = 'Visited'"),
    sold: countIf("r.status = 'Sold'"),
    no_show: countIf("r.status = 'No Show'"),
    cancelled: countIf("r.status = 'Cancelled'"),
    virtual_scheduled: countIf("r.is_virtual = 1 AND r.status <> 'Cancelled'"),
    virtual_no_call: countIf("r.is_virtual = 1 AND r.virtual_outcome = 'no_call'"),
    virtual_no_answer: countIf("r.is_virtual = 1 AND r.virtual_outcome = 'no_answer'"),
    virtual_answered: countIf("r.is_virtual = 1 AND r.virtual_outcome IN ('answered', 'purchased')"),
    virtual_purchased: countIf("r.is_virtual = 1 AND r.virtual_outcome = 'purchased'"),
  },
};

export const APPOINTMENT_BOOKED_FIGURES = ["booked", "booked_future", "inbound_booked", "outbound_booked"] as const;
export type AppointmentBookedFigure = (typeof APPOINTMENT_BOOKED_FIGURES)[number];

/** Appointments on the day they were booked: the booked-day categories. */
export const appointmentBookedSpec: RollupSpec<AppointmentBookedFigure> = {
  source: "appointments",
  sourceTable: "appointments",
  time: "booked_at",
  rollupTable: "appointment_booked_daily",
  dims: appointmentDims,
  figures: {
    booked: "count(*)",
    // Begins on a later New York day than the booking's day: at or after the booking day's end.
    booked_future: countIf("r.begin_utc >= d.e"),
    inbound_booked: countIf("r.booking_channel = 'inbound'"),
    outbound_booked: countIf("r.booking_channel = 'outbound'"),
  },
};

/**
 * The New York calendar day of a stored UTC timestamp ('YYYY-MM-DDTHH:MM:SS.sssZ'), in SQL: New
 * York is 4 hours behind UTC from the second Sunday of March, 07:00 UTC, to the first Sunday of
 * November, 06:00 UTC (the rule since 2007), 5 hours otherwise. Checked against nyDayOf by a test.
 */
export function nyDaySql(column: string): string {
  const year = `substr(${column}, 1, 4)`;
  const dstStart = `date(${year} || '-03-01', 'weekday 0', '+7 days') || 'T07:00:00'`;
  const dstEnd = `date(${year} || '-11-01', 'weekday 0') || 'T06:00:00'`;
  return `date(${column}, CASE WHEN ${column} >= ${dstStart} AND ${column} < ${dstEnd} THEN '-4 hours' ELSE '-5 hours' END)`;
}

/**
 * Scheduled appointments by the day they were booked, with the New York day they begin: "Upcoming"
 * for a range ending on day R sums the rows booked by R that begin after R (decision 047). An
 * appointment that begins on its booking day can never be upcoming, so it has no row.
 */
export const appointmentUpcomingSpec: RollupSpec<"scheduled"> = {
  source: "appointments",
  sourceTable: "appointments",
  time: "booked_at",
  rollupTable: "appointment_upcoming_daily",
  dims: { store: "r.store", begin_day: nyDaySql("r.begin_utc") },
  figures: { scheduled: "count(*)" },
  exclude: "r.status <> 'Scheduled' OR r.begin_utc < d.e",
};

/** The begin-day and booked-day figures by (day, store): what counts without booked-by or type filters read. */
export const appointmentBeginStoreSpec: RollupSpec<AppointmentBeginFigure> = {
  ...appointmentBeginSpec,
  rollupTable: "appointment_begin_store_daily",
  dims: { store: "r.store" },
};
export const appointmentBookedStoreSpec: RollupSpec<AppointmentBookedFigure> = {
  ...appointmentBookedSpec,
  rollupTable: "appointment_booked_store_daily",
  dims: { store: "r.store" },
};

/**
 * The same by day only, every store summed: what counts without store, booked-by or type filters
 * and without a store grouping read, one row a day (decision 049).
 */
export const appointmentBeginAllSpec: RollupSpec<AppointmentBeginFigure> = {
  ...appointmentBeginSpec,
  rollupTable: "appointment_begin_all_daily",
  dims: {},
};
export const appointmentBookedAllSpec: RollupSpec<AppointmentBookedFigure> = {
  ...appointmentBookedSpec,
  rollupTable: "appointment_booked_all_daily",
  dims: {},
};
/** appointment_upcoming_daily without the store: Upcoming without a store reads a row per (booking day, begin day). */
export const appointmentUpcomingAllSpec: RollupSpec<"scheduled"> = {
  ...appointmentUpcomingSpec,
  rollupTable: "appointment_upcoming_all_daily",
  dims: { begin_day: appointmentUpcomingSpec.dims.begin_day },
};

/**
 * The begin-day, booked-day and Upcoming roll-ups a count reads: the full key with a booked-by or
 * type filter (Upcoming is then counted live), (day, store) with a store filter or a store grouping,
 * else (day) alone.
 */
export function appointmentSpecsFor(q: { store?: string; bookedBy?: string; appointmentType?: string }, byStore: boolean) {
  if (q.bookedBy || q.appointmentType) return { begin: appointmentBeginSpec, booked: appointmentBookedSpec, upcoming: appointmentUpcomingSpec };
  if (q.store || byStore) return { begin: appointmentBeginStoreSpec, booked: appointmentBookedStoreSpec, upcoming: appointmentUpcomingSpec };
  return { begin: appointmentBeginAllSpec, booked: appointmentBookedAllSpec, upcoming: appointmentUpcomingAllSpec };
}

export const leadSpec: RollupSpec<"submissions"> = {
  source: "leads",
  sourceTable: "leads",
  time: "submitted_at",
  rollupTable: "lead_daily",
  dims: { store: "coalesce(r.store, '')" },
  figures: { submissions: "count(*)" },
  // Lead figures are the stores' (docs/product/api.md#dashboard-counts): a lead without a store is in none.
  exclude: "r.store IS NULL",
};

/** Every roll-up table of each source: a dirty day of a source recomputes every one of its tables. */
export const SPECS_BY_SOURCE: Record<RollupSource, RollupSpec[]> = {
  call_logs: [callLogSpec, callLogUserSpec],
  aircall: [aircallSpec, aircallNumberSpec, aircallUserSpec, aircallAllSpec],
  appointments: [
    appointmentBeginSpec,
    appointmentBookedSpec,
    appointmentBeginStoreSpec,
    appointmentBookedStoreSpec,
    appointmentBeginAllSpec,
    appointmentBookedAllSpec,
    appointmentUpcomingSpec,
    appointmentUpcomingAllSpec,
  ],
  leads: [leadSpec],
};

/**
 * The sources with an intraday roll-up: the call logs, whose counts (the dashboard's, usage) read
 * today all day long. The store-network sources arrive in bulk and are counted mostly for past days.
 */
export const HOURLY_SOURCES: readonly RollupSource[] = ["call_logs"];

/**
 * The CTE of live days: a JSON array of [day, startUtc, endUtc] bound as one parameter. MATERIALIZED:
 * inlined, every use of `d.e` in a figure (booked_future, Upcoming's exclude) would be a json_extract
 * per source row (decision 049).
 */
export const DAYS_CTE =
  "d(day, s, e) AS MATERIALIZED (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?))";

/**
 * Source rows of the listed days, joined to their day. CROSS JOIN keeps the day list the outer
 * loop, so each day is one index range on the time column, never a walk of every row of a filter
 * value (filters on other columns are written `+r.col` so no index on them competes).
 */
export function fromDays(spec: RollupSpec): string {
  return `d CROSS JOIN ${spec.sourceTable} r ON r.${spec.time} >= d.s AND r.${spec.time} < d.e`;
}
