// The demo's Pro accounts as the seed leaves them: Settings → Subscription lists their subscription
// from the billing provider (the local one keeps it in billing_local_objects), and Cancel works, as a
// Pro customer's would in production.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../lib/crypto";
import { findActivePrice, LOCAL_CATALOGUE } from "../providers/billing/catalogue";
import { insertRows } from "../test/factories";
import { call, db } from "../test/helpers";
import { authUsers, billingLocalObjects, customers, profiles, subscriptions } from "./schema";
import { DEMO_EMAILS, DEMO_PASSWORD, DEMO_PRICE, buildSeed } from "./seed-data";

describe("the seeded demo accounts' subscriptions", () => {
  it("the demo's plan is the local catalogue's annual Pro price", () => {
    const found = findActivePrice(LOCAL_CATALOGUE, DEMO_PRICE.id);
    expect(found?.product).toMatchObject({ id: DEMO_PRICE.productId, name: DEMO_PRICE.productName });
    expect(found?.price).toMatchObject({ unit_amount: DEMO_PRICE.unitAmount, interval: DEMO_PRICE.interval, currency: DEMO_PRICE.currency });
  });

  it("show at the billing provider with their status and period end, and cancel", async () => {
    const seed = buildSeed({ seed: 7, days: 1, calls: 0, now: new Date("2026-11-20T15:00:00Z") });
    const hashes = Object.fromEntries(await Promise.all(seed.profiles.map(async (p) => [p.email, await hashPassword(DEMO_PASSWORD)])));
    await insertRows(authUsers, seed.authUsers(hashes));
    await insertRows(profiles, seed.profiles);
    await insertRows(subscriptions, seed.subscriptions);
    await insertRows(customers, seed.customers);
    await insertRows(billingLocalObjects, seed.billingObjects);

    for (const email of Object.values(DEMO_EMAILS)) {
      const signIn = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password: DEMO_PASSWORD } });
      expect(signIn.status, email).toBe(200);
      const token = signIn.body.access_token as string;
      const row = seed.subscriptions.find((s) => s.userId === signIn.body.user.id)!;

      // What Settings → Subscription reads: the account's customer, then its subscriptions at the provider.
      const customer = await call(`/api/leads/customers/by-email?email=${encodeURIComponent(email)}`, { token });
      expect(customer.body.customer?.stripe_customer_id, email).toBe(row.customerId);
      const listed = await call(`/api/stripe/customer-subscriptions/${row.customerId}`, { token });
      expect(listed.status, email).toBe(200);
      expect(listed.body.subscriptions, email).toEqual([
        expect.objectContaining({
          id: row.id,
          status: "active",
          cancel_at_period_end: false,
          current_period_end: row.currentPeriodEnd,
          items: { data: [{ price: expect.objectContaining({ id: DEMO_PRICE.id, interval: "year", product: { name: "Pro" } }) }] },
        }),
      ]);

      const cancelled = await call("/api/stripe/cancel-subscription", { method: "POST", token, json: { subscriptionId: row.id } });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body.subscription).toMatchObject({ id: row.id, status: "active", cancel_at_period_end: true, current_period_end: row.currentPeriodEnd });
      const stored = await db().select().from(subscriptions).where(eq(subscriptions.id, row.id)).get();
      expect(stored?.cancelAtPeriodEnd).toBe(true);
    }
  });
});
