// A new account is registered, confirmed through the local mailbox, signed in,
// survives a reload, signs out, and private pages are closed to it afterwards. "I've Confirmed"
// tells an address that is not confirmed yet so, and shows 'Email Confirmed!' once it is.
import { AUTH_TEXT, AUTH_TOAST, NAV_TEXT } from "../shared/messages.ts";
import { check, seePath, seeText, uniqueEmail, type Journey } from "./harness.ts";

export default {
  name: "Register, confirm by mail, sign in, reload, sign out",
  async run({ page, context }) {
    const email = uniqueEmail("register");
    const password = "Journey-pass-1";

    // From the plan panel to the Register tab, the way a visitor finds it.
    await page.goto("/auth");
    await seeText(page, AUTH_TEXT.planHeading);
    await page.getByRole("link", { name: AUTH_TEXT.planLoginLink }).click();
    await seeText(page, AUTH_TEXT.loginHeading);
    await page.getByRole("link", { name: AUTH_TEXT.registerTab, exact: true }).click();

    const register = page.getByRole("form", { name: AUTH_TEXT.registerTab });
    await register.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(email);
    await register.getByLabel(AUTH_TEXT.usernameLabel, { exact: true }).fill("journey");
    await register.getByLabel(AUTH_TEXT.companyLabel, { exact: true }).fill("Journey Testing Co");
    await register.getByLabel(AUTH_TEXT.passwordLabel, { exact: true }).fill(password);
    await register.getByLabel(AUTH_TEXT.confirmPasswordLabel, { exact: true }).fill(password);
    await register.getByRole("button", { name: AUTH_TEXT.createAccount }).click();

    await seeText(page, AUTH_TEXT.confirmTitle);
    await seeText(page, email);
    await seeText(page, AUTH_TOAST.accountCreated);

    // Not confirmed yet: "I've Confirmed" says so and the screen stays.
    const iveConfirmed = page.getByRole("button", { name: AUTH_TEXT.iveConfirmed });
    await iveConfirmed.click();
    await page.getByRole("alert").filter({ hasText: AUTH_TEXT.notConfirmedYet }).waitFor();
    await seeText(page, AUTH_TEXT.confirmTitle);
    check((await page.getByText(AUTH_TEXT.confirmedTitle, { exact: true }).count()) === 0, "'Email Confirmed!' shown for an unconfirmed address");

    // The confirmation mail, as the local mail adapter kept it, opened in another tab; its link confirms the address.
    const mailTab = await context.newPage();
    await mailTab.goto("/mailbox");
    const mail = mailTab.getByRole("listitem").filter({ hasText: email });
    await mail.getByRole("link").click();

    // The page spent the link with a POST; its token left the address bar.
    await seeText(mailTab, AUTH_TEXT.confirmedTitle);
    await seeText(mailTab, AUTH_TOAST.emailConfirmed);
    check(!mailTab.url().includes("token_hash"), `the token should leave the URL, found ${mailTab.url()}`);
    await mailTab.close();

    // Back on the registration's tab, "I've Confirmed" now finds the address confirmed.
    await iveConfirmed.click();
    await seeText(page, AUTH_TEXT.confirmedTitle);
    await page.getByRole("button", { name: AUTH_TEXT.continueToSignIn }).click();

    const signIn = page.getByRole("form", { name: AUTH_TEXT.signInTab });
    const emailField = signIn.getByLabel(AUTH_TEXT.emailLabel, { exact: true });
    await emailField.waitFor();
    const prefilled = await emailField.inputValue();
    check(prefilled === email, `Sign In email should be prefilled with ${email}, found '${prefilled}'`);
    await signIn.getByLabel(AUTH_TEXT.passwordLabel, { exact: true }).fill(password);
    await signIn.getByRole("button", { name: AUTH_TEXT.signInButton, exact: true }).click();

    await seePath(page, "/dashboard");
    await seeText(page, AUTH_TOAST.loggedIn);
    // The sidebar's user block names the account (no full name yet, so its email).
    const sidebar = page.getByRole("complementary");
    await sidebar.getByText(email, { exact: true }).waitFor();

    // The reloaded page asks for the profile once: the provider joins the request the entry
    // started with the stored token.
    let profileRequests = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/profile") profileRequests++;
    });
    await page.reload();
    await seePath(page, "/dashboard");
    await sidebar.getByText(email, { exact: true }).waitFor();
    check(profileRequests === 1, `the reloaded page asked for /api/profile ${profileRequests} times`);

    await sidebar.getByRole("button", { name: NAV_TEXT.signOut }).click();
    await seePath(page, "/auth");
    await seeText(page, AUTH_TOAST.loggedOut);

    await page.goto("/dashboard");
    await seePath(page, "/auth");
  },
} satisfies Journey;
