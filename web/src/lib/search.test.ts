import { describe, expect, it } from "vitest";
import { callLogsSearchSchema, emailSearchSchema, searchEnum, searchInstant, searchFlag, searchSchema, searchText } from "./search";

describe("search parsers", () => {
  it("reads text trimmed and bounded, numbers as text, anything else as absent", () => {
    expect(searchText()(" a@b.example ")).toBe("a@b.example");
    expect(searchText()(123)).toBe("123");
    expect(searchText(3)("abcdef")).toBe("abc");
    expect(searchText()("   ")).toBeUndefined();
    expect(searchText()({ x: 1 })).toBeUndefined();
    expect(searchText()(undefined)).toBeUndefined();
  });

  it("reads a flag from 1, '1' or true only", () => {
    for (const v of [1, "1", true]) expect(searchFlag()(v)).toBe(1);
    for (const v of [0, "0", "yes", false, 2, null]) expect(searchFlag()(v)).toBeUndefined();
  });

  it("reads one of a set of words", () => {
    expect(searchEnum(["month", "year"])("year")).toBe("year");
    expect(searchEnum(["month", "year"])("week")).toBeUndefined();
  });

  it("keeps the well-formed named fields of a route's search and drops the rest", () => {
    const schema = searchSchema({ login: searchFlag(), tab: searchEnum(["signin", "register"]), email: searchText() });
    expect(schema({ login: 1, tab: "register", email: " x@y.example", other: "z" })).toEqual({ login: 1, tab: "register", email: "x@y.example" });
    expect(schema({ login: "no", tab: "elsewhere" })).toEqual({});
    expect(emailSearchSchema({})).toEqual({});
  });

  it("reads /call-logs' filters: instants as UTC ISO, an outcome of the list, a to after from", () => {
    expect(searchInstant()("2026-11-20T09:00:00-05:00")).toBe("2026-11-20T14:00:00.000Z");
    expect(searchInstant()("2026-11-20T14:00Z")).toBe("2026-11-20T14:00:00.000Z");
    for (const v of ["2026-11-20", "yesterday", "2026-13-45T99:00:00Z", 5]) expect(searchInstant()(v)).toBeUndefined();
    expect(
      callLogsSearchSchema({ q: "refund", from: "2026-11-20T14:00:00.000Z", to: "2026-11-20T14:15:00.000Z", agent: "asst-1", outcome: "error", cursor: "x" }),
    ).toEqual({ q: "refund", from: "2026-11-20T14:00:00.000Z", to: "2026-11-20T14:15:00.000Z", agent: "asst-1", outcome: "error" });
    expect(callLogsSearchSchema({ outcome: "voicemail", from: "2026-11-20T14:15:00Z", to: "2026-11-20T14:00:00Z" })).toEqual({ from: "2026-11-20T14:15:00.000Z" });
  });
});
