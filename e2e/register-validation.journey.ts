// The Register tab validates on every change (docs/product/errors-and-texts.md#validation-messages), before any submit.
import { AUTH_TEXT, VALIDATION } from "../shared/messages.ts";
import { NEW_PASSWORD_TEXT } from "../shared/schemas/password.ts";
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

    // The one password policy, shown under the field and checked as you type.
    await seeText(page, AUTH_TEXT.newPasswordRules);
    await field(AUTH_TEXT.passwordLabel).pressSequentially("secret1");
    await seeText(page, NEW_PASSWORD_TEXT.tooShort);
    await field(AUTH_TEXT.passwordLabel).pressSequentially("2");
    await gone(NEW_PASSWORD_TEXT.tooShort);
    await seeText(page, NEW_PASSWORD_TEXT.characters);
    await field(AUTH_TEXT.passwordLabel).fill("Secret12");
    await gone(NEW_PASSWORD_TEXT.characters);

    await field(AUTH_TEXT.confirmPasswordLabel).pressSequentially("Secret123");
    await seeText(page, VALIDATION.passwordsMismatch);
    await field(AUTH_TEXT.confirmPasswordLabel).press("Backspace");
    await gone(VALIDATION.passwordsMismatch);
  },
} satisfies Journey;
