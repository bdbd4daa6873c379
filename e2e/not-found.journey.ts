// Issue 1 (e): any other path shows the 404 page (spec 2 route table).
import { PAGE_TEXT } from "../shared/messages.ts";
import { seeText, type Journey } from "./harness.ts";

export default {
  name: "Unknown path shows the 404 page",
  async run({ page }) {
    await page.goto("/no-such-page/anywhere");
    await seeText(page, "404");
    await seeText(page, PAGE_TEXT.notFoundTitle);
    await page.getByRole("link", { name: PAGE_TEXT.backHome }).waitFor();
  },
} satisfies Journey;
