// Workers AI prompt writer: used only when the AI binding is bound. A failure reaches the user
// as a provider error; it never falls back to the local template silently.
import { providerError } from "../../lib/errors";
import type { AgentPromptInput, PromptWriterPort } from "./port";

export const PROMPT_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

type ChatMessage = { role: "system" | "user"; content: string };

/** The part of the Workers AI binding this adapter uses. */
export type AiBinding = { run(model: string, input: { messages: ChatMessage[]; max_tokens?: number }): Promise<unknown> };

export function isAiBinding(value: unknown): value is AiBinding {
  return typeof value === "object" && value !== null && typeof (value as { run?: unknown }).run === "function";
}

const WRITER_INSTRUCTIONS =
  "You write system prompts for AI phone agents. Given a business's details, write the complete system prompt " +
  "the agent will follow on calls: its role and name, the business, its services, pricing (or that it must not quote prices " +
  "when none are given), the reference documents, the business's own instructions, and clear call-handling rules " +
  "(greet, answer only from the given facts, collect name and callback number, confirm details, offer transfer or message, " +
  "summarise before ending). Write in second person ('You are ...'), plain text with short headed sections. " +
  "Reply with the prompt only.";

function describe(input: AgentPromptInput) {
  const field = (label: string, value: string | undefined) => `${label}:\n${(value ?? "").trim() || "(none given)"}`;
  return [
    field("Agent name", input.name),
    field("Business description", input.business_description),
    field("Services", input.services),
    field("Pricing information", input.pricing_information),
    field("Documents", input.documents),
    field("Agent instructions", input.agent_instructions),
  ].join("\n\n");
}

export class WorkersAiPromptWriter implements PromptWriterPort {
  readonly kind = "workers-ai" as const;
  constructor(
    private ai: AiBinding,
    private model: string = PROMPT_MODEL,
  ) {}

  async generate(input: AgentPromptInput) {
    let result: unknown;
    try {
      result = await this.ai.run(this.model, {
        messages: [
          { role: "system", content: WRITER_INSTRUCTIONS },
          { role: "user", content: describe(input) },
        ],
        max_tokens: 1500,
      });
    } catch (e) {
      throw providerError("Workers AI", e instanceof Error ? e.message : "prompt generation failed");
    }
    const text = typeof result === "object" && result !== null ? (result as { response?: unknown }).response : undefined;
    if (typeof text !== "string" || !text.trim()) throw providerError("Workers AI", "the model returned no prompt");
    return text.trim();
  }
}
