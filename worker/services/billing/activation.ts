// An account's first password (docs/product/api.md#profile-and-public-account-calls "Public account calls", ADR 021): set once with the paid
// checkout session that created the account, or from the emailed activation link, which can be sent
// again.
import { and, eq, isNull, sql } from "drizzle-orm";
import { BILLING_TEXT } from "@shared/messages";
import { accountActivations } from "../../db/schema";
import { ApiError, conflict } from "../../lib/errors";
import { inOrder } from "../in-order";
import { isPaid, sessionEmailOf } from "./checkout";
import type { BillingDeps } from "./deps";
import { companyOf, provisionBuyer } from "./provision";

const proofRequired = () => new ApiError(400, BILLING_TEXT.proofRequired, "proof_required", "sessionId");
const alreadySet = () => conflict(BILLING_TEXT.passwordAlreadySet, "email");
const notCreator = () => new ApiError(403, BILLING_TEXT.sessionNotCreator, "proof_required", "sessionId");

/**
 * update-user-password with proof (docs/product/design.md#safer-than-the-brief): the paid checkout session that created this email's
 * account, looked up at the provider, while the account's first password is not set yet; the
 * password is set once. Any other account (a trial's, a registration's, one a different session
 * made) sets its first password only from the emailed activation link.
 */
export async function setPasswordWithProof(
  deps: BillingDeps,
  input: { email: string; password: string; sessionId?: string },
  allowed: Promise<unknown> = Promise.resolve(),
) {
  if (!input.sessionId) {
    await allowed;
    throw proofRequired();
  }
  const email = input.email.toLowerCase();
  const activation = () => deps.db.select().from(accountActivations).where(sql`lower(${accountActivations.email}) = ${email}`).get();
  // The email's activation row is read together with the session and the caller's checks
  // (`allowed`, e.g. its rate limits), whose refusal answers first; the row (or its failure) is used
  // only once the session proves the email.
  const firstRow = activation();
  firstRow.catch(() => undefined);
  const session = await inOrder(allowed, deps.billing.getCheckoutSession(input.sessionId));
  if (!session) throw new ApiError(403, BILLING_TEXT.proofRequired, "proof_required", "sessionId");
  if (!isPaid(session)) throw new ApiError(403, BILLING_TEXT.sessionNotPaid, "proof_required", "sessionId");
  const sessionEmail = sessionEmailOf(session);
  if (sessionEmail !== email) throw new ApiError(403, BILLING_TEXT.sessionEmailMismatch, "proof_required", "email");

  let row = await firstRow;
  if (!row) {
    // The provider's event may not have arrived yet: provision from the session itself (no mail; the
    // buyer is setting the password right now).
    const sub = session.subscription ? await deps.billing.getSubscription(session.subscription) : null;
    await provisionBuyer(
      deps,
      { email, name: session.customer_details?.name, company: companyOf(session), customerId: session.customer, sub, checkoutSessionId: session.id },
      null,
      { mail: false },
    );
    row = await activation();
  }
  if (!row || row.passwordSetAt || (await deps.identity.hasPassword(row.userId))) throw alreadySet();
  if (row.checkoutSessionId !== session.id) throw notCreator();
  const now = new Date().toISOString();
  const claimed = await deps.db
    .update(accountActivations)
    .set({ passwordSetAt: now, updatedAt: now })
    .where(and(eq(accountActivations.userId, row.userId), eq(accountActivations.checkoutSessionId, session.id), isNull(accountActivations.passwordSetAt)))
    .returning({ userId: accountActivations.userId });
  if (!claimed.length) throw alreadySet();
  try {
    await deps.identity.setFirstPassword(row.userId, input.password);
  } catch (e) {
    await deps.db.update(accountActivations).set({ passwordSetAt: null }).where(eq(accountActivations.userId, row.userId));
    throw e;
  }
  return { success: true as const };
}

/**
 * Sends a new activation link to an account still waiting for its first password; silent otherwise.
 * The row is read together with the caller's checks (`allowed`), whose refusal answers first.
 */
export async function resendActivation(deps: BillingDeps, email: string, allowed: Promise<unknown> = Promise.resolve()) {
  const row = await inOrder(
    allowed,
    deps.db
      .select()
      .from(accountActivations)
      .where(and(sql`lower(${accountActivations.email}) = ${email.toLowerCase()}`, isNull(accountActivations.passwordSetAt)))
      .get(),
  );
  if (row && !(await deps.identity.hasPassword(row.userId))) {
    await deps.identity.sendActivation({ userId: row.userId, email: row.email, origin: deps.origin });
  }
  return { success: true as const };
}
