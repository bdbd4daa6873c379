// Phone numbers and Call Logs (docs/product/screens-and-routes.md#route-table): search numbers by area code, page through the results,
// buy one through the confirmation dialog and find it under 'My numbers'; then open Call Logs,
// see the seeded calls and open one call's details with its Summary and Transcript tabs.
import path from "node:path";
import type { Page } from "playwright-core";
import { PHONE_RESULTS_PER_PAGE } from "../shared/constants.ts";
import { CALL_LOG_TEXT, PHONE_TEXT } from "../shared/messages.ts";
import { check, DEMO, seePath, seeText, signIn, type Journey } from "./harness.ts";

const artifacts = path.join(import.meta.dirname, "artifacts");

/** What a person sees in the window (overlays cover the window, not a full-page capture). */
async function shoot(page: Page, name: string) {
  // Let colour transitions and dialog animations settle; the picture is for people, not an assertion.
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
}

/** Desktop and phone-width pictures of the current screen, for people to look at. */
async function shootBoth(page: Page, name: string) {
  await shoot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const resultNumbers = (page: Page) =>
  page.getByRole("list", { name: PHONE_TEXT.availableNumbers }).getByRole("listitem").locator("p.font-medium").allTextContents();

export default {
  name: "Buy a number by area code, see it in My numbers, open a call's details in Call Logs",
  async run({ page }) {
    await signIn(page, DEMO.customer);
    await page.goto("/phone-numbers");
    await seePath(page, "/phone-numbers");
    const mine = page.getByRole("list", { name: PHONE_TEXT.myNumbers });
    await mine.waitFor();
    const ownedBefore = await mine.getByRole("listitem").count();
    check(ownedBefore >= 1, "the demo customer should own at least one seeded number");
    await shootBoth(page, "phone-numbers-mine");

    // Search by area code: 50 results, 10 a page.
    await page.getByRole("tab", { name: PHONE_TEXT.buy }).click();
    await page.getByLabel(PHONE_TEXT.areaCodeLabel, { exact: true }).fill("305");
    await page.getByRole("button", { name: PHONE_TEXT.search, exact: true }).click();
    await seeText(page, PHONE_TEXT.resultsFound(50));
    const firstPage = await resultNumbers(page);
    check(firstPage.length === PHONE_RESULTS_PER_PAGE, `page 1 should show ${PHONE_RESULTS_PER_PAGE} numbers, shows ${firstPage.length}`);
    check(firstPage.every((n) => n.startsWith("+1(305)")), `every result should be in area code 305: ${firstPage.join(", ")}`);

    await page.getByRole("button", { name: PHONE_TEXT.goToPage(2), exact: true }).click();
    await page.getByRole("button", { name: PHONE_TEXT.goToPage(2), exact: true }).and(page.locator('[aria-current="page"]')).waitFor();
    const secondPage = await resultNumbers(page);
    check(secondPage.length === PHONE_RESULTS_PER_PAGE, `page 2 should show ${PHONE_RESULTS_PER_PAGE} numbers, shows ${secondPage.length}`);
    check(!secondPage.some((n) => firstPage.includes(n)), "page 2 should show other numbers than page 1");
    await shootBoth(page, "phone-numbers-buy");

    // Buy the first number of page 2 through the confirmation dialog.
    const chosen = secondPage[0];
    await page.getByRole("button", { name: PHONE_TEXT.buyAction, exact: true }).first().click();
    const confirm = page.getByRole("dialog", { name: PHONE_TEXT.confirmTitle });
    await confirm.waitFor();
    check((await confirm.textContent())?.includes(chosen), `the confirmation should name ${chosen}`);
    await shoot(page, "phone-numbers-confirm-1280");
    await confirm.getByRole("button", { name: PHONE_TEXT.confirmPurchase, exact: true }).click();
    const result = page.getByRole("dialog", { name: PHONE_TEXT.purchasedTitle });
    await result.waitFor();
    await seeText(page, PHONE_TEXT.vapiReady);
    await shoot(page, "phone-numbers-purchased-1280");
    await result.getByRole("button", { name: PHONE_TEXT.close, exact: true }).first().click();
    await result.waitFor({ state: "hidden" });

    await page.getByRole("tab", { name: PHONE_TEXT.myNumbers }).click();
    await mine.getByText(chosen, { exact: true }).waitFor();
    check((await mine.getByRole("listitem").count()) === ownedBefore + 1, "My numbers should list one more number");

    // Assign the new number to an agent that has none (the seed leaves one), then unassign it again.
    const bought = mine.getByRole("listitem").filter({ hasText: chosen });
    await bought.getByRole("button", { name: PHONE_TEXT.assignAgent, exact: true }).click();
    const assign = page.getByRole("dialog", { name: PHONE_TEXT.assignTitle });
    await assign.waitFor();
    await assign.getByRole("combobox", { name: PHONE_TEXT.agentLabel }).click();
    const option = page.getByRole("option").first();
    const agentName = (await option.textContent())?.trim() ?? "";
    check(agentName.length > 0, "the assign dialog should offer an agent without a number");
    await option.click();
    await shoot(page, "phone-numbers-assign-1280");
    await assign.getByRole("button", { name: PHONE_TEXT.assign, exact: true }).click();
    await assign.waitFor({ state: "hidden" });
    await bought.getByText(agentName, { exact: true }).waitFor();
    await seeText(page, PHONE_TEXT.assignedTitle);
    await bought.getByRole("button", { name: PHONE_TEXT.unassign, exact: true }).click();
    await bought.getByRole("button", { name: PHONE_TEXT.assignAgent, exact: true }).waitFor();
    await seeText(page, PHONE_TEXT.unassignedTitle);

    // Call Logs: seeded rows, then one call's details.
    await page.goto("/call-logs");
    await seeText(page, CALL_LOG_TEXT.dateTime);
    const rows = page.getByRole("row");
    await rows.nth(1).waitFor();
    check((await rows.count()) > 2, "the demo customer should have seeded call logs");
    await page.getByRole("button", { name: CALL_LOG_TEXT.viewDetails, exact: true }).first().click();
    const details = page.getByRole("dialog", { name: CALL_LOG_TEXT.detailsTitle });
    await details.waitFor();
    await details.getByRole("tab", { name: CALL_LOG_TEXT.summary, exact: true }).waitFor();
    await shoot(page, "call-logs-summary-1280");
    await details.getByRole("tab", { name: CALL_LOG_TEXT.transcript, exact: true }).click();
    const pane = details.getByRole("region", { name: CALL_LOG_TEXT.transcript });
    await pane.waitFor();
    // A seeded call has turns, or says plainly that it has none; never the failure text.
    await pane.locator("li, p").first().waitFor();
    check(!(await pane.textContent())?.includes(CALL_LOG_TEXT.transcriptFailed), "the transcript should load");
    await shootBoth(page, "call-logs-details");
    await page.keyboard.press("Escape");
    await details.waitFor({ state: "hidden" });
    await shootBoth(page, "call-logs");
  },
} satisfies Journey;
