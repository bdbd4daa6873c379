// Decision 009 written a second time, as plain JS over rows, with no roll-ups and no SQL: the
// property tests compare the count endpoints with these.
import { callOutcome } from "@shared/call-outcomes";
import { STORES, type CallType } from "@shared/constants";
import { emptyCategoryCounts, type AppointmentCategoryCounts } from "@shared/schemas/counts";
import { nyDayOf } from "@shared/ny-time";
import type { aircallCalls, appointments, callLogs, leads } from "../db/schema";

type CallLog = typeof callLogs.$inferSelect;
type AircallCall = typeof aircallCalls.$inferSelect;
type Appointment = typeof appointments.$inferSelect;
type Lead = typeof leads.$inferSelect;
type Range = { startDate: string; endDate: string };

const inRange = (ts: string, r: Range) => {
  const day = nyDayOf(ts);
  return day >= r.startDate && day <= r.endDate;
};

export function bruteCallLogCounts(rows: CallLog[], userId: string, q: Range & { callType: CallType; agent?: string }) {
  const mine = rows.filter(
    (r) =>
      r.userId === userId &&
      inRange(r.startTime, q) &&
      (q.callType === "Both" ? r.direction === "inbound" || r.direction === "outbound" : r.direction === q.callType.toLowerCase()) &&
      (!q.agent || r.assistantId === q.agent),
  );
  const outcome = (o: string) => mine.filter((r) => callOutcome(r.endedReason) === o).length;
  return { total: mine.length, connected: outcome("connected"), voicemail: outcome("voicemail"), forwarded: outcome("forwarded") };
}

export function bruteAircallCounts(rows: AircallCall[], q: Range & { userName?: string; numberName?: string }) {
  const sel = rows.filter(
    (r) => inRange(r.startedAt, q) && (!q.userName || r.userName === q.userName) && (!q.numberName || r.numberName === q.numberName),
  );
  return {
    inbound: sel.filter((r) => r.direction === "inbound").length,
    outbound: sel.filter((r) => r.direction === "outbound").length,
    outboundAnswered: sel.filter((r) => r.direction === "outbound" && r.answeredAt !== null).length,
    storeTransfers: sel.filter((r) => r.direction === "inbound" && r.transferredToStore).length,
  };
}

export function bruteAppointmentCounts(rows: Appointment[], q: Range & { store?: string; bookedBy?: string; appointmentType?: string }) {
  const sel = rows.filter(
    (r) => (!q.store || r.store === q.store) && (!q.bookedBy || r.bookedBy === q.bookedBy) && (!q.appointmentType || r.appointmentType === q.appointmentType),
  );
  const begin = sel.filter((r) => inRange(r.beginUtc, q));
  const booked = sel.filter((r) => inRange(r.bookedAt, q));
  const virtual = begin.filter((r) => r.isVirtual);
  const n = (xs: Appointment[], f: (r: Appointment) => boolean) => xs.filter(f).length;
  const status: Record<string, number> = {};
  for (const s of ["Scheduled", "Visited", "Sold", "No Show", "Cancelled"]) status[s] = n(begin, (r) => r.status === s);
  const categories: AppointmentCategoryCounts = emptyCategoryCounts();
  categories["Reservations schedule today"] = n(begin, (r) => r.status !== "Cancelled");
  categories.Upcoming = n(sel, (r) => nyDayOf(r.beginUtc) > q.endDate && r.status === "Scheduled" && nyDayOf(r.bookedAt) <= q.endDate);
  categories["Reservations visit"] = n(begin, (r) => r.status === "Visited" || r.status === "Sold");
  categories["Reservations took (sold)"] = n(begin, (r) => r.status === "Sold");
  categories["Reservations booked today"] = booked.length;
  categories["Reservations Booked Today-Future"] = n(booked, (r) => nyDayOf(r.beginUtc) > nyDayOf(r.bookedAt));
  categories["Virtual Scheduled Today"] = n(virtual, (r) => r.status !== "Cancelled");
  categories["Virtual No Call"] = n(virtual, (r) => r.virtualOutcome === "no_call");
  categories["Virtual No Answer"] = n(virtual, (r) => r.virtualOutcome === "no_answer");
  categories["Virtual Answered"] = n(virtual, (r) => r.virtualOutcome === "answered" || r.virtualOutcome === "purchased");
  categories["Virtual Purchased"] = n(virtual, (r) => r.virtualOutcome === "purchased");
  categories["Inbound Booked"] = n(booked, (r) => r.bookingChannel === "inbound");
  categories["Outbound Booked"] = n(booked, (r) => r.bookingChannel === "outbound");
  categories.Total = begin.length;
  return { count: begin.length, status, categories };
}

export function bruteLeadSummary(rows: Lead[], q: Range & { store?: string }) {
  const sel = rows.filter((r) => inRange(r.submittedAt, q) && (!q.store || r.store === q.store));
  const byStore: Record<string, number> = {};
  for (const s of q.store ? [q.store] : STORES) byStore[s] = sel.filter((r) => r.store === s).length;
  return { totalSubmissions: sel.length, byStore };
}
