import { TZDate, tzOffset } from "@date-fns/tz";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DISPLAY_TIME_ZONE } from "./constants";
import {
  addDays,
  nyDateRange,
  nyDayBounds,
  nyDayOf,
  nyLocalToUtc,
  nyMonthRange,
  nyOffsetMinutes,
  nyWallClock,
  nyToday,
  nyYesterday,
} from "./ny-time";

const hours = (b: { startUtc: string; endUtc: string }) => (Date.parse(b.endUtc) - Date.parse(b.startUtc)) / 3_600_000;

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

describe("nyMonthRange", () => {
  it.each([
    // Standard time: the month starts at 05:00 UTC.
    ["2026-01-15T12:00:00Z", "2026-01-01T05:00:00.000Z", "2026-02-01T05:00:00.000Z"],
    // March starts in standard time and ends in daylight time.
    ["2026-03-20T12:00:00Z", "2026-03-01T05:00:00.000Z", "2026-04-01T04:00:00.000Z"],
    // Still the previous month in New York although already the 1st in UTC.
    ["2026-07-01T03:30:00Z", "2026-06-01T04:00:00.000Z", "2026-07-01T04:00:00.000Z"],
    ["2026-12-31T23:59:59Z", "2026-12-01T05:00:00.000Z", "2027-01-01T05:00:00.000Z"],
  ])("at %s is [%s, %s)", (now, start, end) => {
    expect(nyMonthRange(new Date(now))).toEqual({ start, end });
  });
});

describe("nyDateTimeFormatter", () => {
  it("formats exactly as nyDateTime, hour by hour across both daylight-saving changes and in any order", async () => {
    const { nyDateTime, nyDateTimeFormatter } = await import("./ny-time");
    const format = nyDateTimeFormatter();
    const instants: number[] = [];
    for (const [from, to] of [["2026-03-07T00:00:00Z", "2026-03-10T00:00:00Z"], ["2026-10-31T00:00:00Z", "2026-11-03T00:00:00Z"]]) {
      for (let t = Date.parse(from); t < Date.parse(to); t += 7 * 60_000 + 13_000) instants.push(t);
    }
    // In time order (the export's) and shuffled (the cache must not be trusted across hours).
    const shuffled = [...instants].sort((a, b) => ((a * 7919) % 1000) - ((b * 7919) % 1000));
    for (const t of [...instants, ...shuffled]) {
      const iso = new Date(t).toISOString();
      expect(format(iso)).toBe(nyDateTime(iso));
    }
    expect(format("not a time")).toBeNull();
    expect(format(null)).toBeNull();
  });

  it("formats any run of timestamps as nyDateTime, the same hour's reuse included (canonical, without ms, SQL form, invalid)", async () => {
    const { nyDateTime, nyDateTimeFormatter } = await import("./ny-time");
    // Runs that stay in one UTC hour for a while, then jump (the export's shape), in several spellings.
    const hourStart = fc.integer({ min: Date.UTC(2005, 0, 1) / 3_600_000, max: Date.UTC(2101, 0, 1) / 3_600_000 }).map((h) => h * 3_600_000);
    const spelling = fc.constantFrom<(t: number) => string>(
      (t) => new Date(t).toISOString(),
      (t) => new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z"),
      (t) => new Date(t).toISOString().replace("T", " ").slice(0, 19),
      (t) => new Date(t).toISOString().replace(/:\d{2}\.\d{3}Z$/, ":60.000Z"),
      (t) => new Date(t).toISOString().slice(0, 13) + ":75:00.000Z",
    );
    const run = fc.tuple(hourStart, fc.array(fc.tuple(fc.integer({ min: 0, max: 3_599_999 }), spelling), { minLength: 1, maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 6 }), (runs) => {
        const format = nyDateTimeFormatter();
        for (const [start, values] of runs) {
          for (const [ms, spell] of values) {
            const value = spell(start + ms);
            expect(format(value), value).toBe(nyDateTime(value));
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("nyOffsetMinutes by the US rule", () => {
  // The rule is written out (no time-zone lookup on a page's first render); the runtime's zone data
  // is the reference it must agree with, at random instants and at every change of every year.
  const reference = (t: number) => tzOffset(DISPLAY_TIME_ZONE, new Date(t));
  const wallByZoneData = (t: number) => {
    const z = new TZDate(t, DISPLAY_TIME_ZONE);
    return { year: z.getFullYear(), month: z.getMonth() + 1, day: z.getDate(), hour: z.getHours(), minute: z.getMinutes(), second: z.getSeconds() };
  };

  it("agrees with the zone data at random instants from 1990 to 2105", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2105, 0, 1) }), (t) => {
        expect(nyOffsetMinutes(new Date(t))).toBe(reference(t));
        expect(nyWallClock(new Date(t))).toEqual(wallByZoneData(t));
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with the zone data on both sides of every change from 2007 to 2099", () => {
    let changes = 0;
    for (let year = 2007; year <= 2099; year++) {
      // Hour by hour through March and November finds each change; then a millisecond either side.
      for (const month of [2, 10]) {
        for (let t = Date.UTC(year, month, 1); t < Date.UTC(year, month + 1, 1); t += 3_600_000) {
          if (reference(t) === reference(t + 3_600_000)) continue;
          changes++;
          for (const at of [t, t + 3_600_000 - 1, t + 3_600_000, t + 3_600_000 + 1]) expect(nyOffsetMinutes(new Date(at))).toBe(reference(at));
        }
      }
    }
    expect(changes).toBe(2 * (2099 - 2007 + 1));
  });

  it("converts wall-clock times to UTC as the zone data does, gaps forward and repeats to the first", () => {
    const byZoneData = (day: string, h: number, mi: number, sec: number) => {
      const [y, m, d] = day.split("-").map(Number);
      return new TZDate(y, m - 1, d, h, mi, sec, DISPLAY_TIME_ZONE).getTime();
    };
    const day = fc.integer({ min: Date.UTC(1995, 0, 1), max: Date.UTC(2104, 11, 31) }).map((t) => new Date(t).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), (d, h, mi, sec) => {
        expect(nyLocalToUtc(d, h, mi, sec).getTime()).toBe(byZoneData(d, h, mi, sec));
      }),
      { numRuns: 2000 },
    );
    // Every hour of every change day, 2007-2099: the gap and the repeated hour.
    for (let year = 2007; year <= 2099; year++) {
      for (const t of [Date.UTC(year, 2, 1), Date.UTC(year, 10, 1)]) {
        for (let k = 0; k < 14; k++) {
          const d = new Date(t + k * 86_400_000).toISOString().slice(0, 10);
          for (const [h, mi] of [[0, 0], [1, 0], [1, 30], [2, 0], [2, 30], [3, 0], [23, 59]]) {
            expect(nyLocalToUtc(d, h, mi).getTime(), `${d} ${h}:${mi}`).toBe(byZoneData(d, h, mi, 0));
          }
        }
      }
    }
  });
});
