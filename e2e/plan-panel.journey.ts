// The plan panel sends an unknown email to the plans page and a known one to 'Log in'.
import { AUTH_TEXT } from "../shared/messages.ts";
import { check, DEMO, seeText, uniqueEmail, type Journey } from "./harness.ts";

export default {
  name: "Plan panel: unknown email goes to /buy, known email to Log in",
  async run({ page }) {
    const unknown = uniqueEmail("visitor");
    await page.goto("/auth");
    await seeText(page, AUTH_TEXT.planHeading);
    await seeText(page, AUTH_TEXT.planText);
    await page.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(unknown);
    await page.getByRole("button", { name: AUTH_TEXT.planButton }).click();
    await page.waitForURL((url) => url.pathname === "/buy" && url.searchParams.get("email") === unknown);

    await page.goto("/auth");
    await page.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(DEMO.staff);
    await page.getByRole("button", { name: AUTH_TEXT.planButton }).click();
    await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("login") === "1");
    await seeText(page, AUTH_TEXT.loginHeading);
    await page.getByRole("button", { name: AUTH_TEXT.goBack }).waitFor();
    const login = page.getByRole("form", { name: AUTH_TEXT.signInTab });
    const prefilled = await login.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).inputValue();
    check(prefilled === DEMO.staff, `the login view should carry ${DEMO.staff}, found '${prefilled}'`);
  },
} satisfies Journey;
