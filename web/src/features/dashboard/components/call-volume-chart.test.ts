import type uPlot from "uplot";
import { describe, expect, it } from "vitest";
import { nyLocalToUtc } from "@shared/ny-time";
import { chartOptions } from "./call-volume-chart";

const seconds = (date: string, hour: number) => nyLocalToUtc(date, hour).getTime() / 1000;

/** The x range the chart's options give for days at `xs` when uPlot asks with `min` and `max` (seconds). */
function xRange(xs: number[], min: number, max: number) {
  const range = chartOptions(xs, 600, (v) => v).scales?.x?.range;
  expect(typeof range).toBe("function");
  return (range as (u: uPlot, min: number, max: number) => [number, number])({} as uPlot, min, max);
}

describe("the call volume chart's time axis", () => {
  it("spans one New York day, midnight to midnight, when the range is one day", () => {
    // The dashboard's default range is a single day. uPlot widens a single point by 86400 / ms:
    // with timestamps in seconds, 86,400,000 s, and the axis showed three years of months.
    const noon = seconds("2026-11-24", 12);
    expect(xRange([noon], noon, noon + 86_400_000)).toEqual([seconds("2026-11-24", 0), seconds("2026-11-25", 0)]);
  });

  it("gives the first and last day their whole width over a month", () => {
    const xs = [seconds("2026-10-25", 12), seconds("2026-11-24", 12)];
    expect(xRange(xs, xs[0], xs[1])).toEqual([seconds("2026-10-25", 0), seconds("2026-11-25", 0)]);
  });

  it("keeps a range the person selected, with half a day either side", () => {
    const xs = [seconds("2026-10-25", 12), seconds("2026-11-24", 12)];
    const [from, to] = [seconds("2026-11-10", 12), seconds("2026-11-12", 12)];
    expect(xRange(xs, from, to)).toEqual([seconds("2026-11-10", 0), seconds("2026-11-13", 0)]);
  });
});
