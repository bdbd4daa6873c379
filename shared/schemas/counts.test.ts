import { describe, expect, it } from "vitest";
import { APPOINTMENT_CATEGORY_KEYS } from "../constants";
import {
  analyticsWonBody,
  appointmentCountsQuery,
  callLogCountsQuery,
  dailyReportQuery,
  emptyCategoryCounts,
  leadSummaryQuery,
} from "./counts";
import { daysInRange } from "../ny-time";

/** The first issue's field path and message, as the 400 answer names them. */
function firstIssue(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const issue = result.error?.issues[0];
  return issue ? { field: issue.path.map(String).join("."), message: issue.message } : null;
}

const range = { dateFilterType: "range", startDate: "2026-11-01", endDate: "2026-11-22" };

describe("call-log count query", () => {
  it("takes the spec's parameters and treats a blank agent as all agents", () => {
    expect(callLogCountsQuery.parse({ ...range, agent: "", callType: "Both" })).toEqual({
      dateFilterType: "range",
      startDate: "2026-11-01",
      endDate: "2026-11-22",
      agent: undefined,
      callType: "Both",
    });
  });

  it.each([
    [{ ...range, callType: "Sideways" }, "callType"],
    [{ ...range }, "callType"],
    [{ ...range, startDate: "2026-13-01", callType: "Both" }, "startDate"],
    [{ ...range, startDate: "2026-02-30", callType: "Both" }, "startDate"],
    [{ ...range, endDate: "22/11/2026", callType: "Both" }, "endDate"],
    [{ ...range, startDate: "2026-11-23", callType: "Both" }, "endDate"],
    [{ ...range, dateFilterType: "month", callType: "Both" }, "dateFilterType"],
    [{ ...range, agent: "x".repeat(201), callType: "Both" }, "agent"],
  ])("refuses bad input and names the parameter (%#)", (query, field) => {
    expect(firstIssue(callLogCountsQuery.safeParse(query))?.field).toBe(field);
  });

  it("accepts a year with a leap day (366 days) and refuses one day more", () => {
    expect(callLogCountsQuery.safeParse({ startDate: "2028-01-01", endDate: "2028-12-31", callType: "Both" }).success).toBe(true);
    expect(firstIssue(callLogCountsQuery.safeParse({ startDate: "2028-01-01", endDate: "2029-01-01", callType: "Both" }))).toEqual({
      field: "endDate",
      message: "must be at most 366 days after startDate",
    });
  });
});

describe("store filters", () => {
  it("accept the nine stores in any case, and blank as all", () => {
    expect(appointmentCountsQuery.parse({ ...range, store: "miami" }).store).toBe("MIAMI");
    expect(leadSummaryQuery.parse({ ...range, store: "" }).store).toBeUndefined();
  });

  it("read a store's name (docs/product/constants.md#business-constants) as its code, however it is typed", () => {
    for (const [name, code] of [["Oklahoma City", "OKC"], ["Naples", "NAPLES"], ["naples.", "NAPLES"], ["Pembroke  Pines", "PEMBROKE"], ["Iowa City", "IOWA"], ["Woodlands.", "WOODLANDS"]]) {
      expect(appointmentCountsQuery.parse({ ...range, store: name }).store, name).toBe(code);
      expect(analyticsWonBody.parse({ ...range, storeId: name }).storeId, name).toBe(code);
    }
    expect(firstIssue(analyticsWonBody.safeParse({ ...range, storeId: "Orlando" }))?.field).toBe("storeId");
  });

  it("refuse an unknown store by name", () => {
    expect(firstIssue(appointmentCountsQuery.safeParse({ ...range, store: "PARIS" }))?.field).toBe("store");
  });
});

describe("daily report query", () => {
  it("takes one date (the generator) or a range (the dashboard)", () => {
    expect(dailyReportQuery.parse({ date: "2026-11-22" })).toEqual({ startDate: "2026-11-22", endDate: "2026-11-22", single: true, store: undefined });
    expect(dailyReportQuery.parse({ startDate: "2026-11-01", endDate: "2026-11-02", store: "OKC" })).toEqual({
      startDate: "2026-11-01",
      endDate: "2026-11-02",
      single: false,
      store: "OKC",
    });
  });

  it("names what is missing or contradictory", () => {
    expect(firstIssue(dailyReportQuery.safeParse({}))?.field).toBe("startDate");
    expect(firstIssue(dailyReportQuery.safeParse({ startDate: "2026-11-01" }))?.field).toBe("endDate");
    expect(firstIssue(dailyReportQuery.safeParse({ date: "2026-11-01", startDate: "2026-11-01" }))?.field).toBe("date");
  });
});

describe("analysis body", () => {
  it("defaults the limit to 300 and refuses more", () => {
    expect(analyticsWonBody.parse({ storeId: "TULSA", startDate: "2026-11-21", endDate: "2026-11-21" }).limit).toBe(300);
    expect(firstIssue(analyticsWonBody.safeParse({ storeId: "TULSA", startDate: "2026-11-21", endDate: "2026-11-21", limit: 301 }))?.field).toBe("limit");
    expect(firstIssue(analyticsWonBody.safeParse({ storeId: "X", startDate: "2026-11-21", endDate: "2026-11-21" }))?.field).toBe("storeId");
  });
});

describe("helpers", () => {
  it("counts range days inclusively across a daylight-saving change", () => {
    expect(daysInRange("2026-03-07", "2026-03-09")).toBe(3);
    expect(daysInRange("2026-11-22", "2026-11-22")).toBe(1);
    expect(daysInRange("2026-11-23", "2026-11-22")).toBe(0);
  });

  it("gives all 14 category keys at zero", () => {
    const counts = emptyCategoryCounts();
    expect(Object.keys(counts)).toEqual([...APPOINTMENT_CATEGORY_KEYS]);
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });
});

describe("date parameters are bounded to the years 2000-2099", () => {
  const both = (day: string) => ({ ...range, startDate: day, endDate: day, callType: "Both" });
  it.each(["0000-01-01", "0001-01-01", "1999-12-31", "2100-01-01", "9999-12-31"])("refuses %s, naming the field", (day) => {
    expect(firstIssue(callLogCountsQuery.safeParse(both(day)))).toEqual({ field: "startDate", message: "must be between 2000-01-01 and 2099-12-31" });
    expect(firstIssue(leadSummaryQuery.safeParse(both(day)))?.field).toBe("startDate");
    expect(firstIssue(appointmentCountsQuery.safeParse(both(day)))?.field).toBe("startDate");
    expect(firstIssue(analyticsWonBody.safeParse({ ...both(day), storeId: "MIAMI" }))?.field).toBe("startDate");
    expect(firstIssue(dailyReportQuery.safeParse({ date: day }))?.field).toBe("date");
  });

  it.each(["2000-01-01", "2000-02-29", "2099-12-31"])("takes %s", (day) => {
    expect(callLogCountsQuery.safeParse(both(day)).success).toBe(true);
    expect(dailyReportQuery.safeParse({ date: day }).success).toBe(true);
  });
});
