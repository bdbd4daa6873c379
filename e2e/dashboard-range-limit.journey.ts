// The dashboard's dates are held to the counts' limit at the picker: a range
// over 366 days is stopped there with the limit named, no section shows 'Error fetching counts' and
// Export CSV still exports the range applied; a range of 366 days applies. And a section's own store
// select shows the store it counts once the top store is applied (item 10).
import path from "node:path";
import type { Page } from "playwright-core";
import { DASHBOARD_TEXT } from "../shared/messages.ts";
import { addDays, lastRangeEnd, MAX_RANGE_DAYS, nyToday } from "../shared/ny-time.ts";
import { check, DEMO, signIn, type Journey } from "./harness.ts";

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

export default {
  name: "Dashboard: a range over 366 days is stopped at the picker, naming the limit; the export and the counts keep working",
  async run({ page }) {
    await signIn(page, DEMO.staff);
    await section(page, DASHBOARD_TEXT.leads).locator("dd").first().waitFor();
    const today = nyToday();
    const controls = page.getByRole("form", { name: DASHBOARD_TEXT.refreshAll });
    const start = controls.getByLabel(DASHBOARD_TEXT.startDate, { exact: true });
    const end = controls.getByLabel(DASHBOARD_TEXT.endDate, { exact: true });

    // 400 days: the message names the limit and the last end date, and the picker stops there.
    const from = addDays(today, -400);
    await start.fill(from);
    await end.fill(today);
    const message = DASHBOARD_TEXT.rangeTooLong(MAX_RANGE_DAYS, lastRangeEnd(from));
    await controls.getByRole("alert").filter({ hasText: message }).waitFor();
    check((await end.getAttribute("max")) === lastRangeEnd(from), `the end date picker should stop at ${lastRangeEnd(from)}, stops at ${await end.getAttribute("max")}`);
    check((await end.getAttribute("aria-invalid")) === "true", "the end date should be marked invalid");
    await page.screenshot({ path: path.join(import.meta.dirname, "artifacts", "dashboard-range-limit.png") });

    await controls.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }).click();
    const leadsRange = await section(page, DASHBOARD_TEXT.leads).getByTestId("leads-range").textContent();
    check(!leadsRange?.includes(from), `the too-long range should not be applied; Leads shows ${leadsRange}`);
    await section(page, DASHBOARD_TEXT.callLogs).locator("dd").first().waitFor();
    for (const error of [DASHBOARD_TEXT.countsError, DASHBOARD_TEXT.leadsError, DASHBOARD_TEXT.appointmentsError, DASHBOARD_TEXT.exportError]) {
      check((await page.getByText(error, { exact: true }).count()) === 0, `no section should show '${error}'`);
    }

    // Export CSV exports the range that is applied, not the refused one.
    const downloading = page.waitForEvent("download");
    await section(page, DASHBOARD_TEXT.callLogs).getByRole("button", { name: DASHBOARD_TEXT.exportCsv }).click();
    const download = await downloading;
    check(download.suggestedFilename() === `call-report-${today}-to-${today}.csv`, `the export should be of the applied range, is ${download.suggestedFilename()}`);
    check((await page.getByText(DASHBOARD_TEXT.exportError, { exact: true }).count()) === 0, "the export should not fail");

    // 366 days, the limit itself: no message, and Refresh applies it with the top store.
    const longest = addDays(today, -(MAX_RANGE_DAYS - 1));
    await start.fill(longest);
    check((await controls.getByRole("alert").count()) === 0, "a range of 366 days should not be refused");
    await controls.getByLabel(DASHBOARD_TEXT.store, { exact: true }).selectOption("NAPLES");
    await controls.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }).click();
    await section(page, DASHBOARD_TEXT.leads).getByText(`${longest} to ${today} · NAPLES`, { exact: true }).waitFor();
    await section(page, DASHBOARD_TEXT.leads).locator("dd").first().waitFor();
    check((await page.getByText(DASHBOARD_TEXT.leadsError, { exact: true }).count()) === 0, "the Leads section should count 366 days");
    // The Appointments section's own store select shows the store it counts.
    const appointmentsStore = section(page, DASHBOARD_TEXT.appointments).getByLabel(DASHBOARD_TEXT.store, { exact: true });
    await section(page, DASHBOARD_TEXT.dailyReport).screenshot({ path: path.join(import.meta.dirname, "artifacts", "dashboard-recent-reports.png") });
    check((await appointmentsStore.inputValue()) === "NAPLES", `the Appointments store select should show NAPLES, shows ${JSON.stringify(await appointmentsStore.inputValue())}`);
  },
} satisfies Journey;
