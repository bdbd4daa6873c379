// Any other path shows the 404 page (docs/product/screens-and-routes.md#route-table). The page itself comes through
// the Worker (run_worker_first), so it carries the security headers built from the configuration.
import { PAGE_TEXT } from "../shared/messages.ts";
import { seeText, type Journey } from "./harness.ts";

export default {
  name: "Unknown path shows the 404 page",
  async run({ page }) {
    const response = await page.goto("/no-such-page/anywhere");
    const csp = (await response?.allHeaders())?.["content-security-policy"] ?? "";
    if (!/frame-ancestors 'none'/.test(csp) || !/media-src 'self'/.test(csp)) {
      throw new Error(`the page was served without the Worker's Content-Security-Policy: "${csp}"`);
    }
    await seeText(page, "404");
    await seeText(page, PAGE_TEXT.notFoundTitle);
    await page.getByRole("link", { name: PAGE_TEXT.backHome }).waitFor();
  },
} satisfies Journey;
