// The daily report by email (decision 060). /api/report-mail: the signed-in user's switch, for users
// who may see the daily report (shopwindows_info, or admin; others 403). /api/report-mail/unsubscribe:
// the mail's unsubscribe link, without sign-in. Its GET only shows a page with a button (mail scanners
// open links); its POST, from that button or a mail program's one-click (RFC 8058), turns the mail off.
import { REPORT_MAIL_TEXT } from "@shared/messages";
import { type ReportMailSetting } from "@shared/schemas/report-mail";
import { type Context } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../app-env";
import { clientAddress, hit, type Limit } from "../db/rate-limit";
import { linkPage, type LinkPageBody } from "../lib/link-page";
import { tooManyRequests } from "../lib/errors";
import { currentUser } from "../middleware/auth";
import { reportMailSetting, setReportMail, unsubscribeByToken, unsubscribeTokenKnown } from "../services/report-mail";
import { DeclaredRoutes } from "./serve";

/** Changes of the switch per user: plenty for a person, and no mail is sent by a change. */
export const REPORT_MAIL_CHANGE_LIMIT: Limit = { name: "report-mail:user", limit: 20, windowSeconds: 3600 };
/** Unsubscribe page requests per address, as the other public routes. */
export const UNSUBSCRIBE_LIMIT: Limit = { name: "report-mail-unsubscribe:ip", limit: 30, windowSeconds: 60 };

const page = (body: LinkPageBody) => linkPage(REPORT_MAIL_TEXT.pageTitle, body);

const tokenOf = (c: Context<AppEnv>) => c.req.query("token") ?? "";

/** The page's answer to an address over its limit (an HTML page, as the link opens in a browser). */
async function overLimit(c: Context<AppEnv>) {
  if (await hit(c.var.db, UNSUBSCRIBE_LIMIT, clientAddress(c))) return null;
  return c.html(page(html`<p role="alert">${REPORT_MAIL_TEXT.tooMany}</p>`), 429, { "retry-after": String(UNSUBSCRIBE_LIMIT.windowSeconds) });
}

const invalid = (c: Context<AppEnv>) => c.html(page(html`<p role="alert">${REPORT_MAIL_TEXT.invalid}</p>`), 404);

export const reportMailRoutes = new DeclaredRoutes()
  .serve("GET /api/report-mail", async (c) => {
    const body: ReportMailSetting = await reportMailSetting(c.var.db, currentUser(c));
    return c.json(body);
  })
  .serve("PUT /api/report-mail", async (c) => {
    const user = currentUser(c);
    const origin = c.var.config.PUBLIC_URL ?? new URL(c.req.url).origin;
    // The limit is counted in the write's own batch: with the identity, two round trips.
    const body: ReportMailSetting | null = await setReportMail(c.var.db, user, c.req.valid("json").subscribed, origin, REPORT_MAIL_CHANGE_LIMIT);
    if (!body) throw tooManyRequests();
    return c.json(body);
  })
  .serve("GET /api/report-mail/unsubscribe", async (c) => {
    const limited = await overLimit(c);
    if (limited) return limited;
    const token = tokenOf(c);
    if (!(await unsubscribeTokenKnown(c.var.db, token))) return invalid(c);
    // The form posts what a one-click mail program posts, to this same address (token included).
    return c.html(
      page(html`<p>${REPORT_MAIL_TEXT.confirmQuestion}</p>
<form method="post" action="?token=${token}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${REPORT_MAIL_TEXT.confirmButton}</button></form>`),
    );
  })
  .serve("POST /api/report-mail/unsubscribe", async (c) => {
    const limited = await overLimit(c);
    if (limited) return limited;
    if (!(await unsubscribeByToken(c.var.db, tokenOf(c)))) return invalid(c);
    return c.html(page(html`<p role="status">${REPORT_MAIL_TEXT.done}</p><p>${REPORT_MAIL_TEXT.doneHint}</p>`));
  });
