// A visitor leaves the payment page: /payments/cancel explains, and leads to sign-in.
import { BUY_TEXT, CHECKOUT_TEXT, PAYMENT_TEXT } from "../shared/messages.ts";
import { seePath, seeText, uniqueEmail, type Journey } from "./harness.ts";

export default {
  name: "Plans: cancel on the payment page, back to sign in",
  async run({ page }) {
    const email = uniqueEmail("cancel");
    await page.goto(`/buy?email=${encodeURIComponent(email)}`);
    await page.getByTestId("plan-basic").getByRole("button", { name: BUY_TEXT.select }).click();
    await page.getByRole("button", { name: BUY_TEXT.continue, exact: true }).click();
    await page.getByLabel(CHECKOUT_TEXT.firstName, { exact: true }).fill("Cal");
    await page.getByLabel(CHECKOUT_TEXT.lastName, { exact: true }).fill("Cancel");
    await page.getByLabel(CHECKOUT_TEXT.phone, { exact: true }).fill("2125550100");
    await page.getByRole("button", { name: CHECKOUT_TEXT.submitPaid }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/_local/checkout/c/pay/"));
    await page.getByRole("button", { name: "Cancel and return" }).click();
    await seePath(page, "/payments/cancel");
    await seeText(page, PAYMENT_TEXT.cancelText);
    await page.getByRole("button", { name: PAYMENT_TEXT.tryAgain }).waitFor();
    await page.getByRole("link", { name: PAYMENT_TEXT.goToAuth }).click();
    await seePath(page, "/auth");

    // A checkout for a price that does not exist says so.
    await page.goto("/checkout?priceId=price_gone&interval=month");
    await seeText(page, CHECKOUT_TEXT.productUnavailable);
  },
} satisfies Journey;
