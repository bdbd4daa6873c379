import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { subscriptions } from "../../db/schema";
import { D1Timer } from "../../db/timed-d1";
import { LocalBilling } from "../../providers/billing/local";
import type { BillingPort, Subscription } from "../../providers/billing/port";
import type { IdentityPort } from "../../providers/identity/port";
import { handleBillingEvent } from "./events";

/** A subscription as the provider holds it (made in the local billing adapter's store). */
async function providerSubscription(): Promise<Subscription> {
  const local = new LocalBilling(createDb(env.DB), { origin: "http://localhost", webhookSecret: "whsec_test" });
  const key = crypto.randomUUID();
  const customer = await local.createCustomer({ email: `events-${key}@example.com`, idempotencyKey: `c:${key}` });
  return local.createSubscription({ customerId: customer.id, priceId: "price_local_basic_month", idempotencyKey: `s:${key}` });
}

/** A provider that answers only the subscription reads, as the test says; no D1 of its own. */
const billingAnswering = (getSubscription: BillingPort["getSubscription"]) =>
  ({ kind: "stripe", getSubscription, getCheckoutSession: async () => null }) as unknown as BillingPort;

describe("a billing event", () => {
  it("fetches its object while its record is looked up, then writes in one batch", async () => {
    const sub = await providerSubscription();
    const timer = new D1Timer();
    const db = createDb(timer.wrap(env.DB));
    const event = { id: `evt_${crypto.randomUUID()}`, type: "customer.subscription.updated", created: 0, objectId: sub.id, object: {} };
    // The provider's read is an HTTP call in production: what counts is that it is under way before
    // the record's look-up has taken its round trip.
    let tripsWhenFetched = -1;
    const fetchSub = async () => {
      tripsWhenFetched = timer.trips;
      return sub;
    };
    const deps = { db, billing: billingAnswering(fetchSub), identity: {} as IdentityPort, origin: "http://localhost" };

    expect(await handleBillingEvent(deps, event)).toEqual({ duplicate: false, handled: true });
    expect(tripsWhenFetched).toBe(0);
    expect(timer.trips).toBe(2);
    expect((await createDb(env.DB).select().from(subscriptions).where(eq(subscriptions.id, sub.id)).get())?.status).toBe(sub.status);

    // Delivered again while the provider cannot answer: the object is not needed, the answer is the duplicate's.
    const failing = { ...deps, billing: billingAnswering(async () => Promise.reject(new Error("provider down"))) };
    expect(await handleBillingEvent(failing, event)).toEqual({ duplicate: true, handled: false });
  });
});
