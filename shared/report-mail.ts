// What the daily report mail and its journey agree on (decision 060): how a report day is named.

/** "Monday, Aug 10, 2026" for "2026-08-10": the day as the mail's subject and headings name it. */
export function reportDayLabel(day: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long", month: "short", day: "numeric", year: "numeric" }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

/** The Daily Report screen's address for one day (the mail links to it). */
export const dailyReportScreenPath = (day: string) => `/daily-report?date=${day}`;

/** Where a mail's unsubscribe link points (the token follows in `?token=`). */
export const REPORT_MAIL_UNSUBSCRIBE_PATH = "/api/report-mail/unsubscribe";
