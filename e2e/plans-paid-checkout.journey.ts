// A visitor picks annual pro, fixes the checkout form, is declined once on the local payment
// page, pays, creates a password and lands signed in on the dashboard; then cancels in Settings.
// The success page shows the plan, and the company typed at checkout reaches the profile.
import { AUTH_TEXT, BUY_TEXT, CHECKOUT_TEXT, NAV_TEXT, PAYMENT_TEXT, SETTINGS_TEXT, SUBSCRIPTION_TEXT } from "../shared/messages.ts";
import path from "node:path";
import type { Page } from "playwright-core";
import { check, seePath, seeText, uniqueEmail, type Journey } from "./harness.ts";

/** Desktop and phone-width pictures of a screen, for people to look at (e2e/artifacts). */
async function shootBoth(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(import.meta.dirname, "artifacts", `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

export default {
  name: "Plans: annual pro, form errors, declined then paid, password, dashboard, cancel in settings",
  async run({ page }) {
    const email = uniqueEmail("buyer");
    await page.goto("/auth");
    await page.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(email);
    await page.getByRole("button", { name: AUTH_TEXT.planButton }).click();
    await seePath(page, "/buy");
    await seeText(page, BUY_TEXT.mostPopular);
    await page.getByRole("radio", { name: new RegExp(BUY_TEXT.annual) }).click();
    await seeText(page, BUY_TEXT.save);
    await shootBoth(page, "plans-buy");
    await page.getByTestId("plan-pro").getByRole("button", { name: BUY_TEXT.select }).click();
    await page.getByRole("button", { name: BUY_TEXT.continue, exact: true }).click();
    await seePath(page, "/checkout");

    // Empty names and no phone: the summary and each field's message.
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitPaid }).click();
    await seeText(page, CHECKOUT_TEXT.fixFields);
    await seeText(page, CHECKOUT_TEXT.phoneDigits);
    await seeText(page, CHECKOUT_TEXT.firstNameRequired);
    await shootBoth(page, "plans-checkout-errors");
    const emailField = page.getByLabel(CHECKOUT_TEXT.email, { exact: true });
    check((await emailField.inputValue()) === email, "the checkout carries the email from /auth");
    await page.getByLabel(CHECKOUT_TEXT.firstName, { exact: true }).fill("Pat");
    await page.getByLabel(CHECKOUT_TEXT.lastName, { exact: true }).fill("Buyer");
    await page.getByLabel(CHECKOUT_TEXT.company, { exact: true }).fill("Buyer Stores");
    // Digits only, at most ten.
    await page.getByLabel(CHECKOUT_TEXT.phone, { exact: true }).fill("(305) 555-0142 99");
    const phone = await page.getByLabel(CHECKOUT_TEXT.phone, { exact: true }).inputValue();
    check(phone === "3055550142", `the phone keeps ten digits, found '${phone}'`);
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitPaid }).click();
    await seeText(page, CHECKOUT_TEXT.successPaid);

    // The local payment page, as Stripe Checkout would be.
    await page.waitForURL((url) => url.pathname.startsWith("/_local/checkout/c/pay/"));
    await page.getByText("$1,079.89").first().waitFor();
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: /^Pay/ }).click();
    await page.getByRole("alert").filter({ hasText: "Your card was declined." }).waitFor();
    await shootBoth(page, "plans-local-checkout-declined");
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Name on card").fill("Pat Buyer");
    await page.getByRole("button", { name: /^Pay/ }).click();

    await seePath(page, "/payments/success");
    await seeText(page, PAYMENT_TEXT.createPasswordTitle);
    await shootBoth(page, "plans-success-password");
    await page.getByLabel(PAYMENT_TEXT.password, { exact: true }).fill("Secret123");
    await page.getByLabel(PAYMENT_TEXT.confirmPassword, { exact: true }).fill("Secret124");
    await page.getByRole("button", { name: PAYMENT_TEXT.createPassword }).click();
    await seeText(page, PAYMENT_TEXT.mismatch);
    await page.getByLabel(PAYMENT_TEXT.password, { exact: true }).fill("secret123");
    await page.getByLabel(PAYMENT_TEXT.confirmPassword, { exact: true }).fill("secret123");
    await page.getByRole("button", { name: PAYMENT_TEXT.createPassword }).click();
    await seeText(page, PAYMENT_TEXT.strength);
    await page.getByLabel(PAYMENT_TEXT.password, { exact: true }).fill("Secret123");
    await page.getByLabel(PAYMENT_TEXT.confirmPassword, { exact: true }).fill("Secret123");
    await page.getByRole("button", { name: PAYMENT_TEXT.createPassword }).click();

    await page.getByRole("button", { name: PAYMENT_TEXT.downloadReceipt }).waitFor();
    const plan = await page.getByTestId("payment-plan").textContent();
    check(plan === "Pro · Annual", `the details show the plan bought, found '${plan}'`);
    const amount = await page.getByTestId("payment-amount").textContent();
    check(amount === "$1,079.89", `the details show the amount in dollars, found '${amount}'`);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: PAYMENT_TEXT.downloadReceipt }).click();
    check((await download).suggestedFilename().endsWith(".json"), "the receipt is a JSON file");
    await page.getByRole("button", { name: PAYMENT_TEXT.goToDashboard }).click();
    await seePath(page, "/dashboard");
    await page.getByRole("complementary").getByText(email, { exact: true }).waitFor();

    // The subscription in Settings: active, then cancelled at the end of the period.
    await page.getByRole("complementary").getByRole("link", { name: NAV_TEXT.settings }).click();
    await seePath(page, "/settings");
    await seeText(page, SETTINGS_TEXT.subscriptionSection);
    const company = await page.getByLabel(SETTINGS_TEXT.companyLabel, { exact: true }).inputValue();
    check(company === "Buyer Stores", `the company typed at checkout is on the profile, found '${company}'`);
    const details = page.getByTestId("subscription-details");
    await details.getByText("active", { exact: true }).waitFor();
    await details.getByText("Pro", { exact: true }).waitFor();
    await shootBoth(page, "plans-settings-subscription");
    await page.getByRole("button", { name: SUBSCRIPTION_TEXT.cancel }).click();
    await seeText(page, SUBSCRIPTION_TEXT.cancelledTitle);
    await details.getByText(SUBSCRIPTION_TEXT.endsOn, { exact: false }).waitFor();
    await page.getByRole("button", { name: SUBSCRIPTION_TEXT.cancel }).click();
    await seeText(page, SETTINGS_TEXT.noSubscription);
  },
} satisfies Journey;
