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
export type ProductView = {
  id: string;
  name: string;
  description: string | null;
  active: boolean;
  metadata: { product_type: "basic" | "pro" };
  prices: { id: string; interval: "month" | "year"; active: boolean; unit_amount: number; currency: string }[];
};
export type CheckoutSessionView = {
  id: string;
  status: string;
  amount_total: number | null;
  currency: string | null;
  customer_email: string | null;
  payment_status: string;
  payment_intent: string | null;
  customer_details: { name: string | null } | null;
  plan_name: string | null;
  interval: "month" | "year" | null;
  /**
   * Whether this session may set its account's first password: it is paid, and it created the
   * account (or will, when its event has not arrived) whose password is not set. Otherwise the
   * success page asks for no password (an upgrade, or another's account).
   */
  needs_password: boolean;
};
export type SubscriptionView = {
  id: string;
  status: string;
  cancel_at_period_end: boolean;
  current_period_end: string | null;
  trial_end: string | null;
  items: { data: { price: { id: string; unit_amount: number; currency: string; interval: "month" | "year" | null; product: { name: string } } }[] };
};
export type CustomerView = {
  email: string;
  company: string | null;
  current_plan: string | null;
  stripe_customer_id: string | null;
  subscription_id: string | null;
  subscription_status: string | null;
};
export type BillingConfigView = { mode: "local" | "stripe"; publishableKey: string | null; portal: boolean };

/** Answers of the billing and lead endpoints, by path. */
export type ProductsResponse = { products: ProductView[] };
export type CheckoutSessionCreatedResponse = { url: string; sessionId: string };
export type CheckoutSessionResponse = { session: CheckoutSessionView };
export type CustomerSubscriptionsResponse = { subscriptions: SubscriptionView[] };
export type SubscriptionResponse = { subscription: SubscriptionView };
/** POST /api/stripe/start-trial: the trial's subscription (or the one the account already has). */
export type StartTrialResponse = { success: true; subscription: SubscriptionView };
/** POST /api/stripe/portal-session: null when the account has no customer at the provider. */
export type PortalSessionResponse = { url: string | null };
export type ProviderCustomerView = { id: string; email: string | null; name: string | null };
export type CreateCustomerResponse = { customer: ProviderCustomerView };
export type LeadCreatedResponse = { success: true; lead: { id: number } };
/** GET /api/leads/customers/by-email and POST /api/leads/customers. */
export type CustomerResponse = { success: true; customer: CustomerView | null };
/** POST /api/admin/public/update-user-password and /resend-activation. */
export type AccountActionResponse = { success: true };
