// Plans, checkout, payments, leads and customers (docs/product/README.md#records, docs/product/errors-and-texts.md#validation-messages, docs/product/api.md#api): request bodies, the forms'
// rules and the answers, shared by the worker's validators and the SPA.
import { z } from "zod";
import { LEAD_INTEREST_LEVEL } from "../constants";
import { ACTIVATION_TEXT, CHECKOUT_TEXT, PAYMENT_TEXT } from "../messages";
import { emailSchema } from "./auth";
import { FIRST_DAY, LAST_DAY } from "./counts";
import { newPasswordProblem } from "./password";

const priceId = z.string().trim().min(1, "priceId is required").max(100).regex(/^[\w-]+$/, "priceId is not a price id");
const stripeId = (name: string) => z.string().trim().min(1, `${name} is required`).max(100).regex(/^[\w-]+$/, `${name} is not an id`);
const url = z.string().trim().max(2000).pipe(z.url("must be a URL"));

export const createCheckoutSessionBody = z.object({
  priceId,
  quantity: z.coerce.number().int("quantity must be a whole number").min(1, CHECKOUT_TEXT.quantityMin).max(100).default(1),
  successUrl: url,
  cancelUrl: url,
  customerEmail: emailSchema.optional(),
  /** The company typed at checkout; it reaches the customer record and a new account's profile. */
  company: z.string().trim().max(200).optional(),
});
export type CreateCheckoutSessionBody = z.infer<typeof createCheckoutSessionBody>;

export const startTrialBody = z.object({
  priceId,
  email: emailSchema,
  first_name: z.string().trim().min(1, CHECKOUT_TEXT.firstNameRequired).max(100),
  last_name: z.string().trim().min(1, CHECKOUT_TEXT.lastNameRequired).max(100),
  company: z.string().trim().max(200).optional(),
});

export const createCustomerBody = z.object({ email: emailSchema, name: z.string().trim().max(200).optional() });
export const createSubscriptionBody = z.object({ priceId, customerId: stripeId("customerId") });
export const cancelSubscriptionBody = z.object({ subscriptionId: stripeId("subscriptionId") });
export const sessionIdParam = z.object({ sessionId: stripeId("sessionId") });
export const customerIdParam = z.object({ id: stripeId("id") });

/** The lead form of /checkout (docs/product/errors-and-texts.md#validation-messages): names required, email pattern, phone of exactly 10 digits. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const leadFormSchema = z.object({
  first_name: z.string().trim().min(1, CHECKOUT_TEXT.firstNameRequired).max(100),
  last_name: z.string().trim().min(1, CHECKOUT_TEXT.lastNameRequired).max(100),
  email: z.string().trim().max(254).regex(EMAIL_PATTERN, CHECKOUT_TEXT.invalidEmail(CHECKOUT_TEXT.emailExample)),
  phone: z.string().regex(/^\d{10}$/, CHECKOUT_TEXT.phoneDigits),
  company: z.string().trim().max(200).optional().default(""),
  quantity: z.coerce.number().int().min(1, CHECKOUT_TEXT.quantityMin).max(100),
});
export type LeadForm = z.infer<typeof leadFormSchema>;

/** POST /api/leads/leads: the lead payload of docs/product/README.md#records. */
export const leadBody = z.object({
  email: z.string().trim().max(254).regex(EMAIL_PATTERN, CHECKOUT_TEXT.invalidEmail(CHECKOUT_TEXT.emailExample)),
  phone: z.string().regex(/^\d{10}$/, CHECKOUT_TEXT.phoneDigits),
  first_name: z.string().trim().min(1, CHECKOUT_TEXT.firstNameRequired).max(100),
  last_name: z.string().trim().min(1, CHECKOUT_TEXT.lastNameRequired).max(100),
  company: z.string().trim().max(200).optional().default(""),
  lead_source: z.enum(["trial", "website"]),
  lead_status: z.literal("new").default("new"),
  interest_level: z.literal(LEAD_INTEREST_LEVEL).default(LEAD_INTEREST_LEVEL),
  metadata: z
    .object({
      product_type: z.enum(["basic", "pro"]),
      product_name: z.string().trim().max(200),
      price_id: priceId,
      is_trial: z.boolean(),
      submitted_at: z.iso
        .datetime({ offset: true })
        .refine((v) => v.slice(0, 10) >= FIRST_DAY && v.slice(0, 10) <= LAST_DAY, `must be between ${FIRST_DAY} and ${LAST_DAY}`),
    })
    .strict(),
});
export type LeadBody = z.infer<typeof leadBody>;

export const customerByEmailQuery = z.object({ email: emailSchema });
export const upsertCustomerBody = z.object({
  email: emailSchema,
  company: z.string().trim().max(200).optional(),
  current_plan: z.string().trim().max(100).optional(),
  stripe_customer_id: z.string().trim().max(100).optional(),
  subscription_id: z.string().trim().max(100).optional(),
  subscription_status: z.string().trim().max(40).optional(),
});

/** Password creation after payment (docs/product/errors-and-texts.md#validation-messages), checked in this order. */
export function paymentPasswordError(password: string, confirm: string): string | null {
  if (!password || !confirm) return PAYMENT_TEXT.bothRequired;
  if (password !== confirm) return PAYMENT_TEXT.mismatch;
  // The one password policy; its texts are spec 2's (PAYMENT_TEXT.minLength, PAYMENT_TEXT.strength).
  return newPasswordProblem(password)?.message ?? null;
}

