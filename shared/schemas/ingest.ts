// Store-network ingestion contracts: what Shopwindow (or any store system) posts to
// POST /api/ingest/appointments and POST /api/ingest/leads. Field names are the database's and the
// spec's (begin_utc, customer_name, lead_source...). Every record is checked on its own, so a 400
// names the record and the field ('appointments.17.store'). Records are full replacements: a
// re-sent record overwrites every field of the stored one, omitted optional fields included.
import { z } from "zod";
import { APPOINTMENT_STATUSES } from "../constants";
import { formatCount } from "../numbers";
import { normalizeDialNumber } from "./agents";
import { storeField } from "./store";

/** Records a request may carry: one D1 batch writes them all or none. */
export const INGEST_MAX_RECORDS = 1_000;
/** Field issues listed in one 400 answer; a wholly wrong file would otherwise answer megabytes. */
export const INGEST_MAX_ISSUES = 100;

export const VIRTUAL_OUTCOMES = ["no_call", "no_answer", "answered", "purchased"] as const;
export const BOOKING_CHANNELS = ["inbound", "outbound", "walk_in", "online"] as const;
/** 'trial' leads come from the plan checkout, never from the store network. */
export const INGEST_LEAD_SOURCES = ["store", "website"] as const;
export const LEAD_STATUSES = ["new", "contacted", "qualified", "lost"] as const;
export const LEAD_INTEREST = { min: 1, max: 5, default: 4 } as const;
const METADATA_MAX_BYTES = 4_096;

const oneOf = (values: readonly string[]) => `Must be one of: ${values.join(", ")}`;

const externalId = z
  .string({ error: "external_id is required" })
  .trim()
  .min(1, "external_id is required")
  .max(128, "Must be at most 128 characters")
  .regex(/^[\x21-\x7e]+$/, "Must be printable ASCII without spaces");

/** A store's code or name ("Oklahoma City"), stored as its code. */
const store = storeField;

/**
 * An instant: ISO-8601 with a UTC offset ('Z' or '-05:00'); stored as UTC ('...Z'), the form every
 * query compares. A local time without offset is refused: it cannot be placed on a New York day.
 */
const instant = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .pipe(z.iso.datetime({ offset: true, error: "Must be an ISO-8601 timestamp with an offset, e.g. 2026-03-07T14:30:00-05:00" }))
    .transform((v) => new Date(v).toISOString())
    .refine((v) => v >= "2000-01-01" && v < "2100-01-01", "Must be between the years 2000 and 2099");

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

/** A phone number in any usual US or E.164 form, stored as E.164; empty means none. */
const phone = z
  .string()
  .max(32, "Must be a phone number")
  .nullish()
  .transform((v, ctx) => {
    if (v == null || v.trim() === "") return null;
    const e164 = normalizeDialNumber(v);
    if (!e164) {
      ctx.addIssue({ code: "custom", message: "Must be a phone number (E.164, e.g. +13055550123, or 10 US digits)" });
      return z.NEVER;
    }
    return e164;
  });

const flag = z.boolean({ error: "Must be true or false" });

export const appointmentRecord = z
  .strictObject({
    external_id: externalId,
    store,
    begin_utc: instant("begin_utc"),
    booked_at: instant("booked_at"),
    booked_by: text(100),
    appointment_type: z.string({ error: "appointment_type is required" }).trim().min(1, "appointment_type is required").max(100, "Must be at most 100 characters"),
    status: z.enum(APPOINTMENT_STATUSES, { error: oneOf(APPOINTMENT_STATUSES) }),
    is_virtual: flag.default(false),
    virtual_outcome: z.enum(VIRTUAL_OUTCOMES, { error: oneOf(VIRTUAL_OUTCOMES) }).nullish().transform((v) => v ?? null),
    visited: flag.optional(),
    sold: flag.optional(),
    won: flag.optional(),
    booking_channel: z.enum(BOOKING_CHANNELS, { error: oneOf(BOOKING_CHANNELS) }).nullish().transform((v) => v ?? null),
    customer_name: text(200),
    customer_phone: phone,
  })
  .superRefine((a, ctx) => {
    if (a.virtual_outcome && !a.is_virtual) {
      ctx.addIssue({ code: "custom", path: ["virtual_outcome"], message: "Only virtual appointments have a virtual_outcome" });
    }
  })
  // Omitted outcome flags follow the status, as Shopwindow's own statuses mean them.
  .transform((a) => {
    const sold = a.sold ?? a.status === "Sold";
    return { ...a, sold, visited: a.visited ?? (a.status === "Visited" || sold), won: a.won ?? sold };
  });
