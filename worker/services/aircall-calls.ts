// Aircall calls of the store network: one row per Aircall call, written from webhook events and
// the API backfill alike, whatever order the events arrive in.
import { sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { storeOfLine } from "../../shared/stores";
import { nyDayOf } from "@shared/ny-time";
import type { Database } from "../db/client";
import { aircallCalls, rollupDirtyDays } from "../db/schema";
import { nyDaySql } from "./counts/figures";
import type { CentreCall, CentreEvent } from "../providers/callcentre/port";
import { markDaysDirty, type RollupSource } from "./rollup-dirty";
import { insertUnlessRecorded, recordEvent, wasDuplicate } from "./webhook-events";

export type AircallCallRow = typeof aircallCalls.$inferSelect;

/** The roll-up source name of Aircall calls (rollup_dirty_days.source). */
export const AIRCALL_ROLLUP_SOURCE: RollupSource = "aircall";

// Line, team and user names are typed by hand in Aircall: a trailing dot or different case still
// names the same store (storeOfLine). Stored names stay exactly as Aircall sends them.

/** Aircall's statuses in the order a call lives them; an unknown status ranks with 'initial'. */
const statusRank = (status: SQL) => sql`(case ${status} when 'answered' then 1 when 'done' then 2 else 0 end)`;

/**
 * The statement that inserts or updates the call's row, keyed by its Aircall id. `observedAt` is
 * when Aircall produced this state (the event's timestamp, or the backfill's read time); it orders
 * a call's states, so deliveries in any order end in the same row:
 * - the status only moves forward (initial → answered → done): an ended call stays ended;
 * - answered and transferred-to-a-store, once true, stay true; the duration only grows; the start
 *   is the earliest one seen;
 * - names and times come from the newest state that has them; an older state only fills gaps.
 * With `unlessEvent`, nothing happens when that webhook event id is already recorded (the event
 * insert follows in the same batch, so a repeated delivery changes nothing).
 */
export function upsertAircallCall(db: Database, call: CentreCall, observedAt: string, opts: { unlessEvent?: string } = {}) {
  const now = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  const transferredToStore = storeOfLine(call.transferredTo) !== null;
  // Every column, so the typed record fails to compile when the table gains one.
  const values: { [K in keyof AircallCallRow]: SQL } = {
    id: sql`null`,
    aircallId: sql`${call.id}`,
    direction: sql`${call.direction}`,
    status: sql`${call.status}`,
    answered: sql`${call.answeredAt !== null || call.status === "answered" ? 1 : 0}`,
    userName: sql`${call.userName}`,
    numberName: sql`${call.numberName}`,
    store: sql`${storeOfLine(call.numberName)}`,
    transferredToStore: sql`${transferredToStore ? 1 : 0}`,
    transferredTo: sql`${call.transferredTo}`,
    startedAt: sql`${call.startedAt ?? observedAt}`,
    answeredAt: sql`${call.answeredAt}`,
    endedAt: sql`${call.endedAt}`,
    duration: sql`${call.durationSeconds ?? 0}`,
    lastEventAt: sql`${observedAt}`,
    createdAt: now,
  };
  const ex = (column: string) => sql.raw(`excluded.${column}`);
  const cur = (column: string) => sql.raw(`"aircall_calls"."${column}"`);
  const newer = sql`${ex("last_event_at")} >= coalesce(${cur("last_event_at")}, '')`;
  const fresh = (column: string) =>
    sql`case when ${newer} then coalesce(${ex(column)}, ${cur(column)}) else coalesce(${cur(column)}, ${ex(column)}) end`;
  return insertUnlessRecorded(db, aircallCalls, values, opts.unlessEvent).onConflictDoUpdate({
    target: aircallCalls.aircallId,
    set: {
      direction: fresh("direction"),
      status: sql`case when ${statusRank(ex("status"))} > ${statusRank(cur("status"))}
        or (${statusRank(ex("status"))} = ${statusRank(cur("status"))} and ${newer}) then ${ex("status")} else ${cur("status")} end`,
      answered: sql`max(${cur("answered")}, ${ex("answered")})`,
      userName: fresh("user_name"),
      numberName: fresh("number_name"),
      store: fresh("store"),
      transferredToStore: sql`max(${cur("transferred_to_store")}, ${ex("transferred_to_store")})`,
      transferredTo: fresh("transferred_to"),
      startedAt: sql`min(${cur("started_at")}, ${ex("started_at")})`,
      answeredAt: fresh("answered_at"),
      endedAt: fresh("ended_at"),
      duration: sql`max(${cur("duration")}, ${ex("duration")})`,
      lastEventAt: sql`max(coalesce(${cur("last_event_at")}, ''), ${ex("last_event_at")})`,
    },
  });
}

/** The New York day a call counts on (the day it started). */
const callDay = (call: CentreCall, observedAt: string) => nyDayOf(call.startedAt ?? observedAt);

/**
 * The statement that marks the days these calls are stored on, for the batch before their upsert:
 * an update may move a call's start to an earlier day (the earliest start is kept) or change its
 * line, user or direction, so the day it is stored on changes too, and the day it lands on is the
 * event's, marked beside it. With both marked, Aircall's roll-ups are trusted like every other
 * source's (decision 055). Calls not stored yet mark nothing.
 */
function storedDaysMark(db: Database, aircallIds: string[]) {
  const day = sql.raw(nyDaySql(`"aircall_calls"."started_at"`));
  return db
    .insert(rollupDirtyDays)
    .select(
      sql`select ${AIRCALL_ROLLUP_SOURCE}, ${day}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') from ${aircallCalls} where ${aircallCalls.aircallId} in (select value from json_each(${JSON.stringify(aircallIds)}))`,
    )
    .onConflictDoUpdate({ target: [rollupDirtyDays.source, rollupDirtyDays.day], set: { markedAt: sql`excluded.marked_at` } });
}

/**
 * Applies one webhook event exactly once: the call's row, its day marked for the roll-ups, and the
 * event id, in one batch (one transaction). A delivery seen before changes nothing.
 */
export async function applyAircallEvent(db: Database, event: Extract<CentreEvent, { kind: "call" }>) {
  const stored = storedDaysMark(db, [event.call.id]);
  const upsert = upsertAircallCall(db, event.call, event.occurredAt, { unlessEvent: event.eventId });
  const dirty = markDaysDirty(db, AIRCALL_ROLLUP_SOURCE, [callDay(event.call, event.occurredAt)]);
  const record = recordEvent(db, { id: event.eventId, provider: "aircall", eventType: event.eventType });
  const results = await db.batch([stored, upsert, ...dirty, record]);
  return { duplicate: wasDuplicate(results[results.length - 1]) };
}

/**
 * Statements storing calls read from Aircall's API at `observedAt` (no event rows: nothing was
 * delivered), with their days marked for the roll-ups. The caller adds its own statements (the
 * backfill cursor) and runs them as one batch.
 */
export function backfilledCallStatements(db: Database, calls: CentreCall[], observedAt: string): BatchItem<"sqlite">[] {
  return [
    ...(calls.length ? [storedDaysMark(db, calls.map((c) => c.id))] : []),
    ...calls.map((c) => upsertAircallCall(db, c, observedAt)),
    ...markDaysDirty(db, AIRCALL_ROLLUP_SOURCE, calls.map((c) => callDay(c, observedAt))),
  ];
}
