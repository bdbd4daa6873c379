// Agent contracts (docs/product/README.md#records, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages, docs/product/README.md#records, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages; reconciled in docs/decisions/004-agents-reconciled.md):
// the agent form's rules, the API bodies, the agent JSON every endpoint returns, and the status helpers.
import { z } from "zod";
import { normalizeDialNumber } from "../agents";
import type { AlertPlanLimits } from "../alerts";
import { AGENT_LIMITS } from "../constants";
import { formatCount } from "../numbers";
import { AGENT_API_TEXT, AGENT_TEXT, VALIDATION } from "../messages";
import { storeField } from "./store";

export const AGENT_FIELD_MAX = {
  name: 100,
  text: 5_000,
  documents: 20_000,
  prompt: 20_000,
  voiceId: 100,
  type: 50,
} as const;

const tooLong = (max: number) => `Must be at most ${formatCount(max)} characters`;

/** docs/product/errors-and-texts.md#validation-messages: a name is required; an empty one is refused with 'Please enter a name for your agent.' */
export const agentNameSchema = z
  .string({ error: AGENT_TEXT.nameRequired })
  .trim()
  .min(1, AGENT_TEXT.nameRequired)
  .max(AGENT_FIELD_MAX.name, tooLong(AGENT_FIELD_MAX.name));

const voiceIdSchema = z.string().trim().min(1, "Choose a voice").max(AGENT_FIELD_MAX.voiceId, tooLong(AGENT_FIELD_MAX.voiceId));

/** An agent's store: a code or a store's name, kept as its code; null for none. */
const storeSchema = storeField.nullable();
const typeSchema = z
  .string()
  .trim()
  .max(AGENT_FIELD_MAX.type, tooLong(AGENT_FIELD_MAX.type))
  .nullable()
  .transform((v) => (v ? v : null));

/** The agent form (docs/product/errors-and-texts.md#validation-messages): every field mandatory with its minimum; pricing, documents, store and type optional. */
export const agentFormSchema = z.object({
  name: z.string().trim().min(AGENT_LIMITS.minName, VALIDATION.agentNameMin).max(AGENT_FIELD_MAX.name, tooLong(AGENT_FIELD_MAX.name)),
  business_description: z
    .string()
    .trim()
    .min(AGENT_LIMITS.minDescription, VALIDATION.businessDescriptionMin)
    .max(AGENT_FIELD_MAX.text, tooLong(AGENT_FIELD_MAX.text)),
  services: z
    .string()
    .trim()
    .min(AGENT_LIMITS.minServices, VALIDATION.servicesMin)
    .max(AGENT_FIELD_MAX.text, tooLong(AGENT_FIELD_MAX.text)),
  agent_instructions: z
    .string()
    .trim()
    .min(AGENT_LIMITS.minInstructions, VALIDATION.agentInstructionsMin)
    .max(AGENT_FIELD_MAX.text, tooLong(AGENT_FIELD_MAX.text)),
  pricing_information: z.string().trim().max(AGENT_FIELD_MAX.text, tooLong(AGENT_FIELD_MAX.text)).optional(),
  documents: z.string().trim().max(AGENT_FIELD_MAX.documents, tooLong(AGENT_FIELD_MAX.documents)).optional(),
  voice_id: voiceIdSchema.optional(),
  store: storeSchema.optional(),
  type: typeSchema.optional(),
});
export type AgentForm = z.infer<typeof agentFormSchema>;

/** A free-text agent field on save: may be short or empty (the card then says the agent is incomplete); null clears it. */
const savedText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, tooLong(max))
    .nullable()
    .transform((v) => v ?? "");


/**
 * POST /api/agents. Server-managed fields (id, prompt, vapi_assistant_id, numbers, timestamps) are
 * not accepted and are dropped if sent; voice_id is accepted but forced to the default on creation.
 */
