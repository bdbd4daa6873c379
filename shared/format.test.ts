import { describe, expect, it } from "vitest";
import {
  addDays,
  displayName,
  formatCount,
  formatDuration,
  formatPhone,
  formatTimestamp,
  initials,
  nyDateRange,
  nyDayBounds,
  nyDayOf,
  nyLocalToUtc,
  nyOffsetMinutes,
  nyToday,
  nyYesterday,
  parseUtc,
  truncateSummary,
} from "./format";

const hours = (b: { startUtc: string; endUtc: string }) => (Date.parse(b.endUtc) - Date.parse(b.startUtc)) / 3_600_000;

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

describe("New York calendar days", () => {
  it("knows the offset on both sides of each change", () => {
    expect(nyOffsetMinutes(new Date("2026-03-08T06:59:59Z"))).toBe(-300);
    expect(nyOffsetMinutes(new Date("2026-03-08T07:00:00Z"))).toBe(-240);
    expect(nyOffsetMinutes(new Date("2026-11-01T05:59:59Z"))).toBe(-240);
    expect(nyOffsetMinutes(new Date("2026-11-01T06:00:00Z"))).toBe(-300);
  });

  it("bounds an ordinary day by 24 hours", () => {
    expect(nyDayBounds("2026-01-15")).toEqual({ startUtc: "2026-01-15T05:00:00.000Z", endUtc: "2026-01-16T05:00:00.000Z" });
    expect(nyDayBounds("2026-07-04")).toEqual({ startUtc: "2026-07-04T04:00:00.000Z", endUtc: "2026-07-05T04:00:00.000Z" });
  });
  it("makes 2026-03-08 23 hours long", () => {
    const b = nyDayBounds("2026-03-08");
    expect(b).toEqual({ startUtc: "2026-03-08T05:00:00.000Z", endUtc: "2026-03-09T04:00:00.000Z" });
    expect(hours(b)).toBe(23);
    expect(hours(nyDayBounds("2026-03-07"))).toBe(24);
    expect(hours(nyDayBounds("2026-03-09"))).toBe(24);
  });
  it("makes 2026-11-01 25 hours long", () => {
    const b = nyDayBounds("2026-11-01");
    expect(b).toEqual({ startUtc: "2026-11-01T04:00:00.000Z", endUtc: "2026-11-02T05:00:00.000Z" });
    expect(hours(b)).toBe(25);
    expect(hours(nyDayBounds("2026-10-31"))).toBe(24);
    expect(hours(nyDayBounds("2026-11-02"))).toBe(24);
  });
  it("bounds are contiguous across a year", () => {
    const days = nyDateRange("2026-01-01", "2026-12-31");
    expect(days).toHaveLength(365);
    for (let i = 1; i < days.length; i++) expect(nyDayBounds(days[i]).startUtc).toBe(nyDayBounds(days[i - 1]).endUtc);
  });
  it("rejects values that are not calendar dates", () => {
    expect(() => nyDayBounds("2026-02-30")).toThrow(RangeError);
    expect(() => nyDayBounds("03/08/2026")).toThrow(RangeError);
  });

  it("converts New York wall-clock times to UTC on DST days", () => {
    expect(nyLocalToUtc("2026-03-08", 1, 30).toISOString()).toBe("2026-03-08T06:30:00.000Z");
    expect(nyLocalToUtc("2026-03-08", 3, 0).toISOString()).toBe("2026-03-08T07:00:00.000Z");
    // 02:30 does not exist that morning; it resolves forward to 03:30 EDT.
    expect(nyLocalToUtc("2026-03-08", 2, 30).toISOString()).toBe("2026-03-08T07:30:00.000Z");
    // 01:30 happens twice; the first (EDT) is taken.
    expect(nyLocalToUtc("2026-11-01", 1, 30).toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(nyLocalToUtc("2026-11-01", 3, 0).toISOString()).toBe("2026-11-01T08:00:00.000Z");
    expect(nyLocalToUtc("2026-11-01", 9, 0).toISOString()).toBe("2026-11-01T14:00:00.000Z");
  });

  it("puts an instant on its New York calendar day", () => {
    expect(nyDayOf("2026-03-09T03:59:59.999Z")).toBe("2026-03-08");
    expect(nyDayOf("2026-03-09T04:00:00.000Z")).toBe("2026-03-09");
    expect(nyDayOf("2026-11-02T04:59:59Z")).toBe("2026-11-01");
    expect(nyDayOf("2026-11-02T05:00:00Z")).toBe("2026-11-02");
    expect(nyDayOf("2026-11-02 05:00:00")).toBe("2026-11-02");
    expect(() => nyDayOf("garbage")).toThrow(RangeError);
  });

  it("knows today and yesterday in New York, not in UTC", () => {
    // 02:30 UTC on the 15th is still the evening of the 14th in New York.
    expect(nyToday(new Date("2026-01-15T02:30:00Z"))).toBe("2026-01-14");
    expect(nyYesterday(new Date("2026-01-15T02:30:00Z"))).toBe("2026-01-13");
    expect(nyToday(new Date("2026-01-15T12:00:00Z"))).toBe("2026-01-15");
    expect(nyYesterday(new Date("2026-03-01T12:00:00Z"))).toBe("2026-02-28");
  });
  it("takes yesterday as the previous calendar day across DST changes", () => {
    // 00:30 EDT on 03-09: 24 h earlier is 03-07 23:30 EST, but the calendar day before is 03-08.
    expect(nyYesterday(new Date("2026-03-09T04:30:00Z"))).toBe("2026-03-08");
    // 23:30 EST on 11-01, the 25-hour day.
    expect(nyToday(new Date("2026-11-02T04:30:00Z"))).toBe("2026-11-01");
    expect(nyYesterday(new Date("2026-11-02T04:30:00Z"))).toBe("2026-10-31");
  });

  it("lists an inclusive range of days", () => {
    expect(nyDateRange("2026-02-27", "2026-03-02")).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    expect(nyDateRange("2026-03-08", "2026-03-08")).toEqual(["2026-03-08"]);
    expect(nyDateRange("2026-03-09", "2026-03-08")).toEqual([]);
    expect(nyDateRange("2026-10-31", "2026-11-02")).toEqual(["2026-10-31", "2026-11-01", "2026-11-02"]);
    expect(() => nyDateRange("2026-01-01", "soon")).toThrow(RangeError);
  });
  it("adds calendar days across month and year ends", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
  });
});
