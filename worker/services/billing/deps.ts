// What every billing operation is given, and the provider's time format as the API answers it.
import type { Database } from "../../db/client";
import type { BillingPort } from "../../providers/billing/port";
import type { IdentityPort } from "../../providers/identity/port";

export type BillingDeps = { db: Database; billing: BillingPort; identity: IdentityPort; origin: string };

/** A provider timestamp (Unix seconds) as an ISO string; null when the provider has none. */
export const iso = (unixSeconds: number | null | undefined) => (unixSeconds ? new Date(unixSeconds * 1000).toISOString() : null);
