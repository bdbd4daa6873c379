// Settings → Password as a signed-in user lives it: the policy shown beside the new password, a wrong
// current password and a weak new one refused on their fields, the change (the old password no longer
// signs in, the new one does), then 'Forgot password?' from Settings: the recovery mail to the
// account's own address, its link, a new password, and signing in with it.
import { AUTH_TEXT, AUTH_TOAST, NAV_TEXT, SETTINGS_TEXT } from "../shared/messages.ts";
import { NEW_PASSWORD_TEXT } from "../shared/schemas/password.ts";
import type { Page } from "playwright-core";
import { check, seePath, seeText, signIn, uniqueEmail, type Journey } from "./harness.ts";

async function signOut(page: Page) {
  await page.getByRole("complementary").getByRole("button", { name: NAV_TEXT.signOut }).click();
  await seePath(page, "/auth");
}

export default {
  name: "Settings: change the password with the current one, or mail a recovery link from there",
  async run({ page }) {
    const email = uniqueEmail("settings-pw");
    const first = "Journey-pass-1";
    const second = "Changed-2026";
    const third = "Recovered-2027";

    // A confirmed account (registered through the identity service, confirmed from the mailbox).
    const signup = await page.request.post("/auth/v1/signup", { data: { email, password: first, data: { username: "changer", company: "Change Co" } } });
    check(signup.ok(), `sign-up failed: ${signup.status()}`);
    await page.goto(`/mailbox?email=${encodeURIComponent(email)}`);
    await page.getByRole("listitem").filter({ hasText: "Confirm your email" }).getByRole("link").click();
    await seeText(page, AUTH_TEXT.confirmedTitle);
    await signIn(page, email, first);

    await page.goto("/settings");
    await page.getByRole("heading", { name: SETTINGS_TEXT.passwordSection, exact: true }).waitFor();
    const form = page.getByRole("form", { name: SETTINGS_TEXT.changePassword });
    const current = form.getByLabel(SETTINGS_TEXT.currentPasswordLabel, { exact: true });
    const fresh = form.getByLabel(AUTH_TEXT.newPasswordLabel, { exact: true });
    const confirm = form.getByLabel(AUTH_TEXT.confirmNewPasswordLabel, { exact: true });
    const save = form.getByRole("button", { name: SETTINGS_TEXT.changePassword, exact: true });
    // The policy is shown before anything is typed.
    await form.getByText(AUTH_TEXT.newPasswordRules, { exact: true }).waitFor();

    // A new password against the policy is refused on its field, before the server is asked.
    await current.fill(first);
    await fresh.fill("lowercase-only-1");
    await confirm.fill("lowercase-only-1");
    await save.click();
    await form.getByText(NEW_PASSWORD_TEXT.characters, { exact: true }).waitFor();

    // A wrong current password is refused by the server and shown on its field.
    await current.fill("Wrong-pass-1");
    await fresh.fill(second);
    await confirm.fill(second);
    await save.click();
    await form.getByText("Current password is incorrect.", { exact: true }).waitFor();
    check((await current.getAttribute("aria-invalid")) === "true", "the current password field should be marked invalid");

    // The right one changes it: the fields empty, the toast says so.
    await current.fill(first);
    await fresh.fill(second);
    await confirm.fill(second);
    await save.click();
    await seeText(page, AUTH_TOAST.passwordUpdated);
    check((await current.inputValue()) === "" && (await fresh.inputValue()) === "", "the password fields should be emptied after the change");

    // The old password no longer signs in; the new one does.
    await signOut(page);
    await page.goto("/auth?login=1");
    const login = page.getByRole("form", { name: AUTH_TEXT.signInTab });
    await login.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(email);
    await login.getByLabel(AUTH_TEXT.passwordLabel, { exact: true }).fill(first);
    await login.getByRole("button", { name: AUTH_TEXT.signInButton, exact: true }).click();
    await seeText(page, "Invalid login credentials");
    await signIn(page, email, second);

    // Forgot it anyway: Settings mails a recovery link to the account's own address.
    await page.goto("/settings");
    await page.getByRole("button", { name: AUTH_TEXT.forgotPassword, exact: true }).click();
    await seeText(page, SETTINGS_TEXT.forgotOffer(email));
    await page.getByRole("button", { name: AUTH_TEXT.sendResetLink, exact: true }).click();
    await seeText(page, SETTINGS_TEXT.resetSent(email));
    await page.getByRole("link", { name: AUTH_TEXT.openLocalMailbox }).click();
    await page.getByRole("listitem").filter({ hasText: "Reset your password" }).first().getByRole("link").click();
    await seePath(page, "/reset-password");
    const reset = page.getByRole("form", { name: AUTH_TEXT.newPasswordHeading });
    await reset.getByLabel(AUTH_TEXT.newPasswordLabel, { exact: true }).fill(third);
    await reset.getByLabel(AUTH_TEXT.confirmNewPasswordLabel, { exact: true }).fill(third);
    await reset.getByRole("button", { name: AUTH_TEXT.savePassword }).click();
    await seePath(page, "/dashboard");
    await seeText(page, AUTH_TOAST.passwordUpdated);

    await signOut(page);
    await signIn(page, email, third);
  },
} satisfies Journey;
