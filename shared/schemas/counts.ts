// Queries of the operations dashboard's counts, reports and analysis (docs/product/api.md#dashboard-counts, docs/product/api.md#api), and
// the answers the SPA reads. Definitions of each figure: docs/decisions/009-count-definitions.md.
import { z } from "zod";
import { APPOINTMENT_CATEGORY_KEYS, ANALYSIS_LIMIT, CALL_TYPES, STORES } from "../constants";
import { storeField } from "./store";
import { daysInRange, MAX_RANGE_DAYS } from "../ny-time";


/**
 * The first and last day a date parameter may name: the years 2000 to 2099, the same bound ingestion
 * puts on the instants it stores (shared/schemas/ingest.ts), so no query asks about a day that cannot
 * hold data. New York day boundaries are computed by rule in these years (shared/ny-time.ts); far
 * outside them (year 0, 9999) the bounds of a day are not representable and a query would fail.
 */
export const FIRST_DAY = "2000-01-01";
export const LAST_DAY = "2099-12-31";

/** A calendar day written YYYY-MM-DD between FIRST_DAY and LAST_DAY (a New York day when it bounds a range). */
export const isoDay = z
  .string({ error: "is required, as YYYY-MM-DD" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, "is not a calendar date")
  .refine((s) => s >= FIRST_DAY && s <= LAST_DAY, `must be between ${FIRST_DAY} and ${LAST_DAY}`);

/** An optional free-text filter: blank means "all", so the SPA may send the empty value of a select. */
const filterText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

/** An optional store filter: blank means "all"; a store's code or name means that store. */
const storeFilter = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(storeField.optional());

const rangeFields = {
  dateFilterType: z.literal("range", { error: "must be range" }).default("range"),
  startDate: isoDay,
  endDate: isoDay,
};

/** Checks the range itself: in order and at most MAX_RANGE_DAYS long; the error names endDate. */
function checkRange(value: { startDate: string; endDate: string }, ctx: z.RefinementCtx) {
  const days = daysInRange(value.startDate, value.endDate);
  if (days < 1) ctx.addIssue({ code: "custom", path: ["endDate"], message: "must not be before startDate" });
  else if (days > MAX_RANGE_DAYS) ctx.addIssue({ code: "custom", path: ["endDate"], message: `must be at most ${MAX_RANGE_DAYS} days after startDate` });
}

export const dateRangeQuery = z.object(rangeFields).superRefine(checkRange);
export type DateRangeQuery = z.infer<typeof dateRangeQuery>;

/** GET /api/call-logs/count, /api/call-connected-count, /api/voicemail-count, /api/forwarded-count, /api/export-report */
export const callLogCountsQuery = z
  .object({
    ...rangeFields,
    agent: filterText(200),
    callType: z.enum(CALL_TYPES, { error: `must be one of ${CALL_TYPES.join(", ")}` }),
  })
  .superRefine(checkRange);
export type CallLogCountsQuery = z.infer<typeof callLogCountsQuery>;

export { callReportFileName } from "../report-files";

/**
 * GET /api/aircall/outbound-answered-count, /api/aircall/store-transfer-solutions-count. `store` (the
 * dashboard's choice) stands for the store's Aircall line (docs/product/README.md#records); with `numberName` as well, both apply.
 */
export const aircallCountsQuery = z
  .object({ ...rangeFields, userName: filterText(100), numberName: filterText(100), store: storeFilter })
  .superRefine(checkRange);
export type AircallCountsQuery = z.infer<typeof aircallCountsQuery>;

/** GET /api/aircall/call-count (the filters as above) */
export const aircallCallCountQuery = z
  .object({
    ...rangeFields,
    userName: filterText(100),
    numberName: filterText(100),
    store: storeFilter,
    direction: z.enum(["inbound", "outbound"], { error: "must be inbound or outbound" }),
  })
  .superRefine(checkRange);
export type AircallCallCountQuery = z.infer<typeof aircallCallCountQuery>;

/** GET /api/appointment-count, -status-count, -category-count */
export const appointmentCountsQuery = z
  .object({ ...rangeFields, store: storeFilter, bookedBy: filterText(100), appointmentType: filterText(100) })
  .superRefine(checkRange);
export type AppointmentCountsQuery = z.infer<typeof appointmentCountsQuery>;

/** GET /api/lead-counts/summary */
export const leadSummaryQuery = z.object({ ...rangeFields, store: storeFilter }).superRefine(checkRange);
export type LeadSummaryQuery = z.infer<typeof leadSummaryQuery>;

/**
 * GET /api/daily-report: the dashboard sends startDate and endDate (and maybe store); the Daily
 * Report Generator sends one `date`. Either form, not both.
 */
export const dailyReportQuery = z
  .object({ date: isoDay.optional(), startDate: isoDay.optional(), endDate: isoDay.optional(), store: storeFilter })
  .superRefine((value, ctx) => {
    if (value.date) {
      if (value.startDate || value.endDate) ctx.addIssue({ code: "custom", path: ["date"], message: "give date, or startDate and endDate, not both" });
      return;
    }
    if (!value.startDate) ctx.addIssue({ code: "custom", path: ["startDate"], message: "is required, as YYYY-MM-DD (or give date)" });
    else if (!value.endDate) ctx.addIssue({ code: "custom", path: ["endDate"], message: "is required, as YYYY-MM-DD (or give date)" });
    else checkRange({ startDate: value.startDate, endDate: value.endDate }, ctx);
  })
  .transform(({ date, startDate, endDate, store }) => ({
    startDate: (date ?? startDate)!,
    endDate: (date ?? endDate)!,
    single: Boolean(date),
    store,
  }));
export type DailyReportQuery = z.infer<typeof dailyReportQuery>;

/** Stored nightly reports a page of GET /api/daily-reports holds: three nights of ten by default. */
export const DAILY_REPORT_LIST_PAGE = { default: 30, max: 100 } as const;

/**
 * GET /api/daily-reports?limit&cursor[&startDate&endDate][&store]: a keyset page, newest day first,
 * on a day the all-stores report and then the stores by name. The cursor is the last report of the
 * previous page as `YYYY-MM-DD~STORE` (`YYYY-MM-DD~` for the all-stores report), which the previous
 * answer gives. With `startDate` and `endDate` (both inclusive, both or neither), only the reports of
 * those days; with `store`, only that store's reports.
 */
export const dailyReportListQuery = z.object({
  startDate: isoDay.optional(),
  endDate: isoDay.optional(),
  store: storeFilter,
  limit: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(DAILY_REPORT_LIST_PAGE.max, `must be at most ${DAILY_REPORT_LIST_PAGE.max}`)
    .default(DAILY_REPORT_LIST_PAGE.default),
  cursor: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}~[A-Z]*$/, "is not a cursor this list gave")
    .transform((v) => {
      const [day, store] = v.split("~");
      return { day, store };
    })
    .refine((c) => isoDay.safeParse(c.day).success && (c.store === "" || (STORES as readonly string[]).includes(c.store)), "is not a cursor this list gave")
    .optional(),
}).superRefine((q, ctx) => {
  if (q.startDate && !q.endDate) ctx.addIssue({ code: "custom", path: ["endDate"], message: "is required with startDate" });
  else if (q.endDate && !q.startDate) ctx.addIssue({ code: "custom", path: ["startDate"], message: "is required with endDate" });
  else if (q.startDate && q.endDate && q.endDate < q.startDate) ctx.addIssue({ code: "custom", path: ["endDate"], message: "must not be before startDate" });
});
export type DailyReportListQuery = z.infer<typeof dailyReportListQuery>;

