// Counts, decimals and money for display (en-US), with no other import: the spec's texts use them,
// and the first page loads those texts.
// Relative imports carry `.ts` so Node scripts can load this file through type stripping.

export const UNKNOWN_COUNT = "-";

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
 * (the shortest decimal form, half away from zero); in US dollars ('$' after the sign) when `dollars`.
 */
function formatFixed(n: number, digits: number, dollars: boolean): string {
  const text = String(Math.abs(n));
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isInteger(digits) || digits < 0 || digits > 20) {
    const options = { minimumFractionDigits: digits, maximumFractionDigits: digits };
    return n.toLocaleString("en-US", dollars ? { ...options, style: "currency", currency: "USD" } : options);
  }
  const [whole, fraction = ""] = text.split(".");
  let kept = whole + fraction.slice(0, digits).padEnd(digits, "0");
  if (fraction.length > digits && fraction[digits] >= "5") kept = incrementDigits(kept);
  const int = kept.slice(0, kept.length - digits) || "0";
  const sign = n < 0 || Object.is(n, -0) ? "-" : "";
  return `${sign}${dollars ? "$" : ""}${groupThousands(int)}${digits > 0 ? `.${kept.slice(kept.length - digits)}` : ""}`;
}

/** A number with exactly `digits` decimals and en-US thousands separators ('-' when unknown). */
export function formatDecimal(n: number | null | undefined, digits: number): string {
  if (n == null || Number.isNaN(n)) return UNKNOWN_COUNT;
  return formatFixed(n, digits, false);
}

/** An amount of money in US dollars, cents shown ('-' when unknown): the platform reports call cost in USD. */
export function formatMoney(n: number | null | undefined, digits = 2): string {
  if (n == null || Number.isNaN(n)) return UNKNOWN_COUNT;
  return formatFixed(n, digits, true);
}

