// The operations dashboard (docs/product/dashboard-and-counts.md#sections-and-who-sees-them, docs/product/README.md#states-and-flows): staff (both flags) sees all five sections with counts
// for a seeded range after 'Refresh All Sections', exports the call report as CSV; a customer (no
// flags) sees only Call Logs.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { DASHBOARD_TEXT, INSIGHTS_TEXT } from "../shared/messages.ts";
import { addDays, nyToday } from "../shared/ny-time.ts";
import { check, DEMO, signIn, type Journey } from "./harness.ts";

const artifacts = path.join(import.meta.dirname, "artifacts");

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

/** The first figure of a section once its counts have loaded, as a number. */
async function firstFigure(page: Page, name: string, figures: string): Promise<number> {
  const list = section(page, name).getByLabel(figures, { exact: true });
  const dd = list.locator("dd").first();
  await dd.waitFor();
  const text = (await dd.textContent()) ?? "";
  return Number(text.replaceAll(",", ""));
}

export default {
  name: "Dashboard: staff sees every section with counts and exports a CSV; a customer sees only Call Logs",
  async run({ page, context }) {
    await signIn(page, DEMO.staff);
    const headings = page.getByRole("heading", { level: 2 });
    await section(page, DASHBOARD_TEXT.aircall).waitFor();
    const names = await headings.allTextContents();
    check(
      JSON.stringify(names) ===
        JSON.stringify([
          DASHBOARD_TEXT.callLogs,
          DASHBOARD_TEXT.dailyReport,
          DASHBOARD_TEXT.appointments,
          DASHBOARD_TEXT.leads,
          DASHBOARD_TEXT.aircall,
          INSIGHTS_TEXT.storeFunnel,
        ]),
      `staff should see the five sections of the spec in order, then the store funnel; sees ${names.join(", ")}`,
    );

    // A range covering the seed: the last 90 New York days, all call types.
    const end = nyToday();
    const start = addDays(end, -90);
    const controls = page.getByRole("form", { name: DASHBOARD_TEXT.refreshAll });
    await controls.getByLabel(DASHBOARD_TEXT.startDate, { exact: true }).fill(start);
    await controls.getByLabel(DASHBOARD_TEXT.endDate, { exact: true }).fill(end);
    await section(page, DASHBOARD_TEXT.callLogs).getByLabel(DASHBOARD_TEXT.callType, { exact: true }).selectOption("Both");
    await controls.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }).click();
    await section(page, DASHBOARD_TEXT.leads).getByText(`${start} to ${end}`, { exact: false }).waitFor();

    const figures: [string, string][] = [
      [DASHBOARD_TEXT.callLogs, DASHBOARD_TEXT.callLogs],
      [DASHBOARD_TEXT.appointments, DASHBOARD_TEXT.appointments],
      [DASHBOARD_TEXT.leads, DASHBOARD_TEXT.leads],
      [DASHBOARD_TEXT.aircall, DASHBOARD_TEXT.aircall],
    ];
    for (const [name, list] of figures) {
      const n = await firstFigure(page, name, list);
      check(n > 0, `${name} should show a non-zero count for ${start}..${end}, shows ${n}`);
    }
    await page.screenshot({ path: path.join(artifacts, "dashboard-staff-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    check(overflow <= 0, `the dashboard should not scroll sideways at phone width (${overflow}px too wide)`);
    await page.screenshot({ path: path.join(artifacts, "dashboard-staff-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Export CSV: the browser saves call-report-{start}-to-{end}.csv starting with the header line.
    const downloading = page.waitForEvent("download");
    await section(page, DASHBOARD_TEXT.callLogs).getByRole("button", { name: DASHBOARD_TEXT.exportCsv }).click();
    const download = await downloading;
    const expected = `call-report-${start}-to-${end}.csv`;
    check(download.suggestedFilename() === expected, `export should be saved as ${expected}, is ${download.suggestedFilename()}`);
    const file = await download.path();
    const text = (await readFile(file, "utf8")).replace(/^\uFEFF/, "");
    const header = text.split(/\r?\n/, 1)[0];
    check(header.includes(",") && !/^\d/.test(header), `the CSV should start with its header line, starts with ${JSON.stringify(header)}`);

    // A customer: Call Logs only.
    await context.clearCookies();
    const other = await context.browser()!.newContext({ baseURL: new URL(page.url()).origin, viewport: { width: 1280, height: 800 } });
    try {
      const customer = await other.newPage();
      await signIn(customer, DEMO.customer);
      await section(customer, DASHBOARD_TEXT.callLogs).waitFor();
      await section(customer, DASHBOARD_TEXT.callLogs).locator("dd").first().waitFor();
      const customerHeadings = await customer.getByRole("heading", { level: 2 }).allTextContents();
      check(
        JSON.stringify(customerHeadings) === JSON.stringify([DASHBOARD_TEXT.callLogs]),
        `the customer should see only Call Logs, sees ${customerHeadings.join(", ")}`,
      );
    } finally {
      await other.close();
    }
  },
} satisfies Journey;
