import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayName, formatCount, formatDecimal, formatDuration, formatMoney, formatPhone, formatTimestamp, initials, truncateSummary } from "./format";
import { parseUtc } from "./ny-time";

describe("formatPhone", () => {
  it("formats exactly 11 digits as +D(AAA) EEE-LLLL", () => {
    expect(formatPhone("15551234567")).toBe("+1(555) 123-4567");
    expect(formatPhone("+1 555-123-4567")).toBe("+1(555) 123-4567");
    expect(formatPhone("+1 (305) 555-0142")).toBe("+1(305) 555-0142");
  });
  it("shows any other value unchanged", () => {
    expect(formatPhone("5551234567")).toBe("5551234567");
    expect(formatPhone("+44 20 7946 0958")).toBe("+44 20 7946 0958");
    expect(formatPhone("ext. 12")).toBe("ext. 12");
  });
  it("shows 'Not Assigned' when empty", () => {
    expect(formatPhone("")).toBe("Not Assigned");
    expect(formatPhone("   ")).toBe("Not Assigned");
    expect(formatPhone(null)).toBe("Not Assigned");
    expect(formatPhone(undefined)).toBe("Not Assigned");
  });
});

describe("formatDuration", () => {
  it("shows '0m 0s' for empty or non-numeric values", () => {
    expect(formatDuration(null)).toBe("0m 0s");
    expect(formatDuration(undefined)).toBe("0m 0s");
    expect(formatDuration("")).toBe("0m 0s");
    expect(formatDuration("abc")).toBe("0m 0s");
    expect(formatDuration(Number.NaN)).toBe("0m 0s");
  });
  it("shows minutes and seconds under an hour", () => {
    expect(formatDuration(0)).toBe("0m 0s");
    expect(formatDuration(59)).toBe("0m 59s");
    expect(formatDuration(60)).toBe("1m 0s");
    expect(formatDuration(125)).toBe("2m 5s");
    expect(formatDuration("90")).toBe("1m 30s");
    expect(formatDuration(3599)).toBe("59m 59s");
    expect(formatDuration(62.9)).toBe("1m 2s");
  });
  it("adds hours from one hour on", () => {
    expect(formatDuration(3600)).toBe("1h 0m 0s");
    expect(formatDuration(3725)).toBe("1h 2m 5s");
    expect(formatDuration(90061)).toBe("25h 1m 1s");
  });
});

describe("initials", () => {
  it("is empty for an empty name", () => {
    expect(initials("")).toBe("");
    expect(initials("   ")).toBe("");
    expect(initials(null)).toBe("");
  });
  it("takes the first two letters of a single word", () => {
    expect(initials("madonna")).toBe("MA");
    expect(initials("  Cher ")).toBe("CH");
    expect(initials("x")).toBe("X");
  });
  it("takes the first letters of the first two words", () => {
    expect(initials("jane doe")).toBe("JD");
    expect(initials("Mary  Ann Smith")).toBe("MA");
  });
});

describe("formatCount", () => {
  it("shows '-' when unknown", () => {
    expect(formatCount(undefined)).toBe("-");
    expect(formatCount(null)).toBe("-");
    expect(formatCount(Number.NaN)).toBe("-");
  });
  it("uses en-US thousands separators", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1234)).toBe("1,234");
    expect(formatCount(1_000_000)).toBe("1,000,000");
  });
});

describe("truncateSummary", () => {
  it("keeps text of 50 characters or fewer", () => {
    const fifty = "a".repeat(50);
    expect(truncateSummary(fifty)).toBe(fifty);
    expect(truncateSummary("Short summary.")).toBe("Short summary.");
  });
  it("cuts longer text to 50 characters plus '...'", () => {
    const text = "The caller booked an eye exam at the Miami store for Thursday morning.";
    expect(truncateSummary(text)).toBe(`${text.slice(0, 50)}...`);
    expect(truncateSummary(text)).toHaveLength(53);
    expect(truncateSummary("abcdef", 3)).toBe("abc...");
  });
  it("is empty for no summary", () => {
    expect(truncateSummary(null)).toBe("");
    expect(truncateSummary("")).toBe("");
  });
});

