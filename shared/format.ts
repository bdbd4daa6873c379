// Display helpers (docs/product/errors-and-texts.md#validation-messages), shared by worker and web; New York time comes from ./ny-time.ts.
// Relative imports carry `.ts` so the seed script can load this file in plain Node through tsx.
import { CALL_SUMMARY_MAX, SECONDS_PER_HOUR, SECONDS_PER_MINUTE } from "./constants.ts";
import { UNKNOWN_COUNT } from "./numbers.ts";
import { nyDateTime } from "./ny-time.ts";

// Numbers live in numbers.ts (no imports, so the spec's texts can use them); every caller keeps
// importing them from here.
export { formatCount, formatDecimal, formatMoney, UNKNOWN_COUNT } from "./numbers.ts";

export const NOT_ASSIGNED = "Not Assigned";
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
