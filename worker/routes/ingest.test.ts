// POST /api/ingest/appointments and /api/ingest/leads: key checks, per-record validation naming the
// record and field, idempotent upserts with honest inserted/updated counts, all or nothing, and the
// New York days marked dirty for the roll-ups.
import { and, count, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AppointmentRecordInput, LeadRecordInput } from "../../shared/schemas/ingest";
import { appointments, leads, rollupDirtyDays } from "../db/schema";
import { ingestAppointmentRecord } from "../test/factories";
import { call, db, signUpAndSignIn } from "../test/helpers";
import { DEV_INGEST_API_KEY } from "./ingest";
import { PRODUCTION_BINDINGS } from "../test/production";

let batchNo = 0;
/** A prefix of external ids no other test uses (tests in one file share one database). */
const prefix = (label: string) => `T${++batchNo}-${label}-`;

const appointment = ingestAppointmentRecord;

function lead(id: string, overrides: Partial<LeadRecordInput> = {}): LeadRecordInput {
  return {
    external_id: id,
    store: "TULSA",
    submitted_at: "2026-04-03T09:15:00-05:00",
    email: "Jane.Doe@Example.com",
    phone: "918-555-0199",
    first_name: "Jane",
    last_name: "Doe",
    metadata: { form: "Free hearing test" },
    ...overrides,
  };
}

const KEY = { authorization: `Bearer ${DEV_INGEST_API_KEY}` };

function post(kind: "appointments" | "leads", body: unknown, headers: Record<string, string> = KEY, bindings?: Record<string, unknown>) {
  return call(`/api/ingest/${kind}`, { method: "POST", json: body, headers, bindings });
}

const storedAppointments = async (p: string) =>
  (await db().select({ n: count() }).from(appointments).where(like(appointments.externalId, `${p}%`)))[0].n;
const storedLeads = async (p: string) => (await db().select({ n: count() }).from(leads).where(like(leads.externalId, `${p}%`)))[0].n;
const dirtyDays = async (source: string) =>
  (await db().select({ day: rollupDirtyDays.day }).from(rollupDirtyDays).where(eq(rollupDirtyDays.source, source))).map((r) => r.day);

