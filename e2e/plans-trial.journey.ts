// Issue 9: a visitor starts a 7-day trial without a card, follows the activation mail, chooses a
// password and is signed in on the dashboard.
import { ACTIVATION_TEXT, BUY_TEXT, CHECKOUT_TEXT } from "../shared/messages.ts";
import { seePath, seeText, uniqueEmail, type Journey } from "./harness.ts";

export default {
  name: "Plans: 7-day trial, activation mail, password, signed in",
  async run({ page }) {
    const email = uniqueEmail("trial");
    await page.goto(`/buy?email=${encodeURIComponent(email)}`);
    await page.getByTestId("plan-basic").getByRole("button", { name: BUY_TEXT.select }).click();
    await page.getByRole("button", { name: BUY_TEXT.startTrial }).click();
    await seePath(page, "/checkout");
    await seeText(page, CHECKOUT_TEXT.trialTitle);
    await seeText(page, CHECKOUT_TEXT.trialSummary);
    await page.getByLabel(CHECKOUT_TEXT.firstName, { exact: true }).fill("Tina");
    await page.getByLabel(CHECKOUT_TEXT.lastName, { exact: true }).fill("Trial");
    await page.getByLabel(CHECKOUT_TEXT.phone, { exact: true }).fill("9185550199");
    await page.getByLabel(CHECKOUT_TEXT.email, { exact: true }).fill("not-an-email");
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitTrial }).click();
    await seeText(page, CHECKOUT_TEXT.invalidEmail(CHECKOUT_TEXT.emailExample));
    await page.getByLabel(CHECKOUT_TEXT.email, { exact: true }).fill(email);
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitTrial }).click();
    await seeText(page, CHECKOUT_TEXT.successTrial);
    // Two seconds later the trial goes to /dashboard, which sends a signed-out visitor to /auth.
    await seePath(page, "/auth");

    await page.goto("/mailbox");
    await page.getByRole("listitem").filter({ hasText: email }).getByRole("link").click();
    await seePath(page, "/activate-account");
    await seeText(page, email);
    await page.getByLabel(ACTIVATION_TEXT.password, { exact: true }).fill("short");
    await page.getByLabel(ACTIVATION_TEXT.confirmPassword, { exact: true }).fill("short");
    await page.getByRole("button", { name: ACTIVATION_TEXT.activate }).click();
    await seeText(page, ACTIVATION_TEXT.invalidPassword);
    await page.getByLabel(ACTIVATION_TEXT.password, { exact: true }).fill("Trial1234");
    await page.getByLabel(ACTIVATION_TEXT.confirmPassword, { exact: true }).fill("Trial1234");
    await page.getByRole("button", { name: ACTIVATION_TEXT.activate }).click();
    await seeText(page, ACTIVATION_TEXT.done);
    await seePath(page, "/dashboard");
    await page.getByRole("complementary").getByText(email, { exact: true }).waitFor();
  },
} satisfies Journey;
