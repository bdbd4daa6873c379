// Display helpers (spec 1 §5), shared by worker and web; New York time comes from ./ny-time.ts.
// Relative imports carry `.ts` so the seed script can load this file in plain Node through tsx.
import { CALL_SUMMARY_MAX, SECONDS_PER_HOUR, SECONDS_PER_MINUTE } from "./constants.ts";
import { nyDateTime } from "./ny-time.ts";

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

// Counts and money are written out by hand: the first Intl number formatter loads the runtime's
// number data and the first currency formatter its currency data, ~90 and ~180 ms of a phone's main
// thread in the dashboard's first render (decision 030). A property test holds both to `Intl`.
let countFormat: Intl.NumberFormat | undefined;

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Unknown (null, undefined, NaN) → '-'; otherwise en-US thousands separators. */
export function formatCount(n: number | null | undefined): string {
  if (n == null || Number.isNaN(n)) return UNKNOWN_COUNT;
  // Whole counts (all of them, in practice) are written out; the first Intl formatter loads the
  // runtime's number data (~90 ms of a phone's first render). Anything else goes to Intl.
  if (Number.isSafeInteger(n)) return `${n < 0 || Object.is(n, -0) ? "-" : ""}${groupThousands(String(Math.abs(n)))}`;
  countFormat ??= new Intl.NumberFormat("en-US");
  return countFormat.format(n);
}

/** Adds one to a string of decimal digits ("199" → "200", "99" → "100"). */
function incrementDigits(digits: string): string {
  const d = digits.split("");
  let i = d.length - 1;
  while (i >= 0 && d[i] === "9") d[i--] = "0";
  if (i < 0) return `1${d.join("")}`;
  d[i] = String(Number(d[i]) + 1);
  return d.join("");
}

/**
 * A number with exactly `digits` decimals and en-US thousands separators, rounded as Intl rounds
 * (the shortest decimal form, half away from zero); `prefix` goes between the sign and the digits.
 */
function formatFixed(n: number, digits: number, prefix = ""): string {
  const text = String(Math.abs(n));
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isInteger(digits) || digits < 0 || digits > 20) {
    const options = { minimumFractionDigits: digits, maximumFractionDigits: digits };
    return n.toLocaleString("en-US", prefix ? { ...options, style: "currency", currency: "USD" } : options);
  }
  const [whole, fraction = ""] = text.split(".");
  let kept = whole + fraction.slice(0, digits).padEnd(digits, "0");
  if (fraction.length > digits && fraction[digits] >= "5") kept = incrementDigits(kept);
  const int = kept.slice(0, kept.length - digits) || "0";
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  return `${sign}${prefix}${groupThousands(int)}${digits > 0 ? `.${kept.slice(kept.length - digits)}` : ""}`;
}

/** A number with exactly `digits` decimals and en-US thousands separators ('-' when unknown). */
export function formatDecimal(n: number | null | undefined, digits: number): string {
  if (n == null || Number.isNaN(n)) return UNKNOWN_COUNT;
  return formatFixed(n, digits);
}

/** An amount of money in US dollars, cents shown ('-' when unknown): the platform reports call cost in USD. */
export function formatMoney(n: number | null | undefined, digits = 2): string {
  if (n == null || Number.isNaN(n)) return UNKNOWN_COUNT;
  return formatFixed(n, digits, "$");
}

/** A share as a whole percent ('-' when there is no base). */
export function formatRate(r: number | null | undefined): string {
  if (r == null || Number.isNaN(r)) return UNKNOWN_COUNT;
  return `${Math.round(r * 100)}%`;
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

/** Server timestamp → 'YYYY-MM-DD HH:mm:ss' on New York's 24-hour clock; unparsable text is shown as given. */
export function formatTimestamp(value: string | Date | null | undefined): string {
  return nyDateTime(value) ?? (typeof value === "string" ? value : "");
}
