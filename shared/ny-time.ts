// America/New_York time for worker, web and seed alike: every day boundary of the product (date
// filters, "today", "yesterday", this month, roll-ups, the daily report) is a calendar day there,
// daylight-saving changes included. From 2007 to 2099 the offset follows the US rule in force since
// 2007 (below), which property tests hold to the runtime's time-zone data; any other year asks
// @date-fns/tz, which reads that data.
// Relative imports carry `.ts` so the seed script can load this file in plain Node through tsx.
import { TZDate, tzOffset } from "@date-fns/tz";
import { DISPLAY_TIME_ZONE } from "./constants.ts";

const SQL_DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/**
 * Parses a server timestamp: SQL-format UTC ('2026-03-08 06:30:00', no zone) or ISO-8601 with a zone.
 * A zone-less value is UTC, never the runtime's local time.
 */
export function parseUtc(value: string | Date | null | undefined): Date | null {
  if (value == null || value === "") return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  const trimmed = value.trim();
  const m = SQL_DATETIME.exec(trimmed);
  const d = new Date(m ? `${m[1]}T${m[2]}Z` : trimmed);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An instant as New York's wall clock (month 1-12, 24-hour clock). */
export function nyWallClock(instant: Date) {
  const t = new Date(instant.getTime() + nyOffsetMinutes(instant) * 60_000);
  return {
    year: t.getUTCFullYear(),
    month: t.getUTCMonth() + 1,
    day: t.getUTCDate(),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
    second: t.getUTCSeconds(),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const ymd = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** Day of the month of the n-th Sunday (n ≥ 1) of a month (0-11), by the UTC calendar. */
function nthSunday(year: number, month: number, n: number): number {
  const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return 1 + ((7 - firstWeekday) % 7) + (n - 1) * 7;
}

/**
 * Minutes New York is ahead of UTC at this instant (-300 in winter, -240 in summer).
 *
 * From 2007 the US rule is fixed by law: daylight time from the second Sunday of March, 02:00 EST
 * (07:00 UTC), to the first Sunday of November, 02:00 EDT (06:00 UTC). Computing it costs nothing,
 * while the first time-zone lookup through `Intl` loads the runtime's zone data: about 40 ms on a
 * page's first render (decision 030). Other years ask the runtime's data.
 */
export function nyOffsetMinutes(instant: Date): number {
  const t = instant.getTime();
  const year = instant.getUTCFullYear();
  if (!(year >= 2007 && year <= 2099)) return tzOffset(DISPLAY_TIME_ZONE, instant);
  const start = Date.UTC(year, 2, nthSunday(year, 2, 2), 7);
  const end = Date.UTC(year, 10, nthSunday(year, 10, 1), 6);
  return t >= start && t < end ? -240 : -300;
}

function parseDay(date: string): { y: number; m: number; d: number } {
  const m = DAY.exec(date);
  if (!m) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) {
    throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  }
  return { y, m: mo, d };
}

/** The longest range a count, report or analysis covers: a year, leap day included. */
export const MAX_RANGE_DAYS = 366;

/** Days from `start` to `end`, both inclusive, for valid YYYY-MM-DD days. */
export function daysInRange(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / MS_PER_DAY) + 1;
}

/** The last end date a range from `start` may have (MAX_RANGE_DAYS days, both ends included). */
export const lastRangeEnd = (start: string) => addDays(start, MAX_RANGE_DAYS - 1);

/** Adds whole calendar days to a 'YYYY-MM-DD' date. */
export function addDays(date: string, days: number): string {
  const { y, m, d } = parseDay(date);
  return new Date(Date.UTC(y, m - 1, d) + days * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * The UTC instant of a New York wall-clock time on a calendar day. Times in the spring-forward
 * gap resolve forward (02:30 → 03:30 EDT); repeated fall-back times resolve to the first (EDT) one.
 */
export function nyLocalToUtc(date: string, hour = 0, minute = 0, second = 0): Date {
  const { y, m, d } = parseDay(date);
  if (!(y >= 2007 && y <= 2099)) return new Date(new TZDate(y, m - 1, d, hour, minute, second, DISPLAY_TIME_ZONE).getTime());
  // The wall-clock time read as UTC, then as daylight time (4 h behind UTC) or standard time (5 h).
  const wall = Date.UTC(y, m - 1, d, hour, minute, second);
  const daylight = wall + 240 * 60_000;
  if (nyOffsetMinutes(new Date(daylight)) === -240) return new Date(daylight);
  // Standard time; in the spring-forward gap the same instant is the time one hour later in daylight time.
  return new Date(wall + 300 * 60_000);
}

/** A New York calendar day as UTC instants: its midnight and the next day's midnight (23 h or 25 h on DST days). */
export function nyDayBounds(date: string): { startUtc: string; endUtc: string } {
  return {
    startUtc: nyLocalToUtc(date).toISOString(),
    endUtc: nyLocalToUtc(addDays(date, 1)).toISOString(),
  };
}

/** The New York calendar day ('YYYY-MM-DD') an instant falls on. */
export function nyDayOf(value: string | Date): string {
  const d = parseUtc(value);
  if (!d) throw new RangeError(`Not a timestamp: ${String(value)}`);
  const w = nyWallClock(d);
  return ymd(w.year, w.month, w.day);
}

export function nyToday(now: Date = new Date()): string {
  return nyDayOf(now);
}

/**
 * The New York calendar day before today. On the day after spring-forward, "24 h ago" would land
 * two calendar days back; every day boundary here is a calendar day, so the calendar is used.
 */
export function nyYesterday(now: Date = new Date()): string {
  return addDays(nyToday(now), -1);
}

/** Every calendar day from start to end, both included; empty when end is before start. */
export function nyDateRange(startDate: string, endDate: string): string[] {
  parseDay(startDate);
  parseDay(endDate);
  const days: string[] = [];
  for (let day = startDate; day <= endDate; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The calendar month containing `now` in New York, as UTC ISO bounds [start, end). */
export function nyMonthRange(now: Date): { start: string; end: string } {
  const { year, month } = nyWallClock(now);
  const first = (y: number, m: number) => ymd(m > 12 ? y + 1 : y, m > 12 ? 1 : m, 1);
  return { start: nyLocalToUtc(first(year, month)).toISOString(), end: nyLocalToUtc(first(year, month + 1)).toISOString() };
}

/**
 * nyDateTime for long runs of timestamps (a million-row export): New York's offset is looked up
 * once per UTC hour, since its changes fall on whole UTC hours (and offsets are whole hours), and
 * the rest is arithmetic. A canonical ISO time ('2026-03-08T06:30:00.000Z', how calls are stored)
 * in the same UTC hour as the one before reuses that hour's New York date and hour with its own
 * minutes and seconds, without a Date.
 */
export function nyDateTimeFormatter(): (value: string | Date | null | undefined) => string | null {
  let hour = Number.NaN;
  let offsetMs = 0;
  let isoHour = "";
  let localHour = "";
  return (value) => {
    const canonical = typeof value === "string" && ISO_UTC.test(value);
    if (canonical && value.slice(0, 13) === isoHour) return localHour + value.slice(13, 19);
    const d = parseUtc(value);
    if (!d) return null;
    const t = d.getTime();
    const h = Math.floor(t / 3_600_000);
    if (h !== hour) {
      hour = h;
      offsetMs = nyOffsetMinutes(d) * 60_000;
    }
    const local = new Date(t + offsetMs).toISOString();
    if (canonical) {
      isoHour = value.slice(0, 13);
      localHour = `${local.slice(0, 10)} ${local.slice(11, 13)}`;
    }
    return `${local.slice(0, 10)} ${local.slice(11, 19)}`;
  };
}

/** A canonical UTC time as toISOString writes it, years 1000-9999. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:[0-5]\d:[0-5]\d(?:\.\d{3})?Z$/;

/** Server timestamp → 'YYYY-MM-DD HH:mm:ss' on New York's 24-hour clock; null when it does not parse. */
export function nyDateTime(value: string | Date | null | undefined): string | null {
  const d = parseUtc(value);
  if (!d) return null;
  const w = nyWallClock(d);
  return `${ymd(w.year, w.month, w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}