export type AppointmentRecordInput = z.input<typeof appointmentRecord>;
export type AppointmentRecord = z.output<typeof appointmentRecord>;

export const leadRecord = z.strictObject({
  external_id: externalId,
  store,
  submitted_at: instant("submitted_at"),
  email: z
    .email("Must be an email address")
    .max(254, "Must be at most 254 characters")
    .nullish()
    .transform((v) => (v ? v.toLowerCase() : null)),
  phone,
  first_name: text(100),
  last_name: text(100),
  company: text(200),
  lead_source: z.enum(INGEST_LEAD_SOURCES, { error: oneOf(INGEST_LEAD_SOURCES) }).default("store"),
  lead_status: z.enum(LEAD_STATUSES, { error: oneOf(LEAD_STATUSES) }).default("new"),
  interest_level: z
    .number({ error: "Must be a whole number" })
    .int("Must be a whole number")
    .min(LEAD_INTEREST.min, `Must be at least ${LEAD_INTEREST.min}`)
    .max(LEAD_INTEREST.max, `Must be at most ${LEAD_INTEREST.max}`)
    .default(LEAD_INTEREST.default),
  metadata: z
    .record(z.string(), z.unknown(), { error: "Must be an object" })
    .refine((m) => new TextEncoder().encode(JSON.stringify(m)).length <= METADATA_MAX_BYTES, `Must be at most ${METADATA_MAX_BYTES} bytes as JSON`)
    .default({}),
});
export type LeadRecordInput = z.input<typeof leadRecord>;
export type LeadRecord = z.output<typeof leadRecord>;

/**
 * `{ [key]: [...records] }`: the count is checked before any record, so an oversized request is
 * refused without validating thousands of records; then each record; then ids repeated within the
 * request (which would make 'inserted' and 'updated' ambiguous).
 */
function batchBody<K extends string, T extends z.ZodType<{ external_id: string }>>(key: K, record: T) {
  const records = z
    .array(z.unknown(), { error: `${key} must be a list of records` })
    .min(1, `Send at least one record in ${key}`)
    .max(INGEST_MAX_RECORDS, `At most ${formatCount(INGEST_MAX_RECORDS)} ${key} a request; split the rest into further requests`)
    .pipe(z.array(record))
    .superRefine((rows, ctx) => {
      const seen = new Map<string, number>();
      rows.forEach((row, i) => {
        const first = seen.get(row.external_id);
        if (first === undefined) seen.set(row.external_id, i);
        else ctx.addIssue({ code: "custom", path: [i, "external_id"], message: `Repeats the external_id of ${key}.${first}` });
      });
    });
  return z.object({ [key]: records } as { [P in K]: typeof records }, { error: `The body must be a JSON object with ${key}` });
}

export const ingestAppointmentsBody = batchBody("appointments", appointmentRecord);
export const ingestLeadsBody = batchBody("leads", leadRecord);
export type IngestAppointmentsBody = z.input<typeof ingestAppointmentsBody>;
export type IngestLeadsBody = z.input<typeof ingestLeadsBody>;

/** 200 answer: `received` = inserted + updated. */
export const ingestResult = z.object({ received: z.number(), inserted: z.number(), updated: z.number() });
export type IngestResult = z.infer<typeof ingestResult>;
