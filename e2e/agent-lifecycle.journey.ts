// Voice agents end to end: a new account creates an agent through both steps of the form (seeing the
// validation messages as it types), saves and activates it, buys a number and gives it to the agent,
// places a test call and watches it finish, finds the call in Call Logs with its transcript, changes
// the agent's store and type, then deactivates and deletes the agent. The store and type set in the
// form put the active agent in the dashboard's Call Logs agent filter.
import path from "node:path";
import type { Page } from "playwright-core";
import { registerSubscribedAccount } from "./billing-api.ts";
import { formatPhone } from "../shared/format.ts";
import { AGENT_TEXT, CALL_LOG_TEXT, NAV_TEXT, PHONE_TEXT, VALIDATION } from "../shared/messages.ts";
import { check, seePath, seeText, signIn, uniqueEmail, type Journey } from "./harness.ts";

const artifacts = path.join(import.meta.dirname, "artifacts");

/**
 * Desktop and phone-width pictures of the whole screen, for people to look at. The window is made as
 * tall as the page (rather than a full-page capture) so sticky headers and the sidebar sit where a
 * person sees them.
 */
async function shootBoth(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(250);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height: Math.min(Math.max(height, 800), 4000) });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(artifacts, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const fieldError = (page: Page, message: string) => page.getByText(message, { exact: true }).filter({ visible: true }).first().waitFor();

export default {
  name: "Create, activate, number, test call, call log, deactivate and delete an agent",
  async run({ page }) {
    const email = uniqueEmail("agents");
    const password = "Journey-pass-1";
    const agentName = "Journey Front Desk";
    const dialed = "+15125550142";

    await registerSubscribedAccount(page, email, password, { username: "agentjourney", company: "Journey Dental" });
    await signIn(page, email, password);
    const sidebar = page.getByRole("complementary");
    await sidebar.getByRole("link", { name: NAV_TEXT.agents }).click();
    await seePath(page, "/agent-settings");
    // The Daily Report Generator is store staff's (shopwindows_info): this account has no link to it.
    check((await sidebar.getByRole("link", { name: NAV_TEXT.dailyReport }).count()) === 0, "no Daily Report link without shopwindows_info");

    // A new account has no agents yet.
    await seeText(page, AGENT_TEXT.emptyTitle);
    await page.getByRole("button", { name: AGENT_TEXT.emptyButton }).waitFor();
    await seeText(page, AGENT_TEXT.callsThisMonth);
    await shootBoth(page, "agents-empty");

    // Step 1: Next waits for the three fields; each rule shows as the person types.
    await page.getByRole("button", { name: AGENT_TEXT.addNew }).click();
    const name = page.getByLabel(AGENT_TEXT.nameLabel, { exact: true });
    check((await name.inputValue()) === "New Agent", "a new agent should be called 'New Agent'");
    await seeText(page, AGENT_TEXT.mandatoryNotice);
    const next = page.getByRole("button", { name: AGENT_TEXT.next, exact: true });
    check(await next.isDisabled(), "Next should wait for a business description and services");
    await name.fill("J");
    await fieldError(page, VALIDATION.agentNameMin);
    await name.fill(agentName);
    const description = page.getByLabel(AGENT_TEXT.businessDescriptionLabel, { exact: true });
    await description.fill("Dentist");
    await fieldError(page, VALIDATION.businessDescriptionMin);
    await description.fill("A family dental practice in Austin, open six days a week.");
    const services = page.getByLabel(AGENT_TEXT.servicesLabel, { exact: true });
    await services.fill("Cleanings");
    await fieldError(page, VALIDATION.servicesMin);
    await services.fill("Cleanings, fillings, whitening and emergency visits.");
    await page.getByLabel(AGENT_TEXT.pricingLabel, { exact: true }).fill("Cleaning $120, whitening $350.");
    await page.getByLabel(AGENT_TEXT.documentsLabel, { exact: true }).fill("Cancellations need 24 hours' notice.");
    check(
      (await page.getByLabel(AGENT_TEXT.voiceLabel, { exact: true }).textContent())?.includes("Marissa"),
      "the voice should default to Marissa",
    );
    // The store and type the dashboard's Call Logs filter needs.
    await page.getByLabel(AGENT_TEXT.storeLabel, { exact: true }).selectOption({ label: "Miami (MIAMI)" });
    await page.getByLabel(AGENT_TEXT.typeLabel, { exact: true }).selectOption({ label: AGENT_TEXT.typeInbound });
    check(await next.isEnabled(), "Next should be enabled once the three fields are filled");
    await shootBoth(page, "agents-form-step1");
    await next.click();

    // Step 2: the actions wait for the instructions.
    const instructions = page.getByLabel(AGENT_TEXT.instructionsLabel, { exact: true });
    await instructions.waitFor();
    const save = page.getByRole("button", { name: AGENT_TEXT.save, exact: true });
    check(await save.isDisabled(), "Save should wait for instructions");
    await instructions.fill("Be kind");
    await fieldError(page, VALIDATION.agentInstructionsMin);
    await instructions.fill("Greet callers warmly, answer questions about our services and book appointments.");
    await shootBoth(page, "agents-form-step2");
    await save.click();
    await seeText(page, AGENT_TEXT.createdTitle);
    await page.getByRole("heading", { name: agentName }).waitFor();
    await seeText(page, AGENT_TEXT.inactive);
    await seeText(page, PHONE_TEXT.notAssigned);

    // Activate: the card turns active and offers a test call.
    await page.getByRole("button", { name: AGENT_TEXT.activate, exact: true }).click();
    await seeText(page, AGENT_TEXT.activated);
    await page.getByRole("button", { name: AGENT_TEXT.deactivate, exact: true }).waitFor();
    await page.locator("dd").filter({ hasText: /^MIAMI$/ }).waitFor();

    // Active, with a store and a type: the dashboard's Call Logs section offers it as an agent filter.
    await sidebar.getByRole("link", { name: NAV_TEXT.dashboard }).click();
    await seePath(page, "/dashboard");
    const agentFilter = page.locator("#call-logs-agent");
    await agentFilter.locator("option", { hasText: `${agentName} (MIAMI · inbound)` }).waitFor({ state: "attached" });

    // Buy a number on the Phone numbers screen.
    await sidebar.getByRole("link", { name: NAV_TEXT.phoneNumbers }).click();
    await seePath(page, "/phone-numbers");
    await page.getByRole("tab", { name: PHONE_TEXT.buy }).click();
    await page.getByLabel(PHONE_TEXT.areaCodeLabel, { exact: true }).fill("512");
    await page.getByRole("button", { name: PHONE_TEXT.search, exact: true }).click();
    const firstResult = page.getByRole("list", { name: PHONE_TEXT.availableNumbers }).getByRole("listitem").first();
    const bought = (await firstResult.locator("p.font-medium").textContent())?.trim() ?? "";
    check(bought.startsWith("+1(512)"), `the first result should be in area code 512, got '${bought}'`);
    await firstResult.getByRole("button", { name: PHONE_TEXT.buyAction, exact: true }).click();
    await page.getByRole("dialog", { name: PHONE_TEXT.confirmTitle }).getByRole("button", { name: PHONE_TEXT.confirmPurchase }).click();
    const purchased = page.getByRole("dialog", { name: PHONE_TEXT.purchasedTitle });
    await purchased.waitFor();
    await purchased.getByRole("button", { name: PHONE_TEXT.close, exact: true }).first().click();
    await purchased.waitFor({ state: "hidden" });

    // Give it to the agent from the Agents screen's list.
    await sidebar.getByRole("link", { name: NAV_TEXT.agents }).click();
    await seePath(page, "/agent-settings");
    await page.getByRole("combobox", { name: AGENT_TEXT.numberFor(agentName) }).click();
    await page.getByRole("option", { name: bought }).click();
    await page.getByRole("button", { name: AGENT_TEXT.assign, exact: true }).click();
    await seeText(page, PHONE_TEXT.assignedTitle);
    await page.getByRole("button", { name: PHONE_TEXT.unassign, exact: true }).waitFor();
    // The card shows the agent's own number, formatted.
    await page.locator("dd").filter({ hasText: bought }).first().waitFor();

    // Test call: the status is polled on the card until the simulated call ends.
    await page.getByLabel(AGENT_TEXT.testCallNumberLabel, { exact: true }).fill(dialed);
    await page.getByRole("button", { name: AGENT_TEXT.testCallButton, exact: true }).click();
    await seeText(page, AGENT_TEXT.testCallStarted);
    const latest = page.getByTestId("latest-test-call");
    await latest.getByText(formatPhone(dialed), { exact: true }).waitFor();
    await latest.getByText(/^(completed|ended)$/).waitFor({ timeout: 30_000 });
    await shootBoth(page, "agents-active");

    // Call Logs: the call is listed; its details have a summary and a transcript.
    await sidebar.getByRole("link", { name: NAV_TEXT.callLogs }).click();
    await seePath(page, "/call-logs");
    await page.getByRole("button", { name: CALL_LOG_TEXT.refresh }).click();
    const row = page
      .getByRole("row")
      .filter({ hasText: formatPhone(dialed) })
      .first();
    await row.waitFor();
    await row.getByRole("button", { name: CALL_LOG_TEXT.viewDetails }).click();
    const details = page.getByRole("dialog", { name: CALL_LOG_TEXT.detailsTitle });
    await details.waitFor();
    await details.getByRole("tab", { name: CALL_LOG_TEXT.summary, exact: true }).waitFor();
    await details.getByRole("tab", { name: CALL_LOG_TEXT.transcript, exact: true }).click();
    const transcript = details.getByRole("region", { name: CALL_LOG_TEXT.transcript });
    await transcript.locator("li").first().waitFor();
    const text = (await transcript.textContent()) ?? "";
    check(
      !text.includes(CALL_LOG_TEXT.transcriptFailed) && !text.includes(CALL_LOG_TEXT.noTranscript),
      "the test call should have a transcript",
    );
    await page.keyboard.press("Escape");
    await details.waitFor({ state: "hidden" });

    // Back on Agents: move the agent to another store and type in the form.
    await sidebar.getByRole("link", { name: NAV_TEXT.agents }).click();
    await seePath(page, "/agent-settings");
    await page.getByRole("button", { name: AGENT_TEXT.edit, exact: true }).click();
    const storeSelect = page.getByLabel(AGENT_TEXT.storeLabel, { exact: true });
    check((await storeSelect.inputValue()) === "MIAMI", "the form should show the agent's store");
    await storeSelect.selectOption({ label: "Naples (NAPLES)" });
    await page.getByLabel(AGENT_TEXT.typeLabel, { exact: true }).selectOption({ label: AGENT_TEXT.typeOutbound });
    await next.click();
    await page.getByRole("button", { name: AGENT_TEXT.save, exact: true }).click();
    await seeText(page, AGENT_TEXT.saved);
    await page.locator("dd").filter({ hasText: /^NAPLES$/ }).waitFor();
    await page.locator("dd").filter({ hasText: /^outbound$/ }).waitFor();

    // Deactivate, then delete with the confirmation.
    await page.getByRole("button", { name: AGENT_TEXT.deactivate, exact: true }).click();
    await seeText(page, AGENT_TEXT.deactivated);
    await page.getByRole("button", { name: AGENT_TEXT.activate, exact: true }).waitFor();
    await page.getByRole("button", { name: AGENT_TEXT.delete, exact: true }).click();
    const confirm = page.getByRole("alertdialog", { name: AGENT_TEXT.deleteTitle(agentName) });
    await confirm.waitFor();
    await confirm.getByText(AGENT_TEXT.deleteUndone, { exact: true }).waitFor();
    await page.waitForTimeout(250);
    await page.screenshot({ path: path.join(artifacts, "agents-delete-1280.png") });
    await confirm.getByRole("button", { name: AGENT_TEXT.delete, exact: true }).click();
    await seeText(page, AGENT_TEXT.deleted);
    await seeText(page, AGENT_TEXT.emptyTitle);
  },
} satisfies Journey;
