// The daily call volume as a uPlot line chart. Loaded lazily (React.lazy in call-volume.tsx), so
// uPlot and its stylesheet are their own chunk and the first page does not grow. Decorative for
// assistive technology: the same figures are always in the table beside it.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatCount } from "@shared/format";
import { INSIGHTS_TEXT } from "@shared/messages";
import { nyLocalToUtc } from "@shared/ny-time";
import type { CallVolumeResponse } from "@shared/schemas/insights";

/** Series colours from the theme's variables, readable on the card background. */
const SERIES = [
  { label: INSIGHTS_TEXT.inbound, stroke: "var(--chart-1, #6d5bd0)", pick: (d: CallVolumeResponse["days"][number]) => d.inbound.total },
  { label: INSIGHTS_TEXT.outbound, stroke: "var(--chart-2, #0f9d8a)", pick: (d: CallVolumeResponse["days"][number]) => d.outbound.total },
  { label: INSIGHTS_TEXT.connected, stroke: "var(--chart-3, #2563eb)", pick: (d: CallVolumeResponse["days"][number]) => d.inbound.connected + d.outbound.connected },
  { label: INSIGHTS_TEXT.voicemail, stroke: "var(--chart-4, #d97706)", pick: (d: CallVolumeResponse["days"][number]) => d.inbound.voicemail + d.outbound.voicemail },
  { label: INSIGHTS_TEXT.forwarded, stroke: "var(--chart-5, #db2777)", pick: (d: CallVolumeResponse["days"][number]) => d.inbound.forwarded + d.outbound.forwarded },
];

const cssColor = (el: HTMLElement, value: string) => {
  const m = value.match(/^var\((--[\w-]+),\s*([^)]+)\)$/);
  if (!m) return value;
  return getComputedStyle(el).getPropertyValue(m[1]).trim() || m[2];
};

/** Seconds in half a day. */
const HALF_DAY = 12 * 60 * 60;

/**
 * The time axis: at most half a day beyond the first and last day's noon (`first`, `last`), so each
 * day has its width. uPlot widens a single point by `86400 / ms` (1,000 days with timestamps in
 * seconds), which would draw the dashboard's default one-day range over years of ticks.
 */
export const dayAxisRange = (min: number, max: number, first: number, last: number): [number, number] => [
  Math.max(min, first) - HALF_DAY,
  Math.min(max, last) + HALF_DAY,
];

/** uPlot's options for days at `xs` (seconds, sorted); `color` resolves a series colour. */
export function chartOptions(xs: number[], width: number, color: (value: string) => string): uPlot.Options {
  const [first, last] = [xs[0], xs[xs.length - 1]];
  return {
    width,
    height: 240,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "America/New_York"),
    scales: {
      x: { time: true, range: (_u, min, max) => dayAxisRange(min, max, first, last) },
      y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
    },
    axes: [{}, { values: (_u, ticks) => ticks.map((t) => formatCount(t)) }],
    series: [{}, ...SERIES.map((s) => ({ label: s.label, stroke: color(s.stroke), width: 2, points: { show: xs.length <= 31 } }))],
  };
}

export default function CallVolumeChart({ days }: { days: CallVolumeResponse["days"] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    // Noon New York time of each day: the axis shows the day whatever the viewer's zone.
    const xs = days.map((d) => nyLocalToUtc(d.date, 12).getTime() / 1000);
    const data: uPlot.AlignedData = [xs, ...SERIES.map((s) => days.map(s.pick))];
    const opts = chartOptions(xs, Math.max(240, el.clientWidth), (v) => cssColor(el, v));
    const plot = new uPlot(opts, data, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(240, el.clientWidth), height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days]);
  return <div ref={host} role="img" aria-label={INSIGHTS_TEXT.chartLabel} data-testid="call-volume-chart" className="min-h-[280px] w-full min-w-0 overflow-hidden" />;
}
