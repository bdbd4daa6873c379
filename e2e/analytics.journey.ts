// Appointment analysis (docs/product/screens-and-routes.md#route-table, docs/product/screens-and-routes.md#roles-and-flags): the store-operations account picks an outbound agent, runs the
// analysis over a seeded week and sorts the result; the plain customer account is refused the screen.
import path from "node:path";
import type { Page } from "playwright-core";
import { ANALYTICS_TEXT } from "../shared/messages.ts";
import { addDays, nyYesterday } from "../shared/ny-time.ts";
import { check, DEMO, seePath, seeText, signIn, type Journey } from "./harness.ts";

const artifacts = path.join(import.meta.dirname, "artifacts");

/** The text of one result column, top to bottom. */
async function column(page: Page, index: number): Promise<string[]> {
  const rows = page.getByRole("table").locator("tbody tr");
  return rows.evaluateAll((trs, i) => trs.map((tr) => tr.querySelectorAll("td")[i]?.textContent ?? ""), index);
}

const sorted = (values: string[], dir: 1 | -1) => values.every((v, i) => i === 0 || dir * values[i - 1]!.localeCompare(v) <= 0);

export default {
  name: "Staff runs and sorts an appointment analysis; a customer is refused it",
  async run({ page }) {
    await signIn(page, DEMO.staff);
    await page.goto("/analytics");
    await seePath(page, "/analytics");
    await seeText(page, ANALYTICS_TEXT.title);
    await seeText(page, ANALYTICS_TEXT.intro);

    // Running without an agent is caught before any request.
    await page.getByRole("button", { name: ANALYTICS_TEXT.run }).click();
    await seeText(page, ANALYTICS_TEXT.agentRequired);

    const agent = page.getByLabel(ANALYTICS_TEXT.agent, { exact: true });
    await page.waitForFunction(() => (document.querySelector("select")?.options.length ?? 0) > 1);
    const offered = await agent.locator("option").allTextContents();
    check(offered.slice(1).every((t) => /outbound/i.test(t)), `only outbound agents should be offered, got ${offered.join(" | ")}`);
    await agent.selectOption({ index: 1 });

    const end = nyYesterday();
    await page.getByLabel(ANALYTICS_TEXT.startDate, { exact: true }).fill(addDays(end, -6));
    await page.getByLabel(ANALYTICS_TEXT.endDate, { exact: true }).fill(end);
    await page.getByRole("button", { name: ANALYTICS_TEXT.run }).click();

    const rows = page.getByRole("table").locator("tbody tr");
    await rows.first().waitFor();
    const count = await rows.count();
    check(count > 1, `a seeded week should hold several appointments, got ${count}`);
    const found = await column(page, 3);
    check(found.every((v) => v === ANALYTICS_TEXT.yes || v === ANALYTICS_TEXT.no), `Call Found should read Yes or No, got ${found.join(",")}`);

    // First click sorts ascending, the second descending.
    const dateHeader = page.getByRole("button", { name: ANALYTICS_TEXT.appointmentDate });
    await dateHeader.click();
    check(sorted(await column(page, 0), 1), "Appointment Date should sort ascending on the first click");
    await dateHeader.click();
    check(sorted(await column(page, 0), -1), "Appointment Date should sort descending on the second click");
    // Another column starts ascending again.
    await page.getByRole("button", { name: ANALYTICS_TEXT.personNumber }).click();
    const sort = await page.getByRole("columnheader", { name: ANALYTICS_TEXT.personNumber }).getAttribute("aria-sort");
    check(sort === "ascending", `Person Number should start ascending, got ${sort}`);
    await page.screenshot({ path: path.join(artifacts, "analytics-staff.png") });

    // A fresh session for the customer account, which has no shopwindows_info.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signIn(page, DEMO.customer);
    await page.goto("/analytics");
    await seeText(page, ANALYTICS_TEXT.accessDenied);
    await seeText(page, ANALYTICS_TEXT.denied);
    const runs = await page.getByRole("button", { name: ANALYTICS_TEXT.run }).count();
    check(runs === 0, "a customer without shopwindows_info should not be offered 'Run analysis'");
  },
} satisfies Journey;