/** The cursor after a stored report: its day and store ('' for the all-stores report). */
export const dailyReportListCursor = (r: { date: string; store: string | null }) => `${r.date}~${r.store ?? ""}`;

/** POST /api/analytics/won */
export const analyticsWonBody = z
  .object({
    storeId: storeField,
    startDate: isoDay,
    endDate: isoDay,
    limit: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(ANALYSIS_LIMIT, `must be at most ${ANALYSIS_LIMIT}`)
      .default(ANALYSIS_LIMIT),
  })
  .superRefine(checkRange);
export type AnalyticsWonBody = z.infer<typeof analyticsWonBody>;

// ---------------------------------------------------------------- answers

export const countResponse = z.object({ count: z.number() });
export type CountResponse = z.infer<typeof countResponse>;
export const callLogTotalResponse = z.object({ total: z.number() });
export type CallLogTotalResponse = z.infer<typeof callLogTotalResponse>;
export type AppointmentCategoryKey = (typeof APPOINTMENT_CATEGORY_KEYS)[number];
const appointmentCategoryCounts = z.record(z.enum(APPOINTMENT_CATEGORY_KEYS), z.number());
export type AppointmentCategoryCounts = z.infer<typeof appointmentCategoryCounts>;
export const appointmentStatusCountsResponse = z.object({ counts: z.record(z.string(), z.number()) });
export type AppointmentStatusCountsResponse = z.infer<typeof appointmentStatusCountsResponse>;
export const appointmentCategoryCountsResponse = z.object({ counts: appointmentCategoryCounts });
export type AppointmentCategoryCountsResponse = z.infer<typeof appointmentCategoryCountsResponse>;
export const appointmentOptionsResponse = z.object({ stores: z.array(z.string()), bookedBy: z.array(z.string()), types: z.array(z.string()) });
export type AppointmentOptionsResponse = z.infer<typeof appointmentOptionsResponse>;
export const aircallOptionsResponse = z.object({ users: z.array(z.string()), numbers: z.array(z.string()) });
export type AircallOptionsResponse = z.infer<typeof aircallOptionsResponse>;
/** byStore holds every store (zero when none), or the one store asked for; totalSubmissions is their sum. */
export const leadSummaryResponse = z.object({ totalSubmissions: z.number(), byStore: z.record(z.string(), z.number()) });
export type LeadSummaryResponse = z.infer<typeof leadSummaryResponse>;

/** One row of the appointment analysis (docs/product/appointment-analysis.md#how-a-match-is-found "Appointment analysis item"). */
export const analysisItem = z.object({
  begin_utc: z.string(),
  phone_number: z.string().nullable(),
  customer_name: z.string().nullable(),
  matched_call: z.boolean(),
  call_date: z.string().nullable(),
  won: z.boolean(),
});
export type AnalysisItem = z.infer<typeof analysisItem>;
export const analyticsWonResponse = z.object({ items: z.array(analysisItem) });
export type AnalyticsWonResponse = z.infer<typeof analyticsWonResponse>;

/** Every category key, zero: the answer's shape when nothing matches. */
export function emptyCategoryCounts(): AppointmentCategoryCounts {
  return Object.fromEntries(APPOINTMENT_CATEGORY_KEYS.map((k) => [k, 0])) as AppointmentCategoryCounts;
}

/** A stored daily report's id (GET /api/daily-reports/:id). */
export const dailyReportIdParam = z.object({ id: z.string().regex(/^\d{1,15}$/, "must be a number").transform(Number) });
