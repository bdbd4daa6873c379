// POST /api/analytics/won: the appointment analysis, its match rule (decision 009) and who may run it.
import { describe, expect, it } from "vitest";
import { insertAppointments, insertCallLogs } from "../test/factories";
import { eq } from "drizzle-orm";
import { profiles } from "../db/schema";
import { call, db, shardNameOf, signUpAndSignIn } from "../test/helpers";

const staff = () => signUpAndSignIn({ appMetadata: { shopwindows_info: true } });

/** One appointment of the store, with the fields the analysis reads. */
async function appointment(store: "MIAMI" | "TULSA" | "PEMBROKE", fields: { begin: string; booked: string; phone: string | null; name?: string | null; sold?: boolean }) {
  const [row] = await insertAppointments(
    1,
    {
      store,
      beginUtc: fields.begin,
      bookedAt: fields.booked,
      customerPhone: fields.phone,
      customerName: fields.name === undefined ? "Dana Whitfield" : fields.name,
      sold: fields.sold ?? false,
      status: fields.sold ? "Sold" : "Visited",
    },
    { store },
  );
  return row;
}

/** One call log of the account, outbound from the store unless told otherwise. */
async function callLog(userId: string, fields: { phone: string; start: string; store?: string; direction?: "inbound" | "outbound" }) {
  await insertCallLogs(userId, 1, {
    phoneNumber: fields.phone,
    startTime: fields.start,
    direction: fields.direction ?? "outbound",
    store: fields.store ?? "MIAMI",
    status: "ended",
    endedReason: "customer-ended-call",
  });
}

const run = (token: string | undefined, json: unknown) => call("/api/analytics/won", { method: "POST", token, json });

