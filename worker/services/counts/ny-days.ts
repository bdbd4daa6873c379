// Day bounds of the counts and roll-ups, built on the shared New York time module: days are
// 'YYYY-MM-DD' in America/New_York, instants ISO-8601 UTC text.
import { addDays, nyLocalToUtc } from "@shared/ny-time";

const dayStartUtc = (day: string) => nyLocalToUtc(day).toISOString();

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