export const agentCreateBody = z.object({
  name: agentNameSchema,
  business_description: savedText(AGENT_FIELD_MAX.text).optional().default(""),
  services: savedText(AGENT_FIELD_MAX.text).optional().default(""),
  agent_instructions: savedText(AGENT_FIELD_MAX.text).optional().default(""),
  pricing_information: savedText(AGENT_FIELD_MAX.text).optional().default(""),
  documents: savedText(AGENT_FIELD_MAX.documents).optional().default(""),
  voice_id: z.string().optional(),
  store: storeSchema.optional().default(null),
  type: typeSchema.optional().default(null),
});
export type AgentCreateBody = z.infer<typeof agentCreateBody>;

/** PUT /api/agents/:id: any subset of the editable fields; absent fields stay as they are. */
export const agentUpdateBody = z.object({
  name: agentNameSchema.optional(),
  business_description: savedText(AGENT_FIELD_MAX.text).optional(),
  services: savedText(AGENT_FIELD_MAX.text).optional(),
  agent_instructions: savedText(AGENT_FIELD_MAX.text).optional(),
  pricing_information: savedText(AGENT_FIELD_MAX.text).optional(),
  documents: savedText(AGENT_FIELD_MAX.documents).optional(),
  voice_id: voiceIdSchema.optional(),
  store: storeSchema.optional(),
  type: typeSchema.optional(),
});
export type AgentUpdateBody = z.infer<typeof agentUpdateBody>;

export const agentIdParam = z.object({
  id: z.coerce.number({ error: "Agent id must be a number" }).int("Agent id must be a number").positive("Agent id must be a number"),
});

/** POST /api/generate-prompt: a prompt is only written from a complete agent (docs/product/errors-and-texts.md#validation-messages minimums). */
export const generatePromptBody = agentFormSchema.pick({
  name: true,
  business_description: true,
  services: true,
  agent_instructions: true,
  pricing_information: true,
  documents: true,
});
export type GeneratePromptBody = z.infer<typeof generatePromptBody>;
export const generatePromptResponse = z.object({ prompt: z.string() });
export type GeneratePromptResponse = z.infer<typeof generatePromptResponse>;

/** POST /api/create-vapi-assistant. The assistant is named after the saved agent; prompt, when absent, is written by the server. */
export const activateAgentBody = z.object({
  agent_id: z.coerce
    .number({ error: AGENT_API_TEXT.saveBeforeActivate })
    .int(AGENT_API_TEXT.saveBeforeActivate)
    .positive(AGENT_API_TEXT.saveBeforeActivate),
  name: z.string().trim().max(AGENT_FIELD_MAX.name, tooLong(AGENT_FIELD_MAX.name)).optional(),
  prompt: z.string().trim().max(AGENT_FIELD_MAX.prompt, tooLong(AGENT_FIELD_MAX.prompt)).optional(),
  voice_id: voiceIdSchema.optional(),
});
export type ActivateAgentBody = z.infer<typeof activateAgentBody>;

/** POST /api/trigger-call */
export const triggerCallBody = z.object({
  phoneNumber: z
    .string({ error: AGENT_API_TEXT.invalidPhone })
    .max(32, AGENT_API_TEXT.invalidPhone)
    .transform((v, ctx) => {
      const normalized = normalizeDialNumber(v);
      if (!normalized) {
        ctx.addIssue({ code: "custom", message: AGENT_API_TEXT.invalidPhone });
        return z.NEVER;
      }
      return normalized;
    }),
  agentId: z.coerce.number({ error: "Agent id must be a number" }).int("Agent id must be a number").positive("Agent id must be a number").optional(),
});
export type TriggerCallBody = z.infer<typeof triggerCallBody>;
export const triggerCallResponse = z.object({ success: z.literal(true), callId: z.string() });
export type TriggerCallResponse = z.infer<typeof triggerCallResponse>;