describe("POST /api/analytics/won", () => {
  it("finds the latest outbound store call to the same number before the booking, and says whether it was won", async () => {
    const s = await staff();
    await run(s.accessToken, { storeId: "MIAMI", startDate: "2026-10-01", endDate: "2026-10-01" }); // mirrors the staff flag into the profile
    const phone = "+13055550101";
    await appointment("MIAMI", { begin: "2026-10-05T15:00:00.000Z", booked: "2026-10-03T15:00:00.000Z", phone, sold: true });
    await callLog(s.userId, { phone, start: "2026-10-02T14:00:00.000Z" });
    await callLog(s.userId, { phone, start: "2026-10-03T14:59:59.000Z" }); // the latest before the booking
    await callLog(s.userId, { phone, start: "2026-10-03T15:00:01.000Z" }); // after the booking: not a cause

    const res = await run(s.accessToken, { storeId: "MIAMI", startDate: "2026-10-05", endDate: "2026-10-05" });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        begin_utc: "2026-10-05T15:00:00.000Z",
        phone_number: phone,
        customer_name: "Dana Whitfield",
        matched_call: true,
        call_date: "2026-10-03T14:59:59.000Z",
        won: true,
      },
    ]);
  });

  it("does not count inbound calls, another store's calls, or calls of an account outside the store network", async () => {
    const s = await staff();
    await run(s.accessToken, { storeId: "MIAMI", startDate: "2026-10-01", endDate: "2026-10-01" });
    const outsider = await signUpAndSignIn();
    const phone = "+13055550102";
    await appointment("MIAMI", { begin: "2026-10-08T15:00:00.000Z", booked: "2026-10-07T15:00:00.000Z", phone, name: null });
    await callLog(s.userId, { phone, start: "2026-10-06T14:00:00.000Z", direction: "inbound" });
    await callLog(s.userId, { phone, start: "2026-10-06T15:00:00.000Z", store: "TULSA" });
    await callLog(outsider.userId, { phone, start: "2026-10-06T16:00:00.000Z" });

    const res = await run(s.accessToken, { storeId: "MIAMI", startDate: "2026-10-08", endDate: "2026-10-08" });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { begin_utc: "2026-10-08T15:00:00.000Z", phone_number: phone, customer_name: null, matched_call: false, call_date: null, won: false },
    ]);
  });

  it("finds the latest call across the store network's accounts on different shards (decision 076)", async () => {
    const [s0, s1] = [await staff(), await staff()];
    for (const [s, shard] of [
      [s0, "SHARD_0"],
      [s1, "SHARD_1"],
    ] as const) {
      await run(s.accessToken, { storeId: "MIAMI", startDate: "2026-10-01", endDate: "2026-10-01" }); // mirrors the staff flag into the profile
      await db().update(profiles).set({ shard }).where(eq(profiles.id, s.userId));
    }
    const phone = "+13055550109";
    await appointment("MIAMI", { begin: "2026-10-15T15:00:00.000Z", booked: "2026-10-13T15:00:00.000Z", phone });
    await callLog(s0.userId, { phone, start: "2026-10-12T14:00:00.000Z" });
    await callLog(s1.userId, { phone, start: "2026-10-13T14:00:00.000Z" }); // the latest, on the other shard
    await callLog(s0.userId, { phone, start: "2026-10-13T16:00:00.000Z" }); // after the booking
    expect(await shardNameOf(s1.userId)).toBe("SHARD_1");

    const res = await run(s0.accessToken, { storeId: "MIAMI", startDate: "2026-10-15", endDate: "2026-10-15" });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([expect.objectContaining({ phone_number: phone, matched_call: true, call_date: "2026-10-13T14:00:00.000Z" })]);
  });

  it("takes New York calendar days: 23:30 in New York is still that day, midnight is the next", async () => {
    const s = await staff();
    // 2026-11-10 in New York (EST, UTC-5) runs from 05:00Z to the next day's 05:00Z.
    await appointment("TULSA", { begin: "2026-11-10T05:00:00.000Z", booked: "2026-11-01T12:00:00.000Z", phone: "+19185550101" });
    await appointment("TULSA", { begin: "2026-11-11T04:30:00.000Z", booked: "2026-11-01T12:00:00.000Z", phone: "+19185550102" });
    await appointment("TULSA", { begin: "2026-11-11T05:00:00.000Z", booked: "2026-11-01T12:00:00.000Z", phone: "+19185550103" });
    await appointment("TULSA", { begin: "2026-11-10T04:59:59.000Z", booked: "2026-11-01T12:00:00.000Z", phone: "+19185550104" });

    const res = await run(s.accessToken, { storeId: "TULSA", startDate: "2026-11-10", endDate: "2026-11-10" });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { phone_number: string }) => i.phone_number)).toEqual(["+19185550101", "+19185550102"]);
  });

  it("takes the store by its name as well as its code", async () => {
    const s = await staff();
    await appointment("PEMBROKE", { begin: "2026-11-20T15:00:00.000Z", booked: "2026-11-01T12:00:00.000Z", phone: "+19545550101" });
    for (const storeId of ["PEMBROKE", "Pembroke Pines", "pembroke"]) {
      const res = await run(s.accessToken, { storeId, startDate: "2026-11-20", endDate: "2026-11-20" });
      expect(res.status, storeId).toBe(200);
      expect(res.body.items.map((i: { phone_number: string }) => i.phone_number), storeId).toEqual(["+19545550101"]);
    }
  });

  it("lists the oldest appointments first and stops at the limit", async () => {
    const s = await staff();
    for (const hour of [18, 14, 16]) {
      await appointment("TULSA", { begin: `2026-09-15T${hour}:00:00.000Z`, booked: "2026-09-01T12:00:00.000Z", phone: `+1918555020${hour % 10}` });
    }
    const res = await run(s.accessToken, { storeId: "TULSA", startDate: "2026-09-15", endDate: "2026-09-15", limit: 2 });
    expect(res.body.items.map((i: { begin_utc: string }) => i.begin_utc)).toEqual(["2026-09-15T14:00:00.000Z", "2026-09-15T16:00:00.000Z"]);
  });

  it("needs a signed-in user with shopwindows_info", async () => {
    const body = { storeId: "MIAMI", startDate: "2026-10-05", endDate: "2026-10-05" };
    expect((await run(undefined, body)).status).toBe(401);
    const customer = await signUpAndSignIn();
    const res = await run(customer.accessToken, body);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
  });

  it.each([
    [{ storeId: "PARIS", startDate: "2026-10-05", endDate: "2026-10-05" }, "storeId"],
    [{ storeId: "MIAMI", startDate: "2026-10-05", endDate: "2026-10-04" }, "endDate"],
    [{ storeId: "MIAMI", startDate: "yesterday", endDate: "2026-10-05" }, "startDate"],
    [{ storeId: "MIAMI", startDate: "2026-10-05", endDate: "2026-10-05", limit: 301 }, "limit"],
  ])("answers bad input with a 400 naming the field (%#)", async (body, field) => {
    const s = await staff();
    const res = await run(s.accessToken, body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });
});
