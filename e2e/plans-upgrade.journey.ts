// A trial account (company typed at the trial) is activated, upgrades to Pro
// from Settings, pays on the local checkout page and is taken to its dashboard without being asked
// for a password; Settings then shows one live subscription, Pro, and the trial is gone.
import { ACTIVATION_TEXT, BUY_TEXT, CHECKOUT_TEXT, NAV_TEXT, PAYMENT_TEXT, SETTINGS_TEXT, SUBSCRIPTION_TEXT } from "../shared/messages.ts";
import { check, seePath, seeText, uniqueEmail, type Journey } from "./harness.ts";

export default {
  name: "Plans: trial, activation, upgrade to Pro from Settings, dashboard without a password step, one subscription",
  async run({ page }) {
    const email = uniqueEmail("upgrade");
    await page.goto(`/buy?email=${encodeURIComponent(email)}`);
    await page.getByTestId("plan-basic").getByRole("button", { name: BUY_TEXT.select }).click();
    await page.getByRole("button", { name: BUY_TEXT.startTrial }).click();
    await seePath(page, "/checkout");
    await page.getByLabel(CHECKOUT_TEXT.firstName, { exact: true }).fill("Una");
    await page.getByLabel(CHECKOUT_TEXT.lastName, { exact: true }).fill("Upgrade");
    await page.getByLabel(CHECKOUT_TEXT.phone, { exact: true }).fill("9185550123");
    await page.getByLabel(CHECKOUT_TEXT.company, { exact: true }).fill("Upgrade Co");
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitTrial }).click();
    // The visitor stays on the page that tells them to activate from the mail.
    await seeText(page, CHECKOUT_TEXT.successTrial);
    await seePath(page, "/checkout");

    await page.goto("/mailbox");
    await page.getByRole("listitem").filter({ hasText: email }).getByRole("link").click();
    await seePath(page, "/activate-account");
    await page.getByLabel(ACTIVATION_TEXT.password, { exact: true }).fill("Trial1234");
    await page.getByLabel(ACTIVATION_TEXT.confirmPassword, { exact: true }).fill("Trial1234");
    await page.getByRole("button", { name: ACTIVATION_TEXT.activate }).click();
    await seePath(page, "/dashboard");

    await page.getByRole("complementary").getByRole("link", { name: NAV_TEXT.settings }).click();
    await seePath(page, "/settings");
    const details = page.getByTestId("subscription-details");
    await details.getByText("trialing", { exact: true }).waitFor();
    await details.getByText("Basic", { exact: true }).waitFor();
    const company = await page.getByLabel(SETTINGS_TEXT.companyLabel, { exact: true }).inputValue();
    check(company === "Upgrade Co", `the trial's company is on the profile, found '${company}'`);

    await page.getByRole("link", { name: SUBSCRIPTION_TEXT.upgrade, exact: true }).click();
    await seePath(page, "/buy");
    await page.getByTestId("plan-pro").getByRole("button", { name: BUY_TEXT.select }).click();
    await page.getByRole("button", { name: BUY_TEXT.continue, exact: true }).click();
    await seePath(page, "/checkout");
    await page.getByLabel(CHECKOUT_TEXT.firstName, { exact: true }).fill("Una");
    await page.getByLabel(CHECKOUT_TEXT.lastName, { exact: true }).fill("Upgrade");
    await page.getByLabel(CHECKOUT_TEXT.phone, { exact: true }).fill("9185550123");
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitPaid }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/_local/checkout/c/pay/"));
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay/ }).click();

    // The account has its password: no password step, straight to its dashboard.
    await seePath(page, "/dashboard");
    check((await page.getByText(PAYMENT_TEXT.createPasswordTitle).count()) === 0, "an account with a password is not asked for one");
    await page.getByRole("complementary").getByText(email, { exact: true }).waitFor();

    await page.getByRole("complementary").getByRole("link", { name: NAV_TEXT.settings }).click();
    await seePath(page, "/settings");
    await details.getByText("active", { exact: true }).waitFor();
    await details.getByText("Pro", { exact: true }).waitFor();
    // At the provider: one live subscription (Pro), the trial ended.
    const signIn = await page.request.post("/auth/v1/token?grant_type=password", { data: { email, password: "Trial1234" } });
    const headers = { authorization: `Bearer ${((await signIn.json()) as { access_token: string }).access_token}` };
    const record = (await (await page.request.get(`/api/leads/customers/by-email?email=${encodeURIComponent(email)}`, { headers })).json()) as { customer: { stripe_customer_id: string } };
    const listed = (await (await page.request.get(`/api/stripe/customer-subscriptions/${record.customer.stripe_customer_id}`, { headers })).json()) as {
      subscriptions: { status: string; items: { data: { price: { product: { name: string } } }[] } }[];
    };
    const summary = listed.subscriptions.map((s) => `${s.items.data[0].price.product.name}:${s.status}`).sort();
    check(JSON.stringify(summary) === JSON.stringify(["Basic:canceled", "Pro:active"]), `one customer, the trial ended and Pro live, found ${JSON.stringify(summary)}`);
  },
} satisfies Journey;
