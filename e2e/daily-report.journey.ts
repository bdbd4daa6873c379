// Daily Report Generator (docs/product/dashboard-and-counts.md#sections-and-who-sees-them, docs/product/errors-and-texts.md#error-answers): store staff open it from the sidebar and download one New
// York day's report as CSV.
import { readFile } from "node:fs/promises";
import { DAILY_REPORT_COLUMNS } from "../shared/daily-report.ts";
import { DASHBOARD_TEXT, DAILY_REPORT_TEXT, NAV_TEXT } from "../shared/messages.ts";
import { nyYesterday } from "../shared/ny-time.ts";
import { check, DEMO, seePath, seeText, signIn, type Journey } from "./harness.ts";

export default {
  name: "Staff download yesterday's daily report",
  async run({ page }) {
    await signIn(page, DEMO.staff);
    // Reached from the sidebar, as staff find it.
    await page.getByRole("complementary").getByRole("link", { name: NAV_TEXT.dailyReport }).click();
    await seePath(page, "/daily-report");
    await seeText(page, DAILY_REPORT_TEXT.title);
    const day = nyYesterday();
    await page.getByLabel(DAILY_REPORT_TEXT.date, { exact: true }).fill(day);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: DASHBOARD_TEXT.generateDailyReport }).click(),
    ]);
    check(download.suggestedFilename() === `daily-report-${day}.csv`, `file name: ${download.suggestedFilename()}`);
    const text = (await readFile((await download.path())!, "utf8")).replace(/^\uFEFF/, "");
    const [header, ...rows] = text.trimEnd().split("\r\n");
    check(header.startsWith("Date,Store,"), `header: ${header.slice(0, 80)}`);
    check(header.split(",").length === DAILY_REPORT_COLUMNS.length + 2, "every report column is in the header");
    // One row per store and the all-stores row, all for the chosen day.
    check(rows.length === 10 && rows.every((r) => r.startsWith(`${day},`)), `rows: ${rows.length}`);
    await seeText(page, DASHBOARD_TEXT.dailyReportDone);
  },
} satisfies Journey;
