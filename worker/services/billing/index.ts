// Plans, checkout, trials, subscriptions and account activation (spec 2 §1-9, ADRs 020-022): what
// the routes call. Each module holds one part; subscription-rows.ts and provision.ts hold the writes
// the others share.
export { checkoutSessionView, createCheckout, listPlans } from "./checkout";
export type { BillingDeps } from "./deps";
export { handleBillingEvent } from "./events";
export { resendActivation, setPasswordWithProof } from "./activation";
export { startTrial } from "./trial";
export {
  cancelSubscription,
  createCustomerAtProvider,
  createSubscriptionAtProvider,
  customerSubscriptions,
  portalUrl,
} from "./subscriptions";
export { createLead, customerByEmail, upsertCustomerRecord } from "./leads";
