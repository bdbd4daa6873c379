// Decision 032: the shell the Worker serves for a page names that page's own chunks (and, on a
// signed-in page, the identity library's) as module preloads, taken from the table the real build
// wrote, every one a script the build made; and it carries the client configuration.
import { AUTH_TEXT } from "../shared/messages.ts";
import type { Journey } from "./harness.ts";

const PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

export default {
  name: "A page's own code is preloaded from the HTML",
  async run({ page }) {
    const pages = [
      ["/auth", [/^\/assets\/auth-[\w-]+\.js$/, /^\/assets\/ui-[\w-]+\.js$/]],
      ["/call-logs", [/^\/assets\/identity-client-[\w-]+\.js$/, /^\/assets\/_app-[\w-]+\.js$/, /^\/assets\/call-logs-[\w-]+\.js$/]],
      ["/agent-settings", [/^\/assets\/_app-[\w-]+\.js$/, /^\/assets\/agent-settings-[\w-]+\.js$/, /^\/assets\/app-kit-[\w-]+\.js$/, /^\/assets\/ui-[\w-]+\.js$/]],
    ] as const;
    for (const [path, expected] of pages) {
      const html = await (await page.request.get(path)).text();
      const hrefs = [...html.matchAll(PRELOAD)].map((m) => m[1]);
      for (const pattern of expected) {
        if (!hrefs.some((h) => pattern.test(h))) throw new Error(`${path}: no preload matching ${pattern} among ${hrefs.join(", ")}`);
      }
      if (new Set(hrefs).size !== hrefs.length) throw new Error(`${path}: a file is preloaded twice`);
      // The client configuration comes in the shell, the same as GET /api/config answers.
      const inShell = /<script type="application\/json" id="app-config">(.*?)<\/script>/.exec(html)?.[1];
      const asked = await (await page.request.get("/api/config")).json();
      if (!inShell || JSON.stringify(JSON.parse(inShell)) !== JSON.stringify(asked)) throw new Error(`${path}: shell config ${inShell} ≠ ${JSON.stringify(asked)}`);
      for (const href of hrefs) {
        const res = await page.request.get(href);
        const type = res.headers()["content-type"] ?? "";
        if (res.status() !== 200 || !/javascript/.test(type)) throw new Error(`${path}: preload ${href} answered ${res.status()} ${type}`);
      }
    }
    // The agent form (zod and the schemas) loads when an agent is edited, and the number select
    // (Radix Select) when a row offers numbers (decision 035), not with the Agents page.
    const agentsHtml = await (await page.request.get("/agent-settings")).text();
    const agentsPreloads = [...agentsHtml.matchAll(PRELOAD)].map((m) => m[1]);
    if (agentsPreloads.some((h) => /\/assets\/(zod|schemas|agent-form|select|agent-number-select)-/.test(h)))
      throw new Error(`/agent-settings preloads the form or the select: ${agentsPreloads.join(", ")}`);
    // The signed-in pages' shared modules come in one file, /auth's in another (decision 037), so the
    // Agents page preloads a handful of files, not one per shared module.
    if (agentsPreloads.length > 9) throw new Error(`/agent-settings preloads ${agentsPreloads.length} files: ${agentsPreloads.join(", ")}`);
    // Nor the dialogs (decision 037): the phone's menu drawer and the delete confirmation, with
    // Radix Dialog under them, load when the page is idle.
    if (agentsPreloads.some((h) => /\/assets\/(dialog|alert-dialog|return-focus|mobile-nav-drawer|delete-agent-confirm)-/.test(h)))
      throw new Error(`/agent-settings preloads a dialog: ${agentsPreloads.join(", ")}`);

    // A page the router does not know gets the entry's preloads only.
    const unknown = await (await page.request.get("/no-such-page")).text();
    const entryOnly = [...unknown.matchAll(PRELOAD)].map((m) => m[1]);
    if (entryOnly.some((h) => /\/(auth|_app|call-logs)-/.test(h))) throw new Error(`/no-such-page preloads page code: ${entryOnly.join(", ")}`);

    // And the page still works from it: the sign-in view renders.
    await page.goto("/auth?login=1");
    await page.getByRole("heading", { name: AUTH_TEXT.loginHeading }).waitFor();
  },
} satisfies Journey;
