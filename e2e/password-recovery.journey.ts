// Password recovery as a locked-out user lives it: 'Forgot password?' on the login panel, the mail in
// the local mailbox, its link signs in for the new-password form (spec 2 rules), the new password
// signs in, the old one and the used link no longer work.
import { AUTH_TEXT, AUTH_TOAST, NAV_TEXT } from "../shared/messages.ts";
import { NEW_PASSWORD_TEXT } from "../shared/schemas/password.ts";
import { check, seePath, seeText, signIn, uniqueEmail, type Journey } from "./harness.ts";

export default {
  name: "Forgot password: request, mailed link, new password, sign in",
  async run({ page }) {
    const email = uniqueEmail("recover");
    const oldPassword = "Journey-pass-1";
    const newPassword = "Recovered-2026";

    // A confirmed account to recover (registered through the identity service, confirmed from the mailbox).
    const signup = await page.request.post("/auth/v1/signup", {
      data: { email, password: oldPassword, data: { username: "recoverer", company: "Recovery Co" } },
    });
    check(signup.ok(), `sign-up failed: ${signup.status()}`);
    await page.goto(`/mailbox?email=${encodeURIComponent(email)}`);
    await page.getByRole("listitem").filter({ hasText: "Confirm your email" }).getByRole("link").click();
    await seeText(page, AUTH_TEXT.confirmedTitle);

    // The login panel's 'Forgot password?' carries the typed email to the request form.
    await page.goto("/auth?login=1");
    const login = page.getByRole("form", { name: AUTH_TEXT.signInTab });
    await login.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(email);
    await page.getByRole("link", { name: AUTH_TEXT.forgotPassword }).click();
    await seeText(page, AUTH_TEXT.forgotHeading);
    const request = page.getByRole("form", { name: AUTH_TEXT.forgotHeading });
    const carried = await request.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).inputValue();
    check(carried === email, `the request form should hold ${email}, found '${carried}'`);
    await request.getByRole("button", { name: AUTH_TEXT.sendResetLink }).click();
    await seeText(page, AUTH_TEXT.resetSentTitle);

    // The mail, and its link.
    await page.getByRole("link", { name: AUTH_TEXT.openLocalMailbox }).click();
    const mail = page.getByRole("listitem").filter({ hasText: "Reset your password" });
    const link = await mail.getByRole("link").getAttribute("href");
    check(link, "the recovery mail should carry a link");
    await mail.getByRole("link").click();

    // The link opens the form and spends nothing yet; its token leaves the address bar.
    await seePath(page, "/reset-password");
    await seeText(page, AUTH_TEXT.newPasswordHeading);
    check(!page.url().includes("token_hash") && !page.url().includes("access_token"), `the token should leave the URL, found ${page.url()}`);

    const form = page.getByRole("form", { name: AUTH_TEXT.newPasswordHeading });
    const pw = form.getByLabel(AUTH_TEXT.newPasswordLabel, { exact: true });
    const confirm = form.getByLabel(AUTH_TEXT.confirmNewPasswordLabel, { exact: true });
    await pw.fill("lowercase-only-1");
    await confirm.fill("lowercase-only-1");
    await seeText(page, NEW_PASSWORD_TEXT.characters);
    await pw.fill(newPassword);
    await confirm.fill(`${newPassword}x`);
    await seeText(page, NEW_PASSWORD_TEXT.mismatch);
    await confirm.fill(newPassword);
    // Saving spends the link (POST /auth/v1/verify) and sets the password.
    await form.getByRole("button", { name: AUTH_TEXT.savePassword }).click();
    await seePath(page, "/dashboard");
    await seeText(page, AUTH_TOAST.passwordUpdated);

    await page.getByRole("complementary").getByRole("button", { name: NAV_TEXT.signOut }).click();
    await seePath(page, "/auth");

    // The old password is refused; the new one signs in.
    await page.goto("/auth?login=1");
    const again = page.getByRole("form", { name: AUTH_TEXT.signInTab });
    await again.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(email);
    await again.getByLabel(AUTH_TEXT.passwordLabel, { exact: true }).fill(oldPassword);
    await again.getByRole("button", { name: AUTH_TEXT.signInButton, exact: true }).click();
    await seeText(page, "Invalid login credentials");
    check(new URL(page.url()).pathname === "/auth", "the old password must not sign in");
    await signIn(page, email, newPassword);

    // The link worked once: saving from it again is refused, and the page offers a new link.
    await page.getByRole("complementary").getByRole("button", { name: NAV_TEXT.signOut }).click();
    await seePath(page, "/auth");
    await page.goto(link);
    const reused = page.getByRole("form", { name: AUTH_TEXT.newPasswordHeading });
    await reused.getByLabel(AUTH_TEXT.newPasswordLabel, { exact: true }).fill("Another-2026");
    await reused.getByLabel(AUTH_TEXT.confirmNewPasswordLabel, { exact: true }).fill("Another-2026");
    await reused.getByRole("button", { name: AUTH_TEXT.savePassword }).click();
    await seeText(page, AUTH_TEXT.recoveryLinkUnusable);
  },
} satisfies Journey;
