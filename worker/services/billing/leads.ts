// Leads and customer records (docs/product/api.md#leads-and-customers "Leads and customers"): a lead from the web form, and the customer record of an
// email, which its owner or an admin reads and changes.
import { sql } from "drizzle-orm";
import type { CustomerView, LeadBody } from "@shared/schemas/billing";
import type { Database } from "../../db/client";
import { customers, planLeads } from "../../db/schema";
import { forbidden } from "../../lib/errors";
import type { CurrentUser } from "../profiles";
import { customerUpsert } from "./subscription-rows";

/**
 * A visitor's plan lead, kept in plan_leads: the stores' lead counts, roll-ups and reports read only
 * the stores' leads, so this public form moves no store figure.
 */
export async function createLead(db: Database, body: LeadBody) {
  const [row] = await db
    .insert(planLeads)
    .values({
      email: body.email.toLowerCase(),
      phone: body.phone,
      firstName: body.first_name,
      lastName: body.last_name,
      company: body.company || null,
      leadSource: body.lead_source,
      leadStatus: "new",
      interestLevel: body.interest_level,
      metadata: body.metadata,
      submittedAt: new Date().toISOString(),
    })
    .returning({ id: planLeads.id });
  return { success: true as const, lead: { id: row.id } };
}

const customerViewOf = (c: typeof customers.$inferSelect): CustomerView => ({
  email: c.email,
  company: c.company,
  current_plan: c.currentPlan,
  stripe_customer_id: c.stripeCustomerId,
  subscription_id: c.subscriptionId,
  subscription_status: c.subscriptionStatus,
});

export async function customerByEmail(db: Database, user: CurrentUser, email: string) {
  if (!user.isAdmin && email.toLowerCase() !== user.email.toLowerCase()) throw forbidden("You can only read your own customer record");
  const row = await db.select().from(customers).where(sql`lower(${customers.email}) = ${email.toLowerCase()}`).get();
  return { success: true as const, customer: row ? customerViewOf(row) : null };
}

/**
 * POST /api/leads/customers. Billing fields are written by the billing events; only an admin may set
 * them by hand. An account holder may keep the company of its own record.
 */
export async function upsertCustomerRecord(
  db: Database,
  user: CurrentUser,
  body: { email: string; company?: string; current_plan?: string; stripe_customer_id?: string; subscription_id?: string; subscription_status?: string },
) {
  const own = body.email.toLowerCase() === user.email.toLowerCase();
  if (!user.isAdmin && !own) throw forbidden("You can only change your own customer record");
  // The record is read back in the batch that writes it.
  const results = await db.batch([
    ...customerUpsert(db, {
      email: body.email,
      userId: own ? user.id : null,
      company: body.company ?? null,
      customerId: user.isAdmin ? (body.stripe_customer_id ?? null) : null,
      sub: null,
      plan: user.isAdmin ? body.current_plan : null,
      status: user.isAdmin ? body.subscription_status : null,
      subscriptionId: user.isAdmin ? body.subscription_id : null,
    }),
    db.select().from(customers).where(sql`lower(${customers.email}) = ${body.email.toLowerCase()}`).limit(1),
  ]);
  const [row] = results[results.length - 1] as (typeof customers.$inferSelect)[];
  return { success: true as const, customer: customerViewOf(row) };
}
