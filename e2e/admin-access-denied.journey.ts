// A signed-in account without is_admin cannot open /admin (docs/product/screens-and-routes.md#roles-and-flags).
import { ACCESS_TEXT, NAV_TEXT } from "../shared/messages.ts";
import { check, DEMO, seePath, seeText, signIn, type Journey } from "./harness.ts";

export default {
  name: "Non-admin opening /admin is sent away with 'Access Denied'",
  async run({ page }) {
    await signIn(page, DEMO.customer);
    const adminLinks = await page.getByRole("complementary").getByRole("link", { name: NAV_TEXT.admin }).count();
    check(adminLinks === 0, "the sidebar should not offer the Admin Dashboard to a non-admin");

    await page.goto("/admin");
    await seeText(page, ACCESS_TEXT.accessDenied);
    await seeText(page, ACCESS_TEXT.adminDenied);
    // Sent to /, which is the dashboard for a signed-in user.
    await seePath(page, "/dashboard");
  },
} satisfies Journey;
