// Stripe API stand-in for the real billing adapter's tests: the /v1 paths the adapter calls, with
// Stripe's form-encoded requests, Bearer secret keys, idempotency keys and answer shapes (amounts in
// cents, Unix times, the period on the subscription item, expandable ids, an invoice's subscription
// under parent.subscription_details). Each secret key is its own account, so tests stay independent.
import type { StandinHandler, StandinRequest, StandinResponse } from "./server";

export const STRIPE_STANDIN = { keyPrefix: "sk_test_standin_" } as const;

type Obj = Record<string, any>;
type Account = {
  objects: Map<string, Obj>;
  idempotent: Map<string, StandinResponse>;
  requests: { method: string; path: string; idempotencyKey: string | null; form: Record<string, string> }[];
};

const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

function catalogue(): Obj[] {
  return [
    { id: "prod_basic", object: "product", name: "Basic", description: "Basic plan", active: true, metadata: { product_type: "basic" } },
    { id: "prod_pro", object: "product", name: "Pro", description: "Pro plan", active: true, metadata: { product_type: "pro" } },
    { id: "prod_old", object: "product", name: "Legacy", description: null, active: false, metadata: { product_type: "pro" } },
    { id: "prod_addon", object: "product", name: "Add-on", description: null, active: true, metadata: {} },
    { id: "price_basic_m", object: "price", product: "prod_basic", active: true, unit_amount: 2900, currency: "usd", recurring: { interval: "month" } },
    { id: "price_basic_y", object: "price", product: "prod_basic", active: true, unit_amount: 31320, currency: "usd", recurring: { interval: "year" } },
    { id: "price_basic_old", object: "price", product: "prod_basic", active: false, unit_amount: 1900, currency: "usd", recurring: { interval: "month" } },
    { id: "price_pro_m", object: "price", product: "prod_pro", active: true, unit_amount: 9900, currency: "usd", recurring: { interval: "month" } },
    { id: "price_addon", object: "price", product: "prod_addon", active: true, unit_amount: 500, currency: "usd", recurring: { interval: "month" } },
  ];
}

const list = (data: Obj[]) => ({ object: "list", data, has_more: false, url: "/v1/x" });
const error = (status: number, type: string, message: string, param?: string): StandinResponse => ({
  status,
  json: { error: { type, message, ...(param ? { param } : {}) } },
});

/** A subscription as Stripe answers it; `expand` decides whether the product is an id or an object. */
function subscriptionOut(sub: Obj, account: Account, expanded: boolean) {
  const price = account.objects.get(sub.price)!;
  const product = account.objects.get(price.product);
  return {
    id: sub.id,
    object: "subscription",
    customer: sub.customer,
    status: sub.status,
    cancel_at_period_end: sub.cancel_at_period_end,
    trial_end: sub.trial_end,
    items: {
      object: "list",
      data: [
        {
          id: `si_${sub.id}`,
          object: "subscription_item",
          current_period_start: sub.created,
          current_period_end: sub.current_period_end,
          price: { ...price, product: expanded ? product : price.product },
        },
      ],
    },
  };
}

