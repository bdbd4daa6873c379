// Plan policy: the plan named by the account's subscriptions and what it allows, in one reading.
import { describe, expect, it } from "vitest";
import { customers, profiles, subscriptions } from "../db/schema";
import { db } from "../test/helpers";
import { accountPlan, planKey } from "./plans";

const NOW = new Date("2026-03-20T16:00:00Z");

describe("accountPlan", () => {
  it("reads plan names", () => {
    expect(planKey("Pro")).toBe("pro");
    expect(planKey("Basic Plan (annual)")).toBe("basic");
    expect(planKey("Enterprise")).toBeNull();
    expect(planKey(null)).toBeNull();
  });

  it("comes from an active or running trial subscription, never from the customer record", async () => {
    const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const id of [a, b, c]) await db().insert(profiles).values({ id, email: `${id}@example.com` });
    await db().insert(subscriptions).values([
      { id: `sub_${a}_old`, userId: a, customerId: "cus_a", priceId: "p", productName: "Basic", status: "canceled", updatedAt: "2026-01-01T00:00:00.000Z" },
      { id: `sub_${a}`, userId: a, customerId: "cus_a", priceId: "p", productName: "Pro", status: "trialing", trialEnd: "2026-03-25T00:00:00.000Z" },
    ]);
    await db().insert(customers).values({ userId: b, email: `${b}@example.com`, currentPlan: "basic", subscriptionStatus: "active" });
    expect(await accountPlan(db(), a, NOW)).toMatchObject({ plan: "pro", state: "subscribed", agentLimit: 25, minuteLimit: 5000, subscriptionId: `sub_${a}` });
    expect(await accountPlan(db(), b, NOW)).toMatchObject({ plan: null, state: "none", agentLimit: 5, minuteLimit: null });
    expect(await accountPlan(db(), c, NOW)).toMatchObject({ plan: null, state: "none", agentLimit: 5, minuteLimit: null });
  });

  it("says why an account has no plan, from its newest subscription", async () => {
    const cases = [
      { status: "trialing", trialEnd: "2026-03-19T00:00:00.000Z", state: "trial_ended" },
      { status: "past_due", state: "past_due" },
      { status: "canceled", state: "ended" },
      { status: "unpaid", state: "ended" },
      { status: "incomplete", state: "none" },
    ];
    for (const { status, trialEnd, state } of cases) {
      const id = crypto.randomUUID();
      await db().insert(profiles).values({ id, email: `${id}@example.com` });
      await db().insert(subscriptions).values({ id: `sub_${id}`, userId: id, customerId: "c", priceId: "p", productName: "Pro", status, trialEnd });
      expect(await accountPlan(db(), id, NOW), status).toMatchObject({ plan: null, state, status, agentLimit: 5, minuteLimit: null });
    }
  });
});
