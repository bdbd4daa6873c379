// Plans, checkout, trials, subscriptions and account activation (docs/product/README.md#who-uses-it, docs/product/screens-and-routes.md#route-table, docs/product/README.md#records, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages, docs/product/screens-and-routes.md#roles-and-flags, docs/product/api.md#api, docs/product/errors-and-texts.md#errors-and-texts, docs/product/constants.md#business-constants, ADRs 020-022): what
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