/** The agent as every endpoint returns it; phone_number is the assigned number (spec 1's field name). */
export const agentSchema = z.object({
  id: z.number(),
  name: z.string(),
  business_description: z.string(),
  services: z.string(),
  agent_instructions: z.string(),
  pricing_information: z.string(),
  documents: z.string(),
  prompt: z.string().nullable(),
  voice_id: z.string(),
  vapi_assistant_id: z.string().nullable(),
  store: z.string().nullable(),
  type: z.string().nullable(),
  twilio_number_id: z.number().nullable(),
  assigned_phone_number: z.string().nullable(),
  phone_number: z.string().nullable(),
  updated_at: z.string(),
  created_at: z.string(),
});
export type Agent = z.infer<typeof agentSchema>;

export const agentListResponse = z.object({ agents: z.array(agentSchema) });
export type AgentListResponse = z.infer<typeof agentListResponse>;
export const agentResponse = z.object({ agent: agentSchema });
export type AgentResponse = z.infer<typeof agentResponse>;
export const activateAgentResponse = z.object({ id: z.string(), agent: agentSchema });
export type ActivateAgentResponse = z.infer<typeof activateAgentResponse>;
/** DELETE /api/agents/:id */
export const agentDeletedResponse = z.object({ success: z.literal(true) });
export type AgentDeletedResponse = z.infer<typeof agentDeletedResponse>;
/** PATCH /api/agents/:id/deactivate */
export const agentDeactivatedResponse = z.object({ success: z.literal(true), agent: agentSchema });
export type AgentDeactivatedResponse = z.infer<typeof agentDeactivatedResponse>;
/** DELETE /api/vapi/assistant/:assistantId */
export const assistantDeletedResponse = z.object({ success: z.literal(true), agentId: z.number() });

export const planKey = z.enum(["basic", "pro"]);
export type PlanKey = z.infer<typeof planKey>;

/**
 * Where the account stands with its plan: subscribed (active, or trialing before its trial's end), or
 * why not: none (never a subscription that started), trial_ended, past_due (a failed renewal), ended
 * (cancelled or unpaid).
 */
export const planState = z.enum(["subscribed", "none", "trial_ended", "past_due", "ended"]);
export type PlanState = z.infer<typeof planState>;

/** The account's plan and what it allows (worker/services/plans.ts accountPlan). */
export type AccountPlan = {
  state: PlanState;
  /** The newest subscription's status, null without one. */
  status: string | null;
  /** Agents the account may have: its plan's, else the drafts an account without a plan may keep. */
  agentLimit: number;
  /** Alert rules and extra alert addresses the plan allows (ALERT_PLAN_LIMITS). */
  alerts: AlertPlanLimits;
} & (
  | { plan: PlanKey; subscriptionId: string; /** Call minutes per New York month. */ minuteLimit: number }
  | { plan: null; subscriptionId: null; minuteLimit: null }
);

export const usageStats = z.object({
  /** Phone calls (inbound and outbound) this New York month: browser calls are not counted, as in the dashboard and the call report. */
  callsThisMonth: z.number(),
  /** Sum of the durations of every call this month, browser calls included, in minutes, rounded to one decimal. */
  minutesThisMonth: z.number(),
  /** The plan's call minutes per New York month; null without a plan (no test call is allowed then). */
  minuteLimit: z.number().nullable(),
  agents: z.number(),
  /** The agents the account may have (accountPlan's agentLimit). */
  agentLimit: z.number(),
  numbers: z.number(),
  numberLimit: z.number(),
  /** The account's paid plan (an active or trialing subscription); null without one. */
  plan: planKey.nullable(),
  /** Where the account stands with its plan; the notice's words follow it. */
  planState,
  /**
   * True when activating an agent, buying a number and placing a test call would be refused for want
   * of a plan (402 subscription_required), so the SPA can say so before the account tries. Admins pass.
   */
  planRequired: z.boolean(),
});
export type UsageStats = z.infer<typeof usageStats>;

// The rules on agents without zod, for screens that must not load the schemas (decision 032).
export { isAgentActive, isAgentIncomplete, nextNewAgentName, normalizeDialNumber } from "../agents";
