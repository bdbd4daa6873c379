// Beyond the spec on /dashboard: over the seeded range the staff account sees the daily call volume
// drawn by the lazily loaded chart (a canvas with pixels on it), opens the same figures as a table,
// sees call cost, and reads the per-store funnel with non-zero calls, bookings and sales.
import path from "node:path";
import type { Page } from "playwright-core";
import { DASHBOARD_TEXT, INSIGHTS_TEXT } from "../shared/messages.ts";
import { addDays, nyToday } from "../shared/ny-time.ts";
import { check, DEMO, signIn, type Journey } from "./harness.ts";

const artifacts = path.join(import.meta.dirname, "artifacts");
const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const num = (s: string | null) => Number((s ?? "").replace(/[$,%]/g, "")) || 0;

export default {
  name: "Dashboard insights: the call volume chart and its table, call cost, and the store funnel",
  async run({ page }) {
    const chartChunks: string[] = [];
    page.on("request", (r) => {
      if (/\/assets\/call-volume-chart-[^/]+\.js$/.test(r.url())) chartChunks.push(r.url());
    });
    await signIn(page, DEMO.staff);
    const end = nyToday();
    const start = addDays(end, -30);
    const controls = page.getByRole("form", { name: DASHBOARD_TEXT.refreshAll });
    await controls.getByLabel(DASHBOARD_TEXT.startDate, { exact: true }).fill(start);
    await controls.getByLabel(DASHBOARD_TEXT.endDate, { exact: true }).fill(end);
    const calls = section(page, DASHBOARD_TEXT.callLogs);
    await calls.getByLabel(DASHBOARD_TEXT.callType, { exact: true }).selectOption("Both");
    await controls.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }).click();
    await section(page, INSIGHTS_TEXT.storeFunnel).getByText(`${start} to ${end}`, { exact: false }).waitFor();

    // The chart: uPlot's canvas, drawn (some pixels not transparent), in a chunk of its own, loaded
    // when the person scrolls near it.
    await calls.getByRole("heading", { name: INSIGHTS_TEXT.callVolume }).scrollIntoViewIfNeeded();
    const canvas = calls.getByTestId("call-volume-chart").locator("canvas").first();
    await canvas.waitFor();
    const drawn = await canvas.evaluate((c: HTMLCanvasElement) => {
      const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      return { painted, width: c.width, height: c.height };
    });
    check(drawn.width > 200 && drawn.height > 100 && drawn.painted > 500, `the chart should be drawn, is ${JSON.stringify(drawn)}`);
    check(chartChunks.length === 1, `the chart should come in its own lazily loaded chunk, requests: ${chartChunks.join(", ") || "none"}`);

    // The same figures as a table, on request; every day of the range, calls on them.
    await calls.getByRole("button", { name: INSIGHTS_TEXT.showTable }).click();
    const table = calls.getByRole("table", { name: INSIGHTS_TEXT.callVolume });
    await table.waitFor({ state: "visible" });
    const rows = table.locator("tbody tr");
    check((await rows.count()) === 31, `the table should list the 31 days, lists ${await rows.count()}`);
    let total = 0;
    for (const cells of await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)))) {
      total += num(cells[0]) + num(cells[1]);
    }
    check(total > 0, `the table should hold calls, sums to ${total}`);
    const cost = num(await calls.getByLabel(INSIGHTS_TEXT.cost, { exact: true }).locator("dd").first().textContent());
    check(cost > 0, `the call cost should be above zero, is ${cost}`);

    // The funnel: some store with AI calls, bookings and sales.
    const funnel = section(page, INSIGHTS_TEXT.storeFunnel);
    await funnel.locator("tbody tr").first().waitFor();
    const funnelRows = await funnel.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => c.textContent ?? "")));
    check(funnelRows.length === 9, `the funnel should list the nine stores, lists ${funnelRows.length}`);
    const busy = funnelRows.filter((r) => num(r[1]) > 0 && num(r[2]) + num(r[3]) > 0 && num(r[5]) > 0);
    check(busy.length > 0, `some store should show AI calls, bookings and sales: ${JSON.stringify(funnelRows)}`);
    check(busy.every((r) => /%$/.test(r[6]) && /^\$/.test(r[8])), `rates and cost should be shown: ${JSON.stringify(busy[0])}`);
    await page.screenshot({ path: path.join(artifacts, "dashboard-insights-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    check(overflow <= 0, `the dashboard should not scroll sideways at phone width with the chart and funnel (${overflow}px too wide)`);
    await page.screenshot({ path: path.join(artifacts, "dashboard-insights-390.png"), fullPage: true });
  },
} satisfies Journey;
