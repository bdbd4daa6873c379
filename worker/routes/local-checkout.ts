// The local checkout page (ADR 020): what Stripe Checkout is to the real adapter. A plain HTML form
// (no script, so the app's strict CSP holds) shows the order and takes a test card; paying sends the
// signed events through the webhook route, then returns to the session's success URL.
import { html } from "hono/html";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { ApiError, notFound } from "../lib/errors";
import { clientAddress, enforce, type Limit } from "../db/rate-limit";
import { findActivePrice, LOCAL_CATALOGUE, LOCAL_CHECKOUT_PATH, type LocalBilling } from "../providers";
import { DeclaredRoutes } from "./serve";

const LOCAL_PAY_LIMIT: Limit = { name: "local-checkout:ip", limit: 30, windowSeconds: 60 };

const localOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.providers.billing.kind !== "local") throw notFound("Checkout session not found");
  await next();
});

const localBilling = (c: { var: AppEnv["Variables"] }) => c.var.providers.billing as LocalBilling;

const money = (cents: number | null, currency: string | null) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: (currency ?? "usd").toUpperCase() }).format((cents ?? 0) / 100);

function page(session: NonNullable<Awaited<ReturnType<LocalBilling["localSession"]>>>, error: string | null) {
  const found = session.price_id ? findActivePrice(LOCAL_CATALOGUE, session.price_id) : null;
  const plan = found ? `${found.product.name} (${found.price.interval === "year" ? "annual" : "monthly"})` : "Subscription";
  const action = `${LOCAL_CHECKOUT_PATH}/${session.id}`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout – local test payments</title>
<style>
  body{font-family:system-ui,sans-serif;background:#f5f5fb;color:#1c1b29;margin:0;padding:24px}
  main{max-width:440px;margin:0 auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 4px #0002}
  h1{font-size:1.3rem;margin:0 0 4px} .muted{color:#5c5b6e;font-size:.9rem}
  .order{border:1px solid #e3e2ee;border-radius:8px;padding:12px;margin:16px 0;display:flex;justify-content:space-between;gap:8px}
  label{display:block;font-size:.9rem;margin:12px 0 4px} input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #c9c8d8;border-radius:6px;font-size:1rem}
  .row{display:flex;gap:12px} .row>div{flex:1}
  button{margin-top:18px;width:100%;padding:12px;border:0;border-radius:6px;background:#5b4bdb;color:#fff;font-size:1rem;cursor:pointer}
  button.link{background:none;color:#5b4bdb;margin-top:8px}
  .error{background:#fdecec;color:#9b1c1c;border-radius:6px;padding:10px;margin-top:12px}
  .test{font-size:.8rem;color:#5c5b6e;margin-top:16px}
</style></head>
<body><main>
  <h1>Checkout</h1>
  <p class="muted">Local test payments: no card is charged.</p>
  <div class="order"><div><strong>${plan}</strong><div class="muted">${session.customer_email ?? ""}</div></div>
    <strong data-testid="order-amount">${money(session.amount_total, session.currency)}</strong></div>
  ${session.status !== "open" ? html`<p class="error" role="alert">This checkout session is ${session.status}.</p>` : ""}
  ${error ? html`<p class="error" role="alert">${error}</p>` : ""}
  <form method="post" action="${action}/pay">
    <label for="card">Card number</label>
    <input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
    <div class="row"><div><label for="expiry">Expiry</label><input id="expiry" name="expiry" placeholder="MM/YY" autocomplete="cc-exp"></div>
      <div><label for="cvc">CVC</label><input id="cvc" name="cvc" placeholder="123" autocomplete="cc-csc"></div></div>
    <label for="name">Name on card</label>
    <input id="name" name="name" autocomplete="cc-name">
    <button type="submit">Pay ${money(session.amount_total, session.currency)}</button>
  </form>
  <form method="post" action="${action}/cancel"><button type="submit" class="link">Cancel and return</button></form>
  <p class="test">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</p>
</main></body></html>`;
}

export const localCheckoutRoutes = new DeclaredRoutes()
  .serve("GET /_local/checkout/c/pay/:id", { after: [localOnly] }, async (c) => {
    const session = await localBilling(c).localSession(c.req.valid("param").id);
    if (!session) throw notFound("Checkout session not found");
    return c.html(page(session, null));
  })
  .serve("POST /_local/checkout/c/pay/:id/pay", { after: [localOnly] }, async (c) => {
    await enforce(c, [[LOCAL_PAY_LIMIT, clientAddress(c)]]);
    const billing = localBilling(c);
    const id = c.req.valid("param").id;
    const form = c.req.valid("form");
    try {
      const session = await billing.completeCheckout(id, { card: form.card, name: form.name || null });
      return c.redirect(session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id), 303);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== "card_declined") throw e;
      const session = await billing.localSession(id);
      return c.html(page(session!, e.message), 402);
    }
  })
  .serve("POST /_local/checkout/c/pay/:id/cancel", { after: [localOnly] }, async (c) => {
    const session = await localBilling(c).expireCheckout(c.req.valid("param").id);
    if (!session) throw notFound("Checkout session not found");
    return c.redirect(session.cancel_url, 303);
  });