/**
 * Activation password (docs/product/errors-and-texts.md#validation-messages): present, at least 8 characters and equal to the confirmation (the
 * spec's one message), and the one password policy's character rule (newPasswordProblem), which the
 * server enforces on every password it sets.
 */
export function activationPasswordError(password: string, confirm: string): string | null {
  if (!password || password.length < 8 || password !== confirm) return ACTIVATION_TEXT.invalidPassword;
  return newPasswordProblem(password)?.message ?? null;
}

/** POST /api/admin/public/update-user-password: the email, the password and the proof (docs/product/design.md#safer-than-the-brief). */
export const updateUserPasswordBody = z.object({
  email: emailSchema,
  // The one password policy (newPasswordProblem), refused with the text of the rule broken.
  password: z
    .string()
    .max(128, "Password is too long")
    .superRefine((password, ctx) => {
      const problem = newPasswordProblem(password);
      if (problem) ctx.addIssue({ code: "custom", message: problem.message });
    }),
  sessionId: stripeId("sessionId").optional(),
});
export const resendActivationBody = z.object({ email: emailSchema });


/** Wire shapes. */
const interval = z.enum(["month", "year"]);
export const productView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  active: z.boolean(),
  metadata: z.object({ product_type: z.enum(["basic", "pro"]) }),
  prices: z.array(z.object({ id: z.string(), interval, active: z.boolean(), unit_amount: z.number(), currency: z.string() })),
});
export type ProductView = z.infer<typeof productView>;
export const checkoutSessionView = z.object({
  id: z.string(),
  status: z.string(),
  amount_total: z.number().nullable(),
  currency: z.string().nullable(),
  customer_email: z.string().nullable(),
  payment_status: z.string(),
  payment_intent: z.string().nullable(),
  customer_details: z.object({ name: z.string().nullable() }).nullable(),
  plan_name: z.string().nullable(),
  interval: interval.nullable(),
  /**
   * Whether this session may set its account's first password: it is paid, and it created the
   * account (or will, when its event has not arrived) whose password is not set. Otherwise the
   * success page asks for no password (an upgrade, or another's account).
   */
  needs_password: z.boolean(),
});
export type CheckoutSessionView = z.infer<typeof checkoutSessionView>;
export const subscriptionView = z.object({
  id: z.string(),
  status: z.string(),
  cancel_at_period_end: z.boolean(),
  current_period_end: z.string().nullable(),
  trial_end: z.string().nullable(),
  items: z.object({
    data: z.array(
      z.object({
        price: z.object({ id: z.string(), unit_amount: z.number(), currency: z.string(), interval: interval.nullable(), product: z.object({ name: z.string() }) }),
      }),
    ),
  }),
});
export type SubscriptionView = z.infer<typeof subscriptionView>;
export const customerView = z.object({
  email: z.string(),
  company: z.string().nullable(),
  current_plan: z.string().nullable(),
  stripe_customer_id: z.string().nullable(),
  subscription_id: z.string().nullable(),
  subscription_status: z.string().nullable(),
});
export type CustomerView = z.infer<typeof customerView>;
export const billingConfigView = z.object({ mode: z.enum(["local", "stripe"]), publishableKey: z.string().nullable(), portal: z.boolean() });
export type BillingConfigView = z.infer<typeof billingConfigView>;

/** Answers of the billing and lead endpoints, by path. */
export const productsResponse = z.object({ products: z.array(productView) });
export type ProductsResponse = z.infer<typeof productsResponse>;
export const checkoutSessionCreatedResponse = z.object({ url: z.string(), sessionId: z.string() });
export type CheckoutSessionCreatedResponse = z.infer<typeof checkoutSessionCreatedResponse>;
export const checkoutSessionResponse = z.object({ session: checkoutSessionView });
export type CheckoutSessionResponse = z.infer<typeof checkoutSessionResponse>;
export const customerSubscriptionsResponse = z.object({ subscriptions: z.array(subscriptionView) });
export type CustomerSubscriptionsResponse = z.infer<typeof customerSubscriptionsResponse>;
export const subscriptionResponse = z.object({ subscription: subscriptionView });
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;
/** POST /api/stripe/start-trial: the trial's subscription (or the one the account already has). */
export const startTrialResponse = z.object({ success: z.literal(true), subscription: subscriptionView });
export type StartTrialResponse = z.infer<typeof startTrialResponse>;
/** POST /api/stripe/portal-session: null when the account has no customer at the provider. */
export const portalSessionResponse = z.object({ url: z.string().nullable() });
export type PortalSessionResponse = z.infer<typeof portalSessionResponse>;
export const providerCustomerView = z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() });
export type ProviderCustomerView = z.infer<typeof providerCustomerView>;
export const createCustomerResponse = z.object({ customer: providerCustomerView });
export type CreateCustomerResponse = z.infer<typeof createCustomerResponse>;
export const leadCreatedResponse = z.object({ success: z.literal(true), lead: z.object({ id: z.number() }) });
export type LeadCreatedResponse = z.infer<typeof leadCreatedResponse>;
/** GET /api/leads/customers/by-email and POST /api/leads/customers. */
export const customerResponse = z.object({ success: z.literal(true), customer: customerView.nullable() });
export type CustomerResponse = z.infer<typeof customerResponse>;
/** POST /api/admin/public/update-user-password and /resend-activation. */
export const accountActionResponse = z.object({ success: z.literal(true) });
export type AccountActionResponse = z.infer<typeof accountActionResponse>;
