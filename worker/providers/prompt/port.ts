// Prompt writer port: turns an agent's fields into the assistant's system prompt.
export type AgentPromptInput = {
  name: string;
  business_description: string;
  services: string;
  agent_instructions: string;
  pricing_information?: string;
  documents?: string;
};

export interface PromptWriterPort {
  readonly kind: "local" | "workers-ai";
  generate(input: AgentPromptInput): Promise<string>;
}