describe("POST /api/ingest/appointments", () => {
  it("inserts, then updates on re-send without duplicating, counting each honestly", async () => {
    const p = prefix("happy");
    const first = await post("appointments", { appointments: [appointment(`${p}1`), appointment(`${p}2`), appointment(`${p}3`, { store: "OKC" })] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: 3, inserted: 3, updated: 0 });

    const [row] = await db().select().from(appointments).where(eq(appointments.externalId, `${p}1`));
    // Offsets become UTC, numbers E.164, omitted flags follow the status.
    expect(row).toMatchObject({
      store: "MIAMI",
      beginUtc: "2026-04-14T14:30:00.000Z",
      bookedAt: "2026-04-02T15:12:00.000Z",
      customerPhone: "+13055550142",
      status: "Scheduled",
      visited: false,
      sold: false,
      won: false,
      isVirtual: false,
      virtualOutcome: null,
    });

    const again = await post("appointments", {
      appointments: [
        appointment(`${p}1`, { status: "Sold", customer_name: null }),
        appointment(`${p}2`),
        appointment(`${p}3`, { store: "OKC" }),
        appointment(`${p}4`),
      ],
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: 4, inserted: 1, updated: 3 });
    expect(await storedAppointments(p)).toBe(4);
    const [updated] = await db().select().from(appointments).where(eq(appointments.externalId, `${p}1`));
    expect(updated).toMatchObject({ id: row.id, status: "Sold", sold: true, visited: true, won: true, customerName: null, createdAt: row.createdAt });
    expect(updated.updatedAt >= row.updatedAt).toBe(true);
  });

  it("accepts the key in x-ingest-key too", async () => {
    const p = prefix("header");
    const res = await post("appointments", { appointments: [appointment(`${p}1`)] }, { "x-ingest-key": DEV_INGEST_API_KEY });
    expect(res.status).toBe(200);
    expect(await storedAppointments(p)).toBe(1);
  });

  it("refuses a missing or wrong key, or a user's session, with 401 and writes nothing", async () => {
    const p = prefix("nokey");
    const body = { appointments: [appointment(`${p}1`)] };
    const session = await signUpAndSignIn();
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-the-key" },
      { "x-ingest-key": `${DEV_INGEST_API_KEY}x` },
      { authorization: `Bearer ${session.accessToken}` },
      { authorization: DEV_INGEST_API_KEY }, // no scheme
    ];
    for (const headers of attempts) {
      const res = await post("appointments", body, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toMatchObject({ code: "unauthorized", error: expect.any(String), requestId: expect.any(String) });
    }
    expect(await storedAppointments(p)).toBe(0);
  });

  it("in production: 503 without INGEST_API_KEY (never open), and only the configured key once set", async () => {
    const p = prefix("prod");
    const body = { appointments: [appointment(`${p}1`)] };
    const production = PRODUCTION_BINDINGS;
    const closed = await post("appointments", body, KEY, production);
    expect(closed.status).toBe(503);
    expect(closed.body).toMatchObject({ code: "not_configured", error: expect.stringContaining("INGEST_API_KEY") });

    const configured = { ...production, INGEST_API_KEY: "production-ingest-key-with-enough-entropy" };
    expect((await post("appointments", body, KEY, configured)).status).toBe(401); // the development key is no key here
    const ok = await post("appointments", body, { authorization: "Bearer production-ingest-key-with-enough-entropy" }, configured);
    expect(ok.status).toBe(200);
    expect(await storedAppointments(p)).toBe(1);
  });

  it("names the failing record and field, and writes nothing of the request", async () => {
    const p = prefix("bad");
    const records = Array.from({ length: 30 }, (_, i) => appointment(`${p}${i}`));
    records[17] = appointment(`${p}17`, { store: "BOSTON" as never });
    const before = (await dirtyDays("appointments")).length;
    const res = await post("appointments", { appointments: records });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error", field: "appointments.17.store" });
    expect(res.body.error).toContain("IOWA");
    expect(res.body.issues).toEqual([{ field: "appointments.17.store", message: expect.any(String) }]);
    expect(await storedAppointments(p)).toBe(0);
    expect((await dirtyDays("appointments")).length).toBe(before);
  });

  it("takes a store's name (docs/product/constants.md#business-constants) or its code in any case, and stores the code", async () => {
    const p = prefix("names");
    const names = ["Oklahoma City", "Naples", "naples.", "Pembroke Pines", "iowa city", "okc", " Woodlands. "] as const;
    const res = await post("appointments", { appointments: names.map((store, i) => appointment(`${p}${i}`, { store: store as never })) });
    expect(res.status).toBe(200);
    const stored = await db().select({ id: appointments.externalId, store: appointments.store }).from(appointments).where(like(appointments.externalId, `${p}%`));
    expect(Object.fromEntries(stored.map((r) => [r.id, r.store]))).toEqual(
      Object.fromEntries(["OKC", "NAPLES", "NAPLES", "PEMBROKE", "IOWA", "OKC", "WOODLANDS"].map((s, i) => [`${p}${i}`, s])),
    );
    const leadRes = await post("leads", { leads: [lead(`${p}lead`, { store: "Tulsa." as never })] });
    expect(leadRes.status).toBe(200);
    expect((await db().select({ store: leads.store }).from(leads).where(eq(leads.externalId, `${p}lead`)))[0].store).toBe("TULSA");
    const unknown = await post("leads", { leads: [lead(`${p}x`, { store: "Orlando" as never })] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe("leads.0.store");
  });

  it.each([
    ["begin_utc", { begin_utc: "2026-04-14T10:30:00" }], // no offset: cannot be placed on a New York day
    ["booked_at", { booked_at: "yesterday" }],
    ["customer_phone", { customer_phone: "call me" }],
    ["status", { status: "Done" }],
    ["virtual_outcome", { virtual_outcome: "answered" }], // not a virtual appointment
    ["appointment_type", { appointment_type: "  " }],
    ["external_id", { external_id: "has space" }],
  ] as const)("refuses a bad %s", async (field, bad) => {
    const p = prefix(`bad-${field}`);
    const records = [appointment(`${p}0`), appointment(`${p}1`, bad as Partial<AppointmentRecordInput>)];
    const res = await post("appointments", { appointments: records });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(`appointments.1.${field}`);
    expect(await storedAppointments(p)).toBe(0);
  });

  it("refuses unknown fields, ids repeated in one request, and bodies of the wrong shape", async () => {
    const p = prefix("shape");
    const unknown = await post("appointments", { appointments: [{ ...appointment(`${p}1`), begin_time: "2026-04-14T10:30:00Z" }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe("appointments.0");
    expect(unknown.body.error).toContain("begin_time");

    const repeated = await post("appointments", { appointments: [appointment(`${p}1`), appointment(`${p}2`), appointment(`${p}1`)] });
    expect(repeated.status).toBe(400);
    expect(repeated.body).toMatchObject({ field: "appointments.2.external_id", error: expect.stringContaining("appointments.0") });

    for (const body of [{}, { appointments: [] }, { appointments: "x" }, { leads: [lead(`${p}9`)] }, [appointment(`${p}1`)]]) {
      const res = await post("appointments", body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.code).toBe("validation_error");
    }
    const malformed = await call("/api/ingest/appointments", { method: "POST", body: "{not json", headers: { ...KEY, "content-type": "application/json" } });
    expect(malformed.status).toBe(400);
    expect(await storedAppointments(p)).toBe(0);
  });

  it("refuses 1,001 records naming the list, and a body over 2 MB with 413", async () => {
    const p = prefix("over");
    const many = Array.from({ length: 1_001 }, (_, i) => appointment(`${p}${i}`));
    const res = await post("appointments", { appointments: many });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error", field: "appointments", error: expect.stringContaining("1,000") });
    expect(await storedAppointments(p)).toBe(0);

    const huge = Array.from({ length: 1_000 }, (_, i) => appointment(`${p}${i}`, { customer_name: "x".repeat(2_200) }));
    const tooBig = await post("appointments", { appointments: huge });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe("payload_too_large");
    expect(await storedAppointments(p)).toBe(0);
  });

  it("writes exactly 1,000 records in one request (statements kept inside D1's parameter limit), twice without duplicates", async () => {
    const p = prefix("max");
    const stores = ["IOWA", "LARGO", "MIAMI", "NAPLES", "PEMBROKE", "TULSA", "TYLER", "WOODLANDS", "OKC"] as const;
    const records = Array.from({ length: 1_000 }, (_, i) =>
      appointment(`${p}${String(i).padStart(4, "0")}`, {
        store: stores[i % 9],
        begin_utc: new Date(Date.UTC(2026, 5, 1) + i * 3_600_000).toISOString(),
        customer_phone: `+1305555${String(i).padStart(4, "0")}`,
        is_virtual: i % 7 === 0,
        virtual_outcome: i % 7 === 0 ? "answered" : null,
      }),
    );
    // Over the default 256 KB API body limit: the ingest routes have their own.
    expect(JSON.stringify({ appointments: records }).length).toBeGreaterThan(256 * 1024);
    const first = await post("appointments", { appointments: records });
    expect(first.status, JSON.stringify(first.body).slice(0, 200)).toBe(200);
    expect(first.body).toEqual({ received: 1000, inserted: 1000, updated: 0 });
    const second = await post("appointments", { appointments: records.map((r) => ({ ...r, status: "Cancelled" as const })) });
    expect(second.body).toEqual({ received: 1000, inserted: 0, updated: 1000 });
    expect(await storedAppointments(p)).toBe(1000);
    const cancelled = await db()
      .select({ n: count() })
      .from(appointments)
      .where(and(like(appointments.externalId, `${p}%`), eq(appointments.status, "Cancelled")));
    expect(cancelled[0].n).toBe(1000);
  });

  it("marks the New York days of begin and booking dirty, across midnight UTC and daylight-saving changes", async () => {
    const p = prefix("days");
    const res = await post("appointments", {
      appointments: [
        // 04:30 UTC is 23:30 EST the evening before.
        appointment(`${p}1`, { begin_utc: "2026-03-08T04:30:00Z", booked_at: "2026-02-27T15:00:00Z" }),
        // Spring forward: 07:30 UTC on 8 March is 03:30 EDT, the same New York day.
        appointment(`${p}2`, { begin_utc: "2026-03-08T07:30:00Z", booked_at: "2026-03-08T07:30:00Z" }),
        // Fall back: 04:30 UTC on 2 November is 23:30 EST on 1 November (it would be 00:30 EDT).
        appointment(`${p}3`, { begin_utc: "2026-11-02T04:30:00Z", booked_at: "2026-10-25T03:59:00Z" }),
      ],
    });
    expect(res.status).toBe(200);
    const days = await dirtyDays("appointments");
    for (const d of ["2026-03-07", "2026-02-27", "2026-03-08", "2026-11-01", "2026-10-24"]) expect(days).toContain(d);
    for (const d of ["2026-11-02", "2026-10-25", "2026-02-26"]) expect(days).not.toContain(d);
  });

  it("also marks the day a rescheduled appointment leaves", async () => {
    const p = prefix("moved");
    await post("appointments", { appointments: [appointment(`${p}1`, { begin_utc: "2027-01-12T15:00:00Z", booked_at: "2027-01-05T15:00:00Z" })] });
    await db().delete(rollupDirtyDays).where(like(rollupDirtyDays.day, "2027-%"));
    await post("appointments", { appointments: [appointment(`${p}1`, { begin_utc: "2027-02-20T15:00:00Z", booked_at: "2027-01-05T15:00:00Z" })] });
    const days = (await dirtyDays("appointments")).filter((d) => d.startsWith("2027-"));
    expect(days).toEqual(expect.arrayContaining(["2027-01-12", "2027-01-05", "2027-02-20"]));
    // The stored row's old days are read in SQL, New York's offset bounded to 4 or 5 hours: never more than the day and its neighbour.
    expect(days.every((d) => ["2027-01-11", "2027-01-12", "2027-01-04", "2027-01-05", "2027-02-20"].includes(d))).toBe(true);
  });
});

describe("POST /api/ingest/leads", () => {
  it("inserts, then updates on re-send, normalising phone and email", async () => {
    const p = prefix("leads");
    const first = await post("leads", { leads: [lead(`${p}1`), lead(`${p}2`, { store: "WOODLANDS", phone: null, email: null })] }, { "x-ingest-key": DEV_INGEST_API_KEY });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: 2, inserted: 2, updated: 0 });
    const [row] = await db().select().from(leads).where(eq(leads.externalId, `${p}1`));
    expect(row).toMatchObject({
      store: "TULSA",
      phone: "+19185550199",
      email: "jane.doe@example.com",
      leadSource: "store",
      leadStatus: "new",
      interestLevel: 4,
      metadata: { form: "Free hearing test" },
      submittedAt: "2026-04-03T14:15:00.000Z",
    });

    const again = await post("leads", { leads: [lead(`${p}1`, { lead_status: "contacted", interest_level: 5 }), lead(`${p}2`)] });
    expect(again.body).toEqual({ received: 2, inserted: 0, updated: 2 });
    expect(await storedLeads(p)).toBe(2);
    const [changed] = await db().select().from(leads).where(eq(leads.externalId, `${p}1`));
    expect(changed).toMatchObject({ id: row.id, leadStatus: "contacted", interestLevel: 5 });
    expect(await dirtyDays("leads")).toContain("2026-04-03");
  });

  it("names the failing lead and field and writes nothing; needs the key", async () => {
    const p = prefix("badlead");
    const records = [lead(`${p}0`), lead(`${p}1`), lead(`${p}2`, { submitted_at: "2026-04-03 09:15" })];
    const res = await post("leads", { leads: records });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("leads.2.submitted_at");
    for (const [field, bad] of [
      ["store", { store: undefined }],
      ["email", { email: "not-an-email" }],
      ["interest_level", { interest_level: 9 }],
      ["lead_source", { lead_source: "trial" }],
      ["metadata", { metadata: { blob: "x".repeat(5_000) } }],
    ] as const) {
      const r = await post("leads", { leads: [lead(`${p}x`, bad as Partial<LeadRecordInput>)] });
      expect(r.body.field, field).toBe(`leads.0.${field}`);
    }
    expect((await post("leads", { leads: [lead(`${p}y`)] }, {})).status).toBe(401);
    expect(await storedLeads(p)).toBe(0);
  });

  it("marks the lead's New York submission day dirty around midnight UTC", async () => {
    const p = prefix("leaddays");
    await post("leads", {
      leads: [
        lead(`${p}1`, { submitted_at: "2026-07-01T03:59:00Z" }), // 23:59 EDT, 30 June
        lead(`${p}2`, { submitted_at: "2026-12-01T04:59:59Z" }), // 23:59:59 EST, 30 November
      ],
    });
    const days = await dirtyDays("leads");
    expect(days).toEqual(expect.arrayContaining(["2026-06-30", "2026-11-30"]));
    expect(days).not.toContain("2026-07-01");
    expect(days).not.toContain("2026-12-01");
  });
});
