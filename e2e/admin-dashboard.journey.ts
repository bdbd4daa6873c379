// Admin Dashboard, the statistics and System Configuration cards (docs/product/screens-and-routes.md#route-table, docs/product/errors-and-texts.md#validation-messages, docs/product/errors-and-texts.md#errors-and-texts): the four
// figures from the seeded data, the phone-number limit edited (out of range refused, empty is 1),
// cancelled and saved with 'Configuration Updated', Refresh Data, and the change in the audit log.
import { ADMIN_TEXT, PHONE_API_TEXT } from "../shared/messages.ts";
import { check, DEMO, seePath, seeText, signIn, type Journey } from "./harness.ts";

export default {
  name: "Admin sees the statistics and changes the phone-number limit",
  async run({ page }) {
    await signIn(page, DEMO.admin);
    await page.getByRole("link", { name: ADMIN_TEXT.title }).first().click();
    await seePath(page, "/admin");
    await seeText(page, ADMIN_TEXT.title);

    for (const label of [ADMIN_TEXT.totalUsers, ADMIN_TEXT.totalAssistants, ADMIN_TEXT.totalCalls, ADMIN_TEXT.totalMinutes]) {
      const value = page.getByTestId(`stat-${label}`);
      await value.waitFor();
      const text = (await value.textContent()) ?? "";
      check(Number(text.replace(/,/g, "")) > 0, `${label} should be a positive figure from the seed, is '${text}'`);
      if (label === ADMIN_TEXT.totalMinutes) check(/\.\d$/.test(text), `${label} should have one decimal: '${text}'`);
    }

    // System Configuration: the limit, Edit / Cancel / Save.
    await seeText(page, ADMIN_TEXT.systemConfiguration);
    const value = page.getByTestId("phone-limit-value");
    await value.waitFor();
    const before = (await value.textContent())?.trim();
    await page.getByRole("button", { name: ADMIN_TEXT.edit, exact: true }).click();
    const input = page.getByLabel(ADMIN_TEXT.phoneNumberLimit, { exact: true });
    await input.fill("101");
    await page.getByRole("button", { name: ADMIN_TEXT.save, exact: true }).click();
    await seeText(page, PHONE_API_TEXT.limitRange);
    await page.getByRole("button", { name: ADMIN_TEXT.cancel, exact: true }).click();
    check((await value.textContent())?.trim() === before, "Cancel should keep the limit");

    await page.getByRole("button", { name: ADMIN_TEXT.edit, exact: true }).click();
    await input.fill("");
    await page.getByRole("button", { name: ADMIN_TEXT.save, exact: true }).click();
    await seeText(page, ADMIN_TEXT.configurationUpdated);
    await page.getByTestId("phone-limit-value").filter({ hasText: /^1$/ }).waitFor();

    await page.getByRole("button", { name: ADMIN_TEXT.edit, exact: true }).click();
    await input.fill("12");
    await page.getByRole("button", { name: ADMIN_TEXT.save, exact: true }).click();
    await page.getByTestId("phone-limit-value").filter({ hasText: /^12$/ }).waitFor();

    await page.getByRole("button", { name: ADMIN_TEXT.refreshData, exact: true }).click();
    await page.getByRole("button", { name: ADMIN_TEXT.refreshData, exact: true }).and(page.locator(":enabled")).waitFor();
    // The audit log lists the change, newest first.
    const firstAudit = page.locator("table").last().locator("tbody tr").first();
    await firstAudit.filter({ hasText: ADMIN_TEXT.auditActions.set_phone_limit }).filter({ hasText: "1 → 12" }).waitFor();
    check((await firstAudit.textContent())?.includes(DEMO.admin), "the audit entry should name the admin");
  },
} satisfies Journey;
