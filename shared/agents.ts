// Rules on agents that need no schema: whether one is active or incomplete, the next default name,
// a dialled number. Kept apart from shared/schemas/agents.ts (which re-exports them) so the Agents
// screen can show its cards without loading zod and the form's schemas (decision 032).
import { NEW_AGENT_NAME } from "./constants.ts";

/**
 * A number to dial: E.164 (+ and 8-15 digits) or a US number of 10 digits (or 11 starting with 1),
 * separators allowed. Returns E.164 (+1XXXXXXXXXX for US numbers) or null when it is not a number.
 */
export function normalizeDialNumber(input: string): string | null {
  const raw = input.trim();
  if (!/^\+?[\d\s().-]+$/.test(raw)) return null;
  const digits = raw.replace(/\D/g, "");
  if (raw.startsWith("+")) {
    if (!/^[1-9]\d{7,14}$/.test(digits)) return null;
    if (digits.startsWith("1") && digits.length !== 11) return null;
    return `+${digits}`;
  }
  if (digits.length === 10) return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith("1")) return `+${digits}`;
  return null;
}

/** Active when it has an assistant on the voice platform (docs/product/README.md#states-and-flows). */
export function isAgentActive(agent: { vapi_assistant_id?: string | null }): boolean {
  return Boolean(agent.vapi_assistant_id && agent.vapi_assistant_id.trim());
}

/** Incomplete when business_description, services or agent_instructions is empty (docs/product/README.md#states-and-flows). */
export function isAgentIncomplete(agent: {
  business_description?: string | null;
  services?: string | null;
  agent_instructions?: string | null;
}): boolean {
  return [agent.business_description, agent.services, agent.agent_instructions].some((v) => !v || !v.trim());
}

/** 'New Agent', then 'New Agent 2', 'New Agent 3', … : the first not taken, compared case-insensitively (docs/product/README.md#records). */
export function nextNewAgentName(existingNames: Iterable<string>): string {
  const taken = new Set<string>();
  for (const name of existingNames) taken.add(name.trim().toLowerCase());
  if (!taken.has(NEW_AGENT_NAME.toLowerCase())) return NEW_AGENT_NAME;
  for (let n = 2; ; n++) {
    const candidate = `${NEW_AGENT_NAME} ${n}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
