// GET /api/agents/:id: one agent as the server has it now (activation starts from this, spec 1 §4).
import type { Agent, AgentResponse } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";

export async function getAgent(id: number): Promise<Agent> {
  const { agent } = await apiJson<AgentResponse>("GET", `/api/agents/${id}`);
  return agent;
}
