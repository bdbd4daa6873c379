// Every New York calendar-day conversion of the counts and roll-ups, on the shared time module
// (shared/ny-time.ts): days are 'YYYY-MM-DD' in America/New_York, instants ISO-8601 UTC text.
import { addDays as addCalendarDays, nyDateRange, nyDayOf, nyLocalToUtc } from "@shared/ny-time";

export const addDays = addCalendarDays;

/** The UTC instant a New York day begins (its midnight; the day lasts 23 h or 25 h on DST days). */
export function dayStartUtc(day: string): string {
  return nyLocalToUtc(day).toISOString();
}

/** The New York day an instant falls on. */
export function dayOf(instant: Date | string): string {
  return nyDayOf(instant);
}

/** Every day from start to end, both included. */
export const daysBetween = nyDateRange;

/** Each day with its UTC bounds [start, end); n + 1 conversions for n consecutive days. */
export function dayBounds(days: readonly string[]): [day: string, startUtc: string, endUtc: string][] {
  const out: [string, string, string][] = [];
  let nextStart: string | null = null;
  let prev: string | null = null;
  for (const day of days) {
    const start: string = prev !== null && addDays(prev, 1) === day && nextStart ? nextStart : dayStartUtc(day);
    nextStart = dayStartUtc(addDays(day, 1));
    out.push([day, start, nextStart]);
    prev = day;
  }
  return out;
}
