// Plan policy: the plan named by a subscription or customer record, and the agents it allows.
import { describe, expect, it } from "vitest";
import { customers, profiles, subscriptions } from "../db/schema";
import { db } from "../test/helpers";
import { agentLimitFor, planKey } from "./plans";

describe("agent limit from the plan", () => {
  it("reads plan names", () => {
    expect(planKey("Pro")).toBe("pro");
    expect(planKey("Basic Plan (annual)")).toBe("basic");
    expect(planKey("Enterprise")).toBeNull();
    expect(planKey(null)).toBeNull();
  });

  it("comes from an active subscription, else the customer's plan, else none", async () => {
    const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    for (const id of [a, b, c]) await db().insert(profiles).values({ id, email: `${id}@example.com` });
    await db().insert(subscriptions).values([
      { id: `sub_${a}_old`, userId: a, customerId: "cus_a", priceId: "p", productName: "Basic", status: "canceled" },
      { id: `sub_${a}`, userId: a, customerId: "cus_a", priceId: "p", productName: "Pro", status: "trialing" },
    ]);
    await db().insert(customers).values({ userId: b, email: `${b}@example.com`, currentPlan: "basic", subscriptionStatus: "active" });
    expect(await agentLimitFor(db(), a)).toBe(25);
    expect(await agentLimitFor(db(), b)).toBe(5);
    expect(await agentLimitFor(db(), c)).toBeNull();
  });
});
