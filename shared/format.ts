// Display helpers (spec 1 §5) and the America/New_York calendar-day helpers that every
// date filter, "today", "yesterday" and roll-up uses. Pure functions, shared by worker and web.
// Relative imports carry `.ts` so the seed script can load this file in plain Node through tsx.
import { CALL_SUMMARY_MAX, DISPLAY_TIME_ZONE, SECONDS_PER_HOUR, SECONDS_PER_MINUTE } from "./constants.ts";

export const NOT_ASSIGNED = "Not Assigned";
export const UNKNOWN_COUNT = "-";
export const ELLIPSIS = "...";

/** 11 digits → '+1(555) 123-4567'; any other value is shown as given; empty → 'Not Assigned'. */
export function formatPhone(value: string | null | undefined): string {
  if (value == null || value.trim() === "") return NOT_ASSIGNED;
  const digits = value.replace(/\D/g, "");
  if (digits.length !== 11) return value;
  return `+${digits[0]}(${digits.slice(1, 4)}) ${digits.slice(4, 7)}-${digits.slice(7)}`;
}

/** Seconds → 'Ym Zs' under an hour, 'Xh Ym Zs' from an hour; empty or non-numeric → '0m 0s'. */
export function formatDuration(seconds: number | string | null | undefined): string {
  if (seconds == null || (typeof seconds === "string" && seconds.trim() === "")) return "0m 0s";
  const n = Number(seconds);
  if (!Number.isFinite(n)) return "0m 0s";
  const total = Math.max(0, Math.floor(n));
  const h = Math.floor(total / SECONDS_PER_HOUR);
  const m = Math.floor((total % SECONDS_PER_HOUR) / SECONDS_PER_MINUTE);
  const s = total % SECONDS_PER_MINUTE;
  return h > 0 ? `${h}h ${m}m ${s}s` : `${m}m ${s}s`;
}

/** One word → its first two letters; two or more → first letters of the first two words; upper case. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "";
  if (words.length === 1) return words[0].slice(0, 2).toUpperCase();
  return (words[0][0] + words[1][0]).toUpperCase();
}

/** Unknown (null, undefined, NaN) → '-'; otherwise en-US thousands separators. */
export function formatCount(n: number | null | undefined): string {
  if (n == null || Number.isNaN(n)) return UNKNOWN_COUNT;
  return n.toLocaleString("en-US");
}

/** Call summaries in lists: cut to `max` characters plus '...'. */
export function truncateSummary(text: string | null | undefined, max: number = CALL_SUMMARY_MAX): string {
  if (!text) return "";
  return text.length > max ? `${text.slice(0, max)}${ELLIPSIS}` : text;
}

export interface NamedUser {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  username?: string | null;
}

/** Sidebar user block: full name, else email, else username. */
export function displayName(user: NamedUser | null | undefined): string {
  if (!user) return "";
  const full = [user.first_name, user.last_name]
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(" ");
  return full || user.email?.trim() || user.username?.trim() || "";
}

// ---- Time: UTC instants shown and bucketed in America/New_York ----

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

// One formatter reused: constructing Intl formatters is the expensive part.
const nyParts = new Intl.DateTimeFormat("en-US", {
  timeZone: DISPLAY_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function nyWallClock(instant: Date): WallClock {
  const out: Record<string, number> = {};
  for (const p of nyParts.formatToParts(instant)) if (p.type !== "literal") out[p.type] = Number(p.value);
  return out as unknown as WallClock;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const ymd = (y: number, m: number, d: number) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`;

/** Server timestamp → 'YYYY-MM-DD HH:mm:ss' on New York's 24-hour clock; unparsable text is shown as given. */
export function formatTimestamp(value: string | Date | null | undefined): string {
  const d = parseUtc(value);
  if (!d) return typeof value === "string" ? value : "";
  const w = nyWallClock(d);
  return `${ymd(w.year, w.month, w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** Minutes New York is ahead of UTC at this instant (-300 in winter, -240 in summer). */
export function nyOffsetMinutes(instant: Date): number {
  const w = nyWallClock(instant);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
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
  const wall = Date.UTC(y, m - 1, d, hour, minute, second);
  // The offset is read at the guess, then corrected once if the guess fell across a change.
  const guessOffset = nyOffsetMinutes(new Date(wall));
  let utc = wall - guessOffset * 60_000;
  const actualOffset = nyOffsetMinutes(new Date(utc));
  if (actualOffset !== guessOffset) {
    const alt = wall - actualOffset * 60_000;
    // Keep whichever candidate really shows this wall-clock time; in a gap neither does, so take the later.
    utc = nyOffsetMinutes(new Date(alt)) === actualOffset ? alt : Math.max(utc, alt);
  }
  return new Date(utc);
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