describe("displayName", () => {
  it("prefers the full name", () => {
    expect(displayName({ first_name: "Jane", last_name: "Doe", email: "j@x.com", username: "jd" })).toBe("Jane Doe");
    expect(displayName({ first_name: "Jane", last_name: null, email: "j@x.com" })).toBe("Jane");
  });
  it("falls back to the email, then the username", () => {
    expect(displayName({ first_name: " ", last_name: "", email: "j@x.com", username: "jd" })).toBe("j@x.com");
    expect(displayName({ email: null, username: "jd" })).toBe("jd");
    expect(displayName({})).toBe("");
    expect(displayName(null)).toBe("");
  });
});

describe("formatTimestamp (America/New_York, 24-hour clock)", () => {
  it("reads SQL-format timestamps as UTC", () => {
    expect(parseUtc("2026-01-15 17:05:09")?.toISOString()).toBe("2026-01-15T17:05:09.000Z");
    expect(formatTimestamp("2026-01-15 17:05:09")).toBe("2026-01-15 12:05:09");
    expect(formatTimestamp("2026-07-04 03:00:00")).toBe("2026-07-03 23:00:00");
  });
  it("reads ISO strings with a zone", () => {
    expect(formatTimestamp("2026-07-04T18:30:00.000Z")).toBe("2026-07-04 14:30:00");
    expect(formatTimestamp("2026-07-04T18:30:00+02:00")).toBe("2026-07-04 12:30:00");
    expect(formatTimestamp("2026-01-01T00:00:00Z")).toBe("2025-12-31 19:00:00");
  });
  it("uses 00 for the midnight hour, never 24", () => {
    expect(formatTimestamp("2026-01-15 05:00:00")).toBe("2026-01-15 00:00:00");
  });
  it("follows the spring-forward change on 2026-03-08 (02:00 EST → 03:00 EDT)", () => {
    expect(formatTimestamp("2026-03-08 06:30:00")).toBe("2026-03-08 01:30:00"); // EST, UTC-5
    expect(formatTimestamp("2026-03-08 06:59:59")).toBe("2026-03-08 01:59:59");
    expect(formatTimestamp("2026-03-08 07:00:00")).toBe("2026-03-08 03:00:00"); // EDT, UTC-4
    expect(formatTimestamp("2026-03-08 07:30:00")).toBe("2026-03-08 03:30:00");
  });
  it("follows the fall-back change on 2026-11-01 (02:00 EDT → 01:00 EST)", () => {
    expect(formatTimestamp("2026-11-01 05:30:00")).toBe("2026-11-01 01:30:00"); // first 01:30, EDT
    expect(formatTimestamp("2026-11-01 05:59:59")).toBe("2026-11-01 01:59:59");
    expect(formatTimestamp("2026-11-01 06:00:00")).toBe("2026-11-01 01:00:00"); // EST begins
    expect(formatTimestamp("2026-11-01 06:30:00")).toBe("2026-11-01 01:30:00"); // second 01:30, EST
    expect(formatTimestamp("2026-11-01 08:00:00")).toBe("2026-11-01 03:00:00");
  });
  it("shows unparsable text as given and nothing for empty", () => {
    expect(formatTimestamp("not a date")).toBe("not a date");
    expect(formatTimestamp("")).toBe("");
    expect(formatTimestamp(null)).toBe("");
  });
});

describe("formatMoney, formatDecimal and formatCount written out", () => {
  it("format exactly as toLocaleString does, for any amount and number of cents digits, in any order", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: -1e12, max: 1e12, noNaN: true }),
          // Amounts on a half-cent, where rounding decides, and whole cents.
          fc.integer({ min: -1e8, max: 1e8 }).map((k) => k / 1000),
          fc.integer({ min: -1e8, max: 1e8 }).map((k) => k / 100),
          fc.integer({ min: -1e9, max: 1e9 }),
          fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, 1e100, 999, 1000, -1000),
          fc.constantFrom(0, -0, 0.005, 1.005, 2.675, 999.995, 9.995, -0.004, 1e21, Number.MAX_VALUE, Number.MIN_VALUE, Infinity, -Infinity),
        ),
        fc.integer({ min: 0, max: 6 }),
        (n, digits) => {
        expect(formatMoney(n, digits)).toBe(n.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: digits, maximumFractionDigits: digits }));
        expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
          expect(formatDecimal(n, digits)).toBe(n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }));
        },
      ),
      { numRuns: 3000 },
    );
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney(null)).toBe("-");
  });
});
