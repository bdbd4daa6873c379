// The ingestion service without HTTP: New York days, statements inside D1's parameter limit, one
// transaction per request, honest inserted/updated counts, and the contract matching the seed's rows.
import { and, count, eq, inArray, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { STORES } from "../../shared/constants";
import { appointmentRecord, leadRecord, type AppointmentRecord, type LeadRecord } from "../../shared/schemas/ingest";
import { makeAppointment, makeLead, Rng } from "../db/factories";
import { appointments, leads, rollupDirtyDays } from "../db/schema";
import { db } from "../test/helpers";
import { D1_MAX_BOUND_PARAMETERS, rowsPerStatement } from "../db/client";
import { ingestAppointments, ingestLeads, planAppointments, planLeads } from "./ingest";
import { markDaysDirty } from "./rollup-dirty";

const appointment = (id: string, i = 0): AppointmentRecord =>
  appointmentRecord.parse({
    external_id: id,
    store: STORES[i % STORES.length],
    begin_utc: new Date(Date.UTC(2026, 8, 1) + i * 5_400_000).toISOString(),
    booked_at: new Date(Date.UTC(2026, 7, 1) + i * 3_600_000).toISOString(),
    booked_by: "Online Booking",
    appointment_type: "Hearing Test",
    status: "Scheduled",
    booking_channel: "online",
    customer_name: `Customer ${i}`,
    customer_phone: `+1918555${String(i % 10_000).padStart(4, "0")}`,
  });

const lead = (id: string, i = 0): LeadRecord =>
  leadRecord.parse({
    external_id: id,
    store: STORES[i % STORES.length],
    submitted_at: new Date(Date.UTC(2026, 8, 1) + i * 3_600_000).toISOString(),
    email: `lead${i}@example.com`,
    phone: "4055550100",
    first_name: "Lee",
    last_name: `Number ${i}`,
    metadata: { form: "Book an eye exam", page: "/locations/okc" },
  });

describe("statements inside D1's limits", () => {
  it("puts as many rows in an insert as the table's columns allow", () => {
    expect(rowsPerStatement(appointments)).toBe(5); // 18 columns
    expect(rowsPerStatement(leads)).toBe(7); // 14 columns
  });

  it("binds at most 100 parameters in every statement of a 1,000-record request", () => {
    const appts = planAppointments(db(), Array.from({ length: 1_000 }, (_, i) => appointment(`plan-a-${i}`, i)));
    const lds = planLeads(db(), Array.from({ length: 1_000 }, (_, i) => lead(`plan-l-${i}`, i)));
    for (const plan of [appts, lds]) {
      const statements = [plan.existing, plan.previousDays, ...plan.upserts, ...plan.marks];
      for (const s of statements) expect(s.toSQL().params.length).toBeLessThanOrEqual(D1_MAX_BOUND_PARAMETERS);
      // The id list goes to SQL as one JSON parameter, not one parameter per id.
      expect(plan.existing.toSQL().params).toHaveLength(1);
    }
    expect(appts.upserts).toHaveLength(200);
    expect(lds.upserts).toHaveLength(143);
    // 2,000 appointment days (many shared) and 1,000 lead hours, 50 days a statement.
    expect(appts.marks.length).toBeGreaterThan(0);
    expect(lds.marks.length).toBe(1);
  });
});

describe("ingestAppointments / ingestLeads", () => {
  it("looks the ids up through the unique indexes, never by scanning the table", async () => {
    for (const [table, index] of [["appointments", "appointments_external_uq"], ["leads", "leads_external_uq"]] as const) {
      const plan = await db().all<{ detail: string }>(
        sql.raw(`explain query plan select count(*) from ${table} where external_id in (select value from json_each('["a","b"]'))`),
      );
      const details = plan.map((r) => r.detail).join(" | ");
      expect(details).toContain(index);
      expect(details).not.toMatch(new RegExp(`SCAN ${table}\\b`));
    }
  });


  it("counts inserted and updated from the rows stored before, in the same transaction", async () => {
    const first = await ingestAppointments(db(), [appointment("svc-a-1", 1), appointment("svc-a-2", 2)]);
    expect(first).toEqual({ received: 2, inserted: 2, updated: 0 });
    const second = await ingestAppointments(db(), [appointment("svc-a-2", 3), appointment("svc-a-3", 4)]);
    expect(second).toEqual({ received: 2, inserted: 1, updated: 1 });
    const rows = await db().select().from(appointments).where(like(appointments.externalId, "svc-a-%"));
    expect(rows).toHaveLength(3);
    // The re-sent record replaced the stored one.
    expect(rows.find((r) => r.externalId === "svc-a-2")).toMatchObject({ store: STORES[3], customerName: "Customer 3" });

    expect(await ingestLeads(db(), [lead("svc-l-1"), lead("svc-l-2")])).toEqual({ received: 2, inserted: 2, updated: 0 });
    expect(await ingestLeads(db(), [lead("svc-l-1", 5)])).toEqual({ received: 1, inserted: 0, updated: 1 });
  });

  it("writes all or nothing: a statement failing late in the batch leaves no record and no dirty day", async () => {
    const records = Array.from({ length: 600 }, (_, i) => ({ ...appointment(`svc-atomic-${i}`, i), begin_utc: "2031-05-05T15:00:00.000Z", booked_at: "2031-05-01T15:00:00.000Z" }));
    // Past validation nothing can be wrong but the database itself: the last statement breaks NOT NULL.
    records[599] = { ...records[599], store: null as never };
    await expect(ingestAppointments(db(), records)).rejects.toThrow(/NOT NULL/i);
    const stored = await db().select({ n: count() }).from(appointments).where(like(appointments.externalId, "svc-atomic-%"));
    expect(stored[0].n).toBe(0);
    const marked = await db()
      .select({ n: count() })
      .from(rollupDirtyDays)
      .where(and(eq(rollupDirtyDays.source, "appointments"), inArray(rollupDirtyDays.day, ["2031-05-05", "2031-05-01"])));
    expect(marked[0].n).toBe(0);
  });
});

describe("markDaysDirty", () => {
  const mark = (...args: Parameters<typeof markDaysDirty>) => {
    const statements = markDaysDirty(...args);
    return db().batch(statements as [(typeof statements)[number], ...typeof statements]);
  };

  it("records each day once per source and moves marked_at on a new mark", async () => {
    await mark(db(), "leads", ["2030-01-02", "2030-01-01", "2030-01-02"]);
    const [before] = await db().select().from(rollupDirtyDays).where(and(eq(rollupDirtyDays.source, "leads"), eq(rollupDirtyDays.day, "2030-01-02")));
    await new Promise((r) => setTimeout(r, 5));
    await mark(db(), "leads", ["2030-01-02"]);
    await mark(db(), "appointments", ["2030-01-02"]);
    const rows = await db().select().from(rollupDirtyDays).where(like(rollupDirtyDays.day, "2030-01-0%"));
    expect(rows.map((r) => `${r.source} ${r.day}`).sort()).toEqual(["appointments 2030-01-02", "leads 2030-01-01", "leads 2030-01-02"]);
    const after = rows.find((r) => r.source === "leads" && r.day === "2030-01-02")!;
    expect(after.markedAt > before.markedAt).toBe(true);
    expect(markDaysDirty(db(), "leads", [])).toEqual([]);
  });
});

describe("the contract and the seed agree", () => {
  it("accepts every appointment and store lead the factories make, as Shopwindow would send them", () => {
    const rng = new Rng(8);
    const nowMs = Date.UTC(2026, 2, 10, 20);
    const window = { fromMs: nowMs - 20 * 86_400_000, toMs: nowMs + 10 * 86_400_000 };
    for (let seq = 0; seq < 300; seq++) {
      const a = makeAppointment(rng, { seq, window, nowMs });
      const parsed = appointmentRecord.safeParse({
        external_id: a.externalId,
        store: a.store,
        begin_utc: a.beginUtc,
        booked_at: a.bookedAt,
        booked_by: a.bookedBy,
        appointment_type: a.appointmentType,
        status: a.status,
        is_virtual: a.isVirtual,
        virtual_outcome: a.virtualOutcome,
        visited: a.visited,
        sold: a.sold,
        won: a.won,
        booking_channel: a.bookingChannel,
        customer_name: a.customerName,
        customer_phone: a.customerPhone,
      });
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(parsed.data).toMatchObject({ begin_utc: a.beginUtc, customer_phone: a.customerPhone });

      const l = makeLead(rng, { seq, window });
      if (l.leadSource === "trial") continue; // plan-checkout leads never come from the store network
      const lp = leadRecord.safeParse({
        external_id: l.externalId,
        store: l.store,
        submitted_at: l.submittedAt,
        email: l.email,
        phone: l.phone,
        first_name: l.firstName,
        last_name: l.lastName,
        company: l.company,
        lead_source: l.leadSource,
        lead_status: l.leadStatus,
        interest_level: l.interestLevel,
        metadata: l.metadata,
      });
      expect(lp.error?.issues ?? []).toEqual([]);
    }
  });
});
