// The free trial (spec 2 §7): a new account with a trialing subscription and its activation mail;
// asking again for a pending account brings the same trial back.
import { and, eq, inArray, sql } from "drizzle-orm";
import { TRIAL_DAYS } from "@shared/constants";
import { BILLING_TEXT } from "@shared/messages";
import { accountActivations, subscriptions } from "../../db/schema";
import { conflict } from "../../lib/errors";
import { activePrice } from "./checkout";
import type { BillingDeps } from "./deps";
import { provisionBuyer } from "./provision";
import { LIVE_STATUSES } from "./subscription-rows";
import { subscriptionView } from "./subscriptions";

export async function startTrial(deps: BillingDeps, input: { email: string; priceId: string; first_name: string; last_name: string; company?: string }) {
  const email = input.email.toLowerCase();
  await activePrice(deps.billing, input.priceId);
  const existing = await deps.db
    .select({ userId: accountActivations.userId, set: accountActivations.passwordSetAt, session: accountActivations.checkoutSessionId })
    .from(accountActivations)
    .where(sql`lower(${accountActivations.email}) = ${email}`)
    .get();
  // A trial is for a new account; a trial's buyer still activating may ask again (the same trial
  // comes back). An account a paid checkout made is not a trial's to repeat.
  if (!existing && (await deps.identity.userExists(email))) throw conflict(BILLING_TEXT.accountExists, "email");
  if (existing?.set || existing?.session) throw conflict(BILLING_TEXT.accountExists, "email");
  // A repeat for a pending trial brings back the trial it already has, whatever plan it names, so
  // the account never holds two live subscriptions.
  const live = existing
    ? await deps.db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, existing.userId), inArray(subscriptions.status, LIVE_STATUSES)))
        .get()
    : undefined;
  const current = live ? await deps.billing.getSubscription(live.id) : null;
  if (current) return { success: true as const, subscription: subscriptionView(current) };
  const name = `${input.first_name} ${input.last_name}`.trim();
  // Keys by email and price: asking twice gives the same customer and the same trial, never two.
  const customer = await deps.billing.createCustomer({ email, name, idempotencyKey: `trial-customer:${email}` });
  const sub = await deps.billing.createSubscription({
    customerId: customer.id,
    priceId: input.priceId,
    trialDays: TRIAL_DAYS,
    idempotencyKey: `trial-subscription:${email}:${input.priceId}`,
  });
  // A repeat (anyone may send one for a pending email) brings the same trial back and changes nothing
  // the first request stored: no name or company of its own, no second mail.
  await provisionBuyer(
    deps,
    { email, name: existing ? null : name, company: existing ? null : input.company, customerId: customer.id, sub, checkoutSessionId: null },
    null,
    { mail: !existing },
  );
  return { success: true as const, subscription: subscriptionView(sub) };
}
