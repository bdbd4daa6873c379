// Decision 033: a bare /auth is painted from the HTML, the plan panel's heading and field included,
// before any script has run. What a visitor types there stays when the app takes over, the focus
// too, and a form sent before the app ran goes on in the app.
import { AUTH_TEXT } from "../shared/messages.ts";
import { check, type Journey } from "./harness.ts";

export default {
  name: "/auth paints from the HTML and keeps what was typed before the app ran",
  async run({ page }) {
    const html = await (await page.request.get("/auth")).text();
    const root = /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? "";
    check(root.includes(`>${AUTH_TEXT.planHeading}</h1>`), `/auth's shell should hold the plan panel's heading, found ${root.slice(0, 200)}`);
    check(root.includes('data-first-screen-field="plan-email"'), "/auth's shell should hold the plan panel's field");
    for (const other of ["/auth?login=1", "/auth?tab=register"]) {
      const shell = await (await page.request.get(other)).text();
      check(!shell.includes(AUTH_TEXT.planHeading), `${other} is another view: its shell should not hold the plan panel`);
    }

    // Scripts held back: what is on screen is the HTML alone.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/*.js", async (route) => {
      await released;
      await route.continue();
    });
    // The heading never leaves the screen between the HTML's and the app's. The observer also runs
    // while the parser is still adding the first screen (it yields mid-document on a busy machine or a
    // slow response), before it reaches the heading: the heading counts as gone once it has been there.
    await page.addInitScript(() => {
      const w = window as unknown as { headingSeen?: boolean; headingGone?: string };
      new MutationObserver(() => {
        const root = document.getElementById("root");
        if (!root) return;
        if (root.querySelector("h1")) w.headingSeen = true;
        else if (w.headingSeen && w.headingGone === undefined) {
          // What took the heading's place, for the failure message.
          const outline = (el: Element) =>
            `${el.tagName.toLowerCase()}${el.getAttribute("style") ? `[style="${el.getAttribute("style")}"]` : ""}` +
            (el.children.length ? ` > ${[...el.children].map((c) => c.tagName.toLowerCase()).join(", ")}` : "");
          const text = (root.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 120);
          w.headingGone = `#root held ${[...root.children].map(outline).join(" + ") || "nothing"}, reading '${text}'`;
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto("/auth", { waitUntil: "commit" });
    const early = page.locator('#root input[data-first-screen-field="plan-email"]');
    await early.fill("early@store.example");
    await early.evaluate((input) => input.setAttribute("data-typed-before-the-app", ""));
    // The field comes after the heading in the HTML: the heading is on screen by now.
    check(await page.evaluate(() => (window as unknown as { headingSeen?: boolean }).headingSeen === true), "the HTML's heading should be on screen before the app runs");
    release();
    // The app's own field replaces the HTML's, with the text and the focus.
    const live = page.locator('#root input[data-first-screen-field="plan-email"]:not([data-typed-before-the-app])');
    await live.waitFor();
    check((await live.inputValue()) === "early@store.example", `the app's field should keep the typed email, found '${await live.inputValue()}'`);
    check(await live.evaluate((input) => document.activeElement === input), "the app's field should have the focus the HTML's had");
    const gone = await page.evaluate(() => (window as unknown as { headingGone?: string }).headingGone);
    check(gone === undefined, `the heading left the screen while the app took over: ${gone}`);
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/buy" && url.searchParams.get("email") === "early@store.example");

    // A form sent before the app ran: the app goes on with it, in place of that address.
    await page.unroute("**/assets/*.js");
    let hold!: () => void;
    const held = new Promise<void>((resolve) => (hold = resolve));
    await page.route("**/assets/*.js", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/auth", { waitUntil: "commit" });
    await page.locator('#root input[name="email"]').fill("visitor@store.example");
    const sent = page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("submitted") === "1", { waitUntil: "commit" });
    await page.getByRole("button", { name: AUTH_TEXT.planButton }).click();
    await sent;
    hold();
    await page.waitForURL((url) => url.pathname === "/buy" && url.searchParams.get("email") === "visitor@store.example");
  },
} satisfies Journey;
