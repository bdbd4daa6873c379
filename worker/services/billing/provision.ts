// A buyer's account, customer record and subscription, written together once per event, with the
// activation mail that lets a new account set its first password.
import { sql } from "drizzle-orm";
import { accountActivations, profiles } from "../../db/schema";
import type { BillingEvent, CheckoutSession, Subscription } from "../../providers/billing/port";
import { MAIL_PER_EMAIL, mailCapStatement, withinLimit } from "../../db/rate-limit";
import { recordEvent, unlessRecorded, wasDuplicate } from "../webhook-events";
import type { BillingDeps } from "./deps";
import { customerUpsert, subscriptionUpsert } from "./subscription-rows";

type Buyer = { email: string; name?: string | null; company?: string | null; customerId: string | null; sub: Subscription | null; checkoutSessionId: string | null };

/** The company the buyer typed at checkout, carried in the session's metadata. */
export const companyOf = (session: CheckoutSession) => session.metadata?.company?.trim() || null;

/**
 * The account, customer and subscription of a buyer, with the event record in the same batch. The
 * account is created first (an identity provider call cannot join a D1 batch); creating it is
 * idempotent by email. The activation mail goes only when this call recorded the event (or there is
 * no event, a trial), so ten deliveries of one event send one mail.
 *
 * The activation row records the checkout session that created the account, and only when this
 * call created it: that session alone may later set the first password (setPasswordWithProof). An
 * account that existed already (a trial, a registration, an earlier purchase) never gets a session
 * recorded by a later one, so a stranger paying with its email proves nothing.
 */
export async function provisionBuyer(deps: BillingDeps, buyer: Buyer, event: BillingEvent | null, opts: { mail: boolean }) {
  const { db, identity } = deps;
  const { userId, created } = await identity.inviteAccount({ email: buyer.email, name: buyer.name ?? undefined, company: buyer.company ?? undefined });
  const pending = created || !(await identity.hasPassword(userId));
  const statements = [
    // The account's mirror row, which the customer and subscription rows point at. The local identity
    // service writes it with the account; a remote one (Supabase) has none until the first sign-in.
    // No flags: a buyer's account starts as a plain user.
    db
      .insert(profiles)
      .values({ id: userId, email: buyer.email.toLowerCase(), username: buyer.name ?? null, company: buyer.company ?? null, isAdmin: false })
      .onConflictDoNothing(),
    ...customerUpsert(db, { email: buyer.email, userId, company: buyer.company, customerId: buyer.customerId, sub: buyer.sub }),
    ...(buyer.sub ? [subscriptionUpsert(db, buyer.sub, userId)] : []),
    ...(pending
      ? [
          db
            .insert(accountActivations)
            .values({ userId, email: buyer.email.toLowerCase(), checkoutSessionId: created ? buyer.checkoutSessionId : null })
            .onConflictDoUpdate({
              target: accountActivations.userId,
              // Only the call that created the account passes a session, so a stored one is kept and
              // a missing one can only be filled by the creator (whose row a concurrent call beat).
              set: { checkoutSessionId: sql`coalesce(${accountActivations.checkoutSessionId}, excluded.checkout_session_id)`, updatedAt: new Date().toISOString() },
            }),
        ]
      : []),
  ];
  // The activation mail's count against the hourly cap rides in the same batch, counted only when the
  // mail will go: an account still pending and, with an event, one not recorded yet (the statement
  // sits before the event's record, so it sees the event as the batch found it).
  const mails = pending && opts.mail;
  const cap = mails ? [mailCapStatement(db, buyer.email, unlessRecorded(event?.id))] : [];
  const results = (await db.batch([
    ...statements,
    ...cap,
    ...(event ? [recordEvent(db, { id: event.id, provider: "stripe", eventType: event.type })] : []),
  ] as never)) as unknown[];
  const duplicate = event ? wasDuplicate(results.at(-1)) : false;
  if (!duplicate && mails) {
    const counted = results[statements.length] as { count: number }[];
    await identity.sendActivation({ userId, email: buyer.email, origin: deps.origin, capAllows: withinLimit(MAIL_PER_EMAIL, counted) });
  }
  return { userId, duplicate };
}
