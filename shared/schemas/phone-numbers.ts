// Phone-number contracts (docs/product/README.md#records, docs/product/api.md#api): owned numbers, the purchase search, buying,
// assigning numbers to agents, and the per-account phone-number limit.
import { z } from "zod";
import { PHONE_LIMIT, PHONE_SEARCH_LIMIT } from "../constants.ts";
import { PHONE_API_TEXT } from "../messages.ts";

/** Query strings carry booleans as text: "true"/"1" or "false"/"0". */
const queryBool = z
  .enum(["true", "false", "1", "0"], { error: "Must be true or false" })
  .transform((v) => v === "true" || v === "1");

/** GET /api/twilio/available-numbers */
export const availableNumbersQuery = z.object({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "Country must be a two-letter ISO code")
    .default("US"),
  type: z.enum(["Local"], { error: "Only Local numbers can be searched" }).default("Local"),
  sms: queryBool.optional(),
  voice: queryBool.optional(),
  limit: z.coerce
    .number({ error: `Limit must be a number from 1 to ${PHONE_SEARCH_LIMIT}` })
    .int(`Limit must be a number from 1 to ${PHONE_SEARCH_LIMIT}`)
    .min(1, `Limit must be a number from 1 to ${PHONE_SEARCH_LIMIT}`)
    .max(PHONE_SEARCH_LIMIT, `Limit must be a number from 1 to ${PHONE_SEARCH_LIMIT}`)
    .default(PHONE_SEARCH_LIMIT),
  /** An empty filter means "any area code". */
  areaCode: z
    .string()
    .trim()
    .regex(/^(\d{3})?$/, PHONE_API_TEXT.areaCodeInvalid)
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type AvailableNumbersQuery = z.input<typeof availableNumbersQuery>;

/** E.164, as Twilio lists and buys numbers. */
export const e164Schema = z.string().trim().regex(/^\+[1-9]\d{6,14}$/, PHONE_API_TEXT.phoneNumberInvalid);

/** POST /api/twilio/buy */
export const buyNumberBody = z.object({
  phoneNumber: e164Schema,
  /** Also import the number into the voice platform so AI agents can answer it. */
  createInVapi: z.boolean().default(false),
});
export type BuyNumberBody = z.input<typeof buyNumberBody>;

const id = (name: string) =>
  z.coerce.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`).positive(`${name} must be positive`);

/** POST /api/twilio/assign-number */
export const assignNumberBody = z.object({ phoneNumberId: id("phoneNumberId"), agentId: id("agentId") });
export type AssignNumberBody = z.input<typeof assignNumberBody>;

/** POST /api/twilio/unassign-number */
export const unassignNumberBody = z.object({ phoneNumberId: id("phoneNumberId") });
export type UnassignNumberBody = z.input<typeof unassignNumberBody>;

/** PUT /api/admin/config/phone-limit (GET answers the same shape). */
export const phoneLimitBody = z.object({
  phoneNumberLimit: z
    .number({ error: PHONE_API_TEXT.limitRange })
    .int(PHONE_API_TEXT.limitRange)
    .min(PHONE_LIMIT.min, PHONE_API_TEXT.limitRange)
    .max(PHONE_LIMIT.max, PHONE_API_TEXT.limitRange),
});
export type PhoneLimitBody = z.infer<typeof phoneLimitBody>;
export const phoneLimitResponse = z.object({ phoneNumberLimit: z.number() });
export type PhoneLimitResponse = z.infer<typeof phoneLimitResponse>;

/** GET /api/twilio/health */
export const telephonyHealth = z.object({ ok: z.boolean(), message: z.string(), provider: z.enum(["twilio", "local"]) });
export type TelephonyHealth = z.infer<typeof telephonyHealth>;

/** One owned number as GET /api/twilio/my-numbers lists it (docs/product/README.md#records). */
export const ownedPhoneNumber = z.object({
  id: z.number(),
  phone_number: z.string(),
  friendly_name: z.string().nullable(),
  locality: z.string().nullable(),
  region: z.string().nullable(),
  iso_country: z.string(),
  agent_id: z.number().nullable(),
  sid: z.string().nullable(),
  vapi_phone_number_id: z.string().nullable(),
  agents: z.object({ name: z.string() }).nullable(),
});
export type OwnedPhoneNumber = z.infer<typeof ownedPhoneNumber>;
export const myNumbersResponse = z.object({ numbers: z.array(ownedPhoneNumber) });
export type MyNumbersResponse = z.infer<typeof myNumbersResponse>;

/** A number offered for purchase (docs/product/README.md#records). */
export const availableNumberView = z.object({
  phoneNumber: z.string(),
  friendlyName: z.string(),
  region: z.string().nullable(),
  locality: z.string().nullable(),
  isoCountry: z.string(),
});
export type AvailableNumberView = z.infer<typeof availableNumberView>;
export const availableNumbersResponse = z.object({ numbers: z.array(availableNumberView) });
export type AvailableNumbersResponse = z.infer<typeof availableNumbersResponse>;

/**
 * POST /api/twilio/buy, 200: the number is bought. When the voice-platform copy failed the
 * purchase still stands: `vapiCreated` is false and `error` says why (the client warns
 * 'Failed to create for AI calls (check configuration)').
 *
 * At the limit the server answers 409 with the usual error body plus the limit fields:
 * `{ error, code: "phone_limit_reached", limitReached: true, maxAllowed, currentCount }`,
 * so the client shows 'Phone Number Limit Reached' from `limitReached`, whatever the status.
 */
export const buyNumberResponse = z.object({
  sid: z.string(),
  phoneNumber: z.string(),
  phoneNumberId: z.number(),
  vapiCreated: z.boolean(),
  vapiPhoneNumberId: z.string().nullable(),
  limitReached: z.literal(false),
  maxAllowed: z.number(),
  currentCount: z.number(),
  error: z.string().optional(),
});
export type BuyNumberResponse = z.infer<typeof buyNumberResponse>;
export type BuyLimitReachedError = {
  error: string;
  code: "phone_limit_reached";
  limitReached: true;
  maxAllowed: number;
  currentCount: number;
};
export const PHONE_LIMIT_REACHED_CODE = "phone_limit_reached";

/** POST /api/twilio/assign-number and /unassign-number, 200. */
export const assignNumberResponse = z.object({ success: z.literal(true), number: ownedPhoneNumber });
export type AssignNumberResponse = z.infer<typeof assignNumberResponse>;
