// A visitor starts a 7-day trial without a card. A start refused (the
// email has an account) records no lead; the started trial records one and stays on a page that says
// to activate from the mail (never sent on to /auth). The visitor follows the activation mail,
// chooses a password and is signed in on the dashboard; signed in, /buy offers no trial.
import type { Request } from "playwright-core";
import { ACTIVATION_TEXT, BUY_TEXT, CHECKOUT_TEXT } from "../shared/messages.ts";
import { check, DEMO, seePath, seeText, uniqueEmail, type Journey } from "./harness.ts";

export default {
  name: "Plans: 7-day trial, no lead for a refused start, activation mail, password, signed in, no trial offered then",
  async run({ page }) {
    const email = uniqueEmail("trial");
    const posted: string[] = [];
    const onRequest = (req: Request) => {
      if (req.method() === "POST" && /\/api\/(leads\/leads|stripe\/start-trial)$/.test(new URL(req.url()).pathname)) posted.push(new URL(req.url()).pathname);
    };
    page.on("request", onRequest);
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

    // An email that has an account: the start is refused, and no lead is recorded for it.
    await page.getByLabel(CHECKOUT_TEXT.email, { exact: true }).fill(DEMO.customer);
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitTrial }).click();
    await page.getByRole("alert").waitFor();
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitTrial }).waitFor();
    check(posted.join() === "/api/stripe/start-trial", `a refused trial should send no lead, sent: ${posted.join(", ")}`);

    await page.getByLabel(CHECKOUT_TEXT.email, { exact: true }).fill(email);
    const leadAnswered = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/leads/leads");
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitTrial }).click();
    await seeText(page, CHECKOUT_TEXT.successTrial);
    await leadAnswered;
    check(
      posted.join() === "/api/stripe/start-trial,/api/stripe/start-trial,/api/leads/leads",
      `the started trial's lead follows it, once, sent: ${posted.join(", ")}`,
    );
    page.off("request", onRequest);
    // Past the spec's 2 s redirect: the visitor is not signed in yet, so the page stays and says what
    // to do (the dashboard would only send them to /auth).
    await page.waitForTimeout(3000);
    await seePath(page, "/checkout");
    await seeText(page, CHECKOUT_TEXT.successTrial);
    await page.getByRole("link", { name: CHECKOUT_TEXT.signIn }).waitFor();

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

    // Signed in, /buy offers the plans without a trial the account could not start.
    await page.goto(`/buy?email=${encodeURIComponent(email)}`);
    await page.getByTestId("plan-basic").getByRole("button", { name: BUY_TEXT.select }).click();
    await page.getByRole("button", { name: BUY_TEXT.continue }).waitFor();
    check((await page.getByRole("button", { name: BUY_TEXT.startTrial }).count()) === 0, "a signed-in account should not be offered a trial");
    await page.goto("/checkout?priceId=price_any&interval=month&trial=1");
    await seeText(page, CHECKOUT_TEXT.trialSignedIn);
  },
} satisfies Journey;
