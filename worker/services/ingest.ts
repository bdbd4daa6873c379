// Store-network ingestion (Shopwindow appointments and store leads): validated records upserted by
// external id, in statements inside D1's limit of 100 bound parameters, all in ONE db.batch (one
// transaction), so a request is written whole or not at all. The same batch marks the New York
// days the records touch as dirty for the roll-ups.
import { count, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { AppointmentRecord, IngestResult, LeadRecord } from "../../shared/schemas/ingest";
import { rowsPerStatement, type Database } from "../db/client";
import { appointments, leads, rollupDirtyDays } from "../db/schema";
import { nyDayOf } from "@shared/ny-time";
import { markDaysDirty, type RollupSource } from "./rollup-dirty";

type IngestTable = typeof appointments | typeof leads;
/** A statement for the batch whose SQL and parameters can be inspected (tests check the limit with it). */
type Statement = BatchItem<"sqlite"> & { toSQL(): { sql: string; params: unknown[] } };

const NOW_SQL = sql`strftime('%Y-%m-%dT%H:%M:%fZ','now')`;

/** `SET col = excluded.col` for every written column: a re-sent record replaces the stored one, no parameters. */
function replaceFromExcluded(table: IngestTable, keys: readonly string[]): Record<string, SQL> {
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>;
  return Object.fromEntries(keys.map((k) => [k, sql.raw(`excluded."${columns[k].name}"`)]));
}

/**
 * Days of the stored rows these ids name, read inside the batch before the upsert, so a record that
 * moves (an appointment rescheduled to another week) also marks the day it leaves. SQL has no New
 * York calendar, but New York is always 4 or 5 hours behind UTC: marking both candidate dates covers
 * the true day and at most one neighbour, and an extra dirty day only costs a recomputation.
 */
function previousDaysStatement(db: Database, source: RollupSource, table: IngestTable, timeColumns: readonly SQLiteColumn[], idsJson: string) {
  const days = timeColumns.flatMap((col) =>
    ["-4 hours", "-5 hours"].map(
      (shift) => sql`select date(${col}, ${shift}) as day from ${table} where ${table.externalId} in (select value from json_each(${idsJson}))`,
    ),
  );
  // Query builders, not db.run(): drizzle's D1 batch cannot bind parameters of raw statements.
  // `where day is not null` also settles SQLite's parse of INSERT ... SELECT ... ON CONFLICT.
  return db
    .insert(rollupDirtyDays)
    .select(sql`select ${source}, day, ${NOW_SQL} from (${sql.join(days, sql` union `)}) where day is not null`)
    .onConflictDoUpdate({ target: [rollupDirtyDays.source, rollupDirtyDays.day], set: { markedAt: sql`excluded.marked_at` } });
}

/** How many of these ids are stored already, read in the same transaction as the writes. */
function existingCountStatement(db: Database, table: IngestTable, idsJson: string) {
  return db
    .select({ n: count() })
    .from(table)
    .where(inArray(table.externalId, sql`(select value from json_each(${idsJson}))`));
}

export type IngestPlan = {
  existing: ReturnType<typeof existingCountStatement>;
  previousDays: ReturnType<typeof previousDaysStatement>;
  upserts: Statement[];
  marks: ReturnType<typeof markDaysDirty>;
};

function upsertStatements<T extends IngestTable>(db: Database, table: T, rows: T["$inferInsert"][]) {
  const keys = Object.keys(rows[0] ?? {}).filter((k) => k !== "externalId");
  const set = replaceFromExcluded(table, keys);
  const per = rowsPerStatement(table);
  const statements: Statement[] = [];
  // drizzle's insert types do not follow a table type parameter; rows are typed by the caller.
  const d = db as unknown as { insert: (t: IngestTable) => { values: (r: unknown[]) => { onConflictDoUpdate: (c: unknown) => Statement } } };
  for (let i = 0; i < rows.length; i += per) {
    statements.push(d.insert(table).values(rows.slice(i, i + per)).onConflictDoUpdate({ target: table.externalId, set }));
  }
  return statements;
}

/** The statements that ingest these appointments, in batch order. Exposed so tests can check every one's parameters. */
export function planAppointments(db: Database, records: readonly AppointmentRecord[], now = new Date()): IngestPlan {
  const idsJson = JSON.stringify(records.map((r) => r.external_id));
  const updatedAt = now.toISOString();
  const rows: (typeof appointments.$inferInsert)[] = records.map((r) => ({
    externalId: r.external_id,
    store: r.store,
    beginUtc: r.begin_utc,
    bookedAt: r.booked_at,
    bookedBy: r.booked_by,
    appointmentType: r.appointment_type,
    status: r.status,
    isVirtual: r.is_virtual,
    virtualOutcome: r.virtual_outcome,
    visited: r.visited,
    sold: r.sold,
    bookingChannel: r.booking_channel,
    customerName: r.customer_name,
    customerPhone: r.customer_phone,
    won: r.won,
    updatedAt,
  }));
  // An appointment counts on the day it begins and on the day it was booked ("booked today").
  const days = records.flatMap((r) => [nyDayOf(r.begin_utc), nyDayOf(r.booked_at)]);
  return {
    existing: existingCountStatement(db, appointments, idsJson),
    previousDays: previousDaysStatement(db, "appointments", appointments, [appointments.beginUtc, appointments.bookedAt], idsJson),
    upserts: upsertStatements(db, appointments, rows),
    marks: markDaysDirty(db, "appointments", days),
  };
}

export function planLeads(db: Database, records: readonly LeadRecord[]): IngestPlan {
  const idsJson = JSON.stringify(records.map((r) => r.external_id));
  const rows: (typeof leads.$inferInsert)[] = records.map((r) => ({
    externalId: r.external_id,
    store: r.store,
    email: r.email,
    phone: r.phone,
    firstName: r.first_name,
    lastName: r.last_name,
    company: r.company,
    leadSource: r.lead_source,
    leadStatus: r.lead_status,
    interestLevel: r.interest_level,
    metadata: r.metadata,
    submittedAt: r.submitted_at,
  }));
  return {
    existing: existingCountStatement(db, leads, idsJson),
    previousDays: previousDaysStatement(db, "leads", leads, [leads.submittedAt], idsJson),
    upserts: upsertStatements(db, leads, rows),
    marks: markDaysDirty(db, "leads", records.map((r) => nyDayOf(r.submitted_at))),
  };
}

/** Runs a plan as one transaction. Ids repeated within a request are refused by the schema, so every record is one row. */
async function run(db: Database, received: number, plan: IngestPlan): Promise<IngestResult> {
  // The count is read first, inside the transaction: no other write can land between it and the upserts.
  const [existing] = await db.batch([plan.existing, plan.previousDays, ...plan.upserts, ...plan.marks]);
  const updated = existing[0]?.n ?? 0;
  return { received, inserted: received - updated, updated };
}

export function ingestAppointments(db: Database, records: readonly AppointmentRecord[], now = new Date()): Promise<IngestResult> {
  return run(db, records.length, planAppointments(db, records, now));
}

export function ingestLeads(db: Database, records: readonly LeadRecord[]): Promise<IngestResult> {
  return run(db, records.length, planLeads(db, records));
}