export async function stripeStandin(): Promise<StandinHandler> {
  const accounts = new Map<string, Account>();
  const account = (key: string) => {
    let a = accounts.get(key);
    if (!a) {
      a = { objects: new Map(catalogue().map((o) => [o.id, o])), idempotent: new Map(), requests: [] };
      accounts.set(key, a);
    }
    return a;
  };
  let seq = 0;
  const newId = (prefix: string) => `${prefix}_standin${(++seq).toString().padStart(6, "0")}`;

  return async (req: StandinRequest) => {
    const auth = typeof req.headers.authorization === "string" ? req.headers.authorization : "";
    const key = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    if (req.path === "/test/requests") return { json: account(req.query.get("key") ?? "").requests };
    if (!key.startsWith(STRIPE_STANDIN.keyPrefix)) return error(401, "invalid_request_error", "Invalid API Key provided");
    const a = account(key);
    const form = Object.fromEntries(req.form());
    const idem = typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : null;
    a.requests.push({ method: req.method, path: req.path, idempotencyKey: idem, form });
    if (req.method === "POST" && idem && a.idempotent.has(idem)) return a.idempotent.get(idem)!;
    const remember = (res: StandinResponse) => {
      if (req.method === "POST" && idem) a.idempotent.set(idem, res);
      return res;
    };
    const expanded = [...req.query.getAll("expand[]"), ...Object.entries(form).filter(([k]) => k.startsWith("expand")).map(([, v]) => v)].some((e) =>
      e.endsWith("price.product"),
    );
    const parts = req.path.split("/").filter(Boolean); // v1, resource, id?
    const [, resource, id] = parts;
    const subPath = parts.slice(1).join("/");

    if (req.method === "GET" && resource === "products") return { json: list([...a.objects.values()].filter((o) => o.object === "product" && (req.query.get("active") !== "true" || o.active))) };
    if (req.method === "GET" && resource === "prices") return { json: list([...a.objects.values()].filter((o) => o.object === "price" && (req.query.get("active") !== "true" || o.active))) };

    if (subPath === "checkout/sessions" && req.method === "POST") {
      const price = a.objects.get(form["line_items[0][price]"]);
      if (!price || !price.active) return error(400, "invalid_request_error", `No such price: '${form["line_items[0][price]"]}'`, "line_items[0][price]");
      const sid = newId("cs_test");
      const session = {
        id: sid,
        object: "checkout.session",
        mode: form.mode,
        status: "open",
        payment_status: "unpaid",
        url: `https://checkout.stripe.com/c/pay/${sid}`,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        customer_email: form.customer_email ?? null,
        customer_details: null,
        customer: form.customer ?? null,
        client_reference_id: form.client_reference_id ?? null,
        metadata: Object.fromEntries(Object.entries(form).filter(([k]) => k.startsWith("metadata[")).map(([k, v]) => [k.slice(9, -1), v])),
        subscription: null,
        payment_intent: null,
        amount_total: price.unit_amount * Number(form["line_items[0][quantity]"] ?? 1),
        currency: price.currency,
        created: now(),
        _price: price.id,
      };
      a.objects.set(sid, session);
      return remember({ json: session });
    }
    if (parts[1] === "checkout" && parts[2] === "sessions" && parts[3] && req.method === "GET") {
      const s = a.objects.get(parts[3]);
      if (!s) return error(404, "invalid_request_error", `No such checkout.session: '${parts[3]}'`, "id");
      const { _price, ...out } = s;
      return { json: { ...out, line_items: list([{ object: "item", price: a.objects.get(_price) }]) } };
    }
    if (resource === "customers" && req.method === "POST" && !id) {
      const c = { id: newId("cus"), object: "customer", email: form.email ?? null, name: form.name ?? null, created: now() };
      a.objects.set(c.id, c);
      return remember({ json: c });
    }
    if (resource === "subscriptions" && req.method === "POST" && !id) {
      const price = a.objects.get(form["items[0][price]"]);
      if (!a.objects.get(form.customer)) return error(400, "invalid_request_error", `No such customer: '${form.customer}'`, "customer");
      if (!price) return error(400, "invalid_request_error", `No such price: '${form["items[0][price]"]}'`, "items[0][price]");
      const trialDays = Number(form.trial_period_days ?? 0);
      const created = now();
      const sub = {
        id: newId("sub"),
        object: "subscription",
        customer: form.customer,
        price: price.id,
        status: trialDays ? "trialing" : "active",
        cancel_at_period_end: false,
        trial_end: trialDays ? created + trialDays * DAY : null,
        created,
        current_period_end: trialDays ? created + trialDays * DAY : created + 30 * DAY,
        trial_missing_payment_method: form["trial_settings[end_behavior][missing_payment_method]"] ?? null,
      };
      a.objects.set(sub.id, sub);
      return remember({ json: subscriptionOut(sub, a, expanded) });
    }
    if (resource === "subscriptions" && id) {
      const sub = a.objects.get(id);
      if (!sub) return error(404, "invalid_request_error", `No such subscription: '${id}'`, "id");
      if (req.method === "POST" && form.cancel_at_period_end === "true") sub.cancel_at_period_end = true;
      // DELETE ends it now, as Stripe's subscriptions.cancel does.
      if (req.method === "DELETE") Object.assign(sub, { status: "canceled", cancel_at_period_end: false, canceled_at: now() });
      if (req.method === "DELETE") return remember({ json: subscriptionOut(sub, a, expanded) });
      return req.method === "POST" ? remember({ json: subscriptionOut(sub, a, expanded) }) : { json: subscriptionOut(sub, a, expanded) };
    }
    if (resource === "subscriptions" && req.method === "GET") {
      const customer = req.query.get("customer");
      return { json: list([...a.objects.values()].filter((o) => o.object === "subscription" && o.customer === customer).map((s) => subscriptionOut(s, a, expanded))) };
    }
    if (resource === "invoices" && id && req.method === "GET") {
      const inv = a.objects.get(id);
      if (!inv) return error(404, "invalid_request_error", `No such invoice: '${id}'`, "id");
      return { json: inv };
    }
    if (parts[1] === "billing_portal" && req.method === "POST") return remember({ json: { id: newId("bps"), object: "billing_portal.session", url: `https://billing.stripe.com/p/session/${form.customer}` } });
    // Test-only: put an object (a completed session, an invoice) into the account.
    if (req.method === "PUT" && resource === "test-objects") {
      const obj = req.json();
      a.objects.set(obj.id, { ...a.objects.get(obj.id), ...obj });
      return { json: a.objects.get(obj.id) };
    }
    return error(404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${req.path})`);
  };
}
