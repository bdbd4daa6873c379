import type uPlot from "uplot";
import { describe, expect, it } from "vitest";
import { nyLocalToUtc } from "@shared/ny-time";
import { chartOptions } from "./call-volume-chart";

const seconds = (date: string, hour: number) => nyLocalToUtc(date, hour).getTime() / 1000;

/** The x range the chart's options give for data from `min` to `max` (seconds). */
function xRange(min: number, max: number) {
  const range = chartOptions(1, 600, (v) => v).scales?.x?.range;
  expect(typeof range).toBe("function");
  return (range as (u: uPlot, min: number, max: number) => [number, number])({} as uPlot, min, max);
}

describe("the call volume chart's time axis", () => {
  it("spans one New York day, midnight to midnight, when the range is one day", () => {
    // The dashboard's default range is a single day: uPlot left alone spread it over years.
    const noon = seconds("2026-11-24", 12);
    expect(xRange(noon, noon)).toEqual([seconds("2026-11-24", 0), seconds("2026-11-25", 0)]);
  });

  it("gives the first and last day their whole width over a month", () => {
    expect(xRange(seconds("2026-10-25", 12), seconds("2026-11-24", 12))).toEqual([seconds("2026-10-25", 0), seconds("2026-11-25", 0)]);
  });
});
