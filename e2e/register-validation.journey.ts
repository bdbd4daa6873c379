// Issue 1 (c): the Register tab validates on every change (spec 1 §5), before any submit.
import { AUTH_TEXT, VALIDATION } from "../shared/messages.ts";
import { seeText, type Journey } from "./harness.ts";

export default {
  name: "Register tab shows validation messages as you type",
  async run({ page }) {
    await page.goto("/auth?tab=register");
    const form = page.getByRole("form", { name: AUTH_TEXT.registerTab });
    const field = (label: string) => form.getByLabel(label, { exact: true });
    const gone = (text: string) => form.getByText(text, { exact: true }).waitFor({ state: "detached" });

    await field(AUTH_TEXT.emailLabel).pressSequentially("not-an-email");
    await seeText(page, VALIDATION.invalidEmail);
    await field(AUTH_TEXT.emailLabel).fill("someone@example.test");
    await gone(VALIDATION.invalidEmail);

    await field(AUTH_TEXT.usernameLabel).pressSequentially("ab");
    await seeText(page, VALIDATION.usernameMin);
    await field(AUTH_TEXT.usernameLabel).pressSequentially("c");
    await gone(VALIDATION.usernameMin);

    await field(AUTH_TEXT.companyLabel).pressSequentially("A");
    await field(AUTH_TEXT.companyLabel).press("Backspace");
    await seeText(page, VALIDATION.companyRequired);
    await field(AUTH_TEXT.companyLabel).pressSequentially("Acme Dental");
    await gone(VALIDATION.companyRequired);

    await field(AUTH_TEXT.passwordLabel).pressSequentially("12345");
    await seeText(page, VALIDATION.passwordMin);
    await field(AUTH_TEXT.passwordLabel).pressSequentially("6");
    await gone(VALIDATION.passwordMin);

    await field(AUTH_TEXT.confirmPasswordLabel).pressSequentially("1234567");
    await seeText(page, VALIDATION.passwordsMismatch);
    await field(AUTH_TEXT.confirmPasswordLabel).press("Backspace");
    await gone(VALIDATION.passwordsMismatch);
  },
} satisfies Journey;
