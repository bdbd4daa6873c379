// Alerts (decision 071): the signed-in account's rules, the Test replay, its history and the bell.
// Every signed-in route reads and writes the caller's own rows only; another account's rule or alert is 404.
// The extra addresses' confirmation and unsubscribe pages (decision 073) are public: the random
// token is the key. Their GET only shows a page with a button (mail scanners open links); the POST,
// from that button or a mail program's one-click (RFC 8058), confirms or unsubscribes.
import { ALERT_MAIL_TEXT } from "@shared/messages";
import type { AlertRuleView } from "@shared/schemas/alerts";
import { type Context } from "hono";
import { html } from "hono/html";
import type { AppEnv } from "../app-env";
import { accountDb } from "../context/account-db";
import { clientAddress, hit, type Limit } from "../db/rate-limit";
import { linkPage, type LinkPageBody } from "../lib/link-page";
import { currentUser } from "../middleware/auth";
import { createMail } from "../providers";
import { confirmByToken, confirmTokenKnown, unsubscribeById, unsubscribeIdKnown, type ConfirmDeps } from "../services/alerts/recipients";
import { testRule } from "../services/alerts/replay";
import {
  acknowledgeAlert,
  bell,
  checkForAccount,
  createRule,
  deleteRule,
  listHistory,
  listRules,
  readBell,
  resendConfirmation,
  updateRule,
  type AlertDbs,
} from "../services/alerts/rules";
import { DeclaredRoutes } from "./serve";

/** Confirmation and unsubscribe page requests per address, as the other public routes. */
export const RECIPIENT_PAGE_LIMIT: Limit = { name: "alert-recipient-page:ip", limit: 30, windowSeconds: 60 };

/** The directory (agents, numbers, plan, extra addresses) and the account's shard (rules, states, history, bell): decision 078. */
const dbs = (c: Context<AppEnv>): AlertDbs => ({ directory: c.var.db, shard: accountDb(c) });

/** The mail and the links' origin a save or a resend mails confirmations with. */
const confirmDeps = (c: Context<AppEnv>): ConfirmDeps => ({
  db: c.var.db,
  mail: createMail(c.var.config, c.var.db),
  publicUrl: c.var.config.PUBLIC_URL ?? new URL(c.req.url).origin,
});

const page = (body: LinkPageBody) => linkPage(ALERT_MAIL_TEXT.pageTitle, body);

const tokenOf = (c: Context<AppEnv>) => c.req.query("token") ?? "";

/** The page's answer to an address over its limit (an HTML page, as the link opens in a browser). */
async function overLimit(c: Context<AppEnv>) {
  if (await hit(c.var.db, RECIPIENT_PAGE_LIMIT, clientAddress(c))) return null;
  return c.html(page(html`<p role="alert">${ALERT_MAIL_TEXT.tooMany}</p>`), 429, { "retry-after": String(RECIPIENT_PAGE_LIMIT.windowSeconds) });
}

const invalid = (c: Context<AppEnv>) => c.html(page(html`<p role="alert">${ALERT_MAIL_TEXT.linkInvalid}</p>`), 404);

/** A page asking one question, whose button posts back to the same address (token included). */
const question = (c: Context<AppEnv>, text: string, button: string) =>
  c.html(
    page(html`<p>${text}</p>
<form method="post" action="?token=${tokenOf(c)}"><button type="submit">${button}</button></form>`),
  );

export const alertRoutes = new DeclaredRoutes()
  .serve("GET /api/alerts/rules", async (c) => c.json(await listRules(dbs(c), currentUser(c))))
  .serve("POST /api/alerts/rules", async (c) => {
    const rule: AlertRuleView = await createRule(dbs(c), currentUser(c), c.req.valid("json"), new Date(), confirmDeps(c));
    return c.json({ rule }, 201);
  })
  .serve("PUT /api/alerts/rules/:id", async (c) => {
    const rule = await updateRule(dbs(c), currentUser(c), c.req.valid("param").id, c.req.valid("json"), new Date(), confirmDeps(c));
    return c.json({ rule });
  })
  .serve("DELETE /api/alerts/rules/:id", async (c) => {
    await deleteRule(accountDb(c), currentUser(c), c.req.valid("param").id, new Date());
    return c.json({ deleted: true as const });
  })
  .serve("POST /api/alerts/test", async (c) => {
    const user = currentUser(c);
    const rule = c.req.valid("json");
    // The same account checks as a save: Test shows nothing a save would refuse.
    const { scopes } = await checkForAccount(c.var.db, user, rule);
    return c.json(await testRule(dbs(c), user, rule, new Date(), scopes));
  })
  .serve("GET /api/alerts/history", async (c) => c.json({ alerts: await listHistory(dbs(c), currentUser(c).id, c.req.valid("query").limit) }))
  .serve("POST /api/alerts/history/:id/acknowledge", async (c) => c.json({ alert: await acknowledgeAlert(dbs(c), currentUser(c), c.req.valid("param").id, new Date()) }))
  .serve("POST /api/alerts/recipients/resend", async (c) =>
    c.json({ recipient: await resendConfirmation(dbs(c), currentUser(c), c.req.valid("json").email, new Date(), confirmDeps(c)) }),
  )
  .serve("GET /api/alerts/recipients/confirm", async (c) => {
    const limited = await overLimit(c);
    if (limited) return limited;
    if (!(await confirmTokenKnown(c.var.db, tokenOf(c), new Date()))) return invalid(c);
    return question(c, ALERT_MAIL_TEXT.confirmQuestion, ALERT_MAIL_TEXT.confirmButton);
  })
  .serve("POST /api/alerts/recipients/confirm", async (c) => {
    const limited = await overLimit(c);
    if (limited) return limited;
    if (!(await confirmByToken(c.var.db, tokenOf(c), new Date()))) return invalid(c);
    return c.html(page(html`<p role="status">${ALERT_MAIL_TEXT.confirmed}</p>`));
  })
  .serve("GET /api/alerts/recipients/unsubscribe", async (c) => {
    const limited = await overLimit(c);
    if (limited) return limited;
    if (!(await unsubscribeIdKnown(c.var.db, tokenOf(c)))) return invalid(c);
    return question(c, ALERT_MAIL_TEXT.unsubscribeQuestion, ALERT_MAIL_TEXT.unsubscribeButton);
  })
  .serve("POST /api/alerts/recipients/unsubscribe", async (c) => {
    const limited = await overLimit(c);
    if (limited) return limited;
    if (!(await unsubscribeById(c.var.db, tokenOf(c), new Date()))) return invalid(c);
    return c.html(page(html`<p role="status">${ALERT_MAIL_TEXT.unsubscribed}</p>`));
  })
  .serve("GET /api/alerts/bell", async (c) => c.json(await bell(accountDb(c), currentUser(c).id)))
  .serve("POST /api/alerts/bell/read", async (c) => c.json({ unread: await readBell(accountDb(c), currentUser(c).id, c.req.valid("json").ids, new Date()) }));
