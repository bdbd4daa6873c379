// The free trial (docs/product/api.md#api): a new account with a trialing subscription and its activation mail;
// asking again for a pending account brings the same trial back.
import { sql } from "drizzle-orm";
import { TRIAL_DAYS } from "@shared/constants";
import { BILLING_TEXT } from "@shared/messages";
import { accountActivations } from "../../db/schema";
import { conflict } from "../../lib/errors";
import { inOrder } from "../in-order";
import { activePrice } from "./checkout";
import type { BillingDeps } from "./deps";
import { provisionBuyer } from "./provision";
import { LIVE_STATUSES } from "./subscription-rows";
import { subscriptionView } from "./subscriptions";

/**
 * Starts a trial. `allowed` (the caller's checks, e.g. its rate limits) runs together with the
 * price check and the reads of the email's activation and account (one round trip), and answers
 * first, as if it had run before them; the price check's refusal answers next.
 */
export async function startTrial(
  deps: BillingDeps,
  input: { email: string; priceId: string; first_name: string; last_name: string; company?: string },
  allowed: Promise<unknown> = Promise.resolve(),
) {
  const email = input.email.toLowerCase();
  const activation = deps.db
    .select({
      userId: accountActivations.userId,
      set: accountActivations.passwordSetAt,
      session: accountActivations.checkoutSessionId,
      // The account's live subscription, for a repeat (below).
      liveId: sql<string | null>`(select s.id from subscriptions s where s.user_id = ${accountActivations}.user_id and s.status in ${LIVE_STATUSES} limit 1)`,
    })
    .from(accountActivations)
    .where(sql`lower(${accountActivations.email}) = ${email}`)
    .get();
  // Read with the activation; its answer (or failure) counts only when there is no activation.
  const accountExists = deps.identity.userExists(email);
  accountExists.catch(() => undefined);
  const existing = await inOrder(allowed, inOrder(activePrice(deps.billing, input.priceId), activation));
  // A trial is for a new account; a trial's buyer still activating may ask again (the same trial
  // comes back). An account a paid checkout made is not a trial's to repeat.
  if (!existing && (await accountExists)) throw conflict(BILLING_TEXT.accountExists, "email");
  if (existing?.set || existing?.session) throw conflict(BILLING_TEXT.accountExists, "email");
  // A repeat for a pending trial brings back the trial it already has, whatever plan it names, so
  // the account never holds two live subscriptions.
  const current = existing?.liveId ? await deps.billing.getSubscription(existing.liveId) : null;
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
