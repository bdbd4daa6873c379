// /v1/agents: the key's account's agents; activation and deactivation through the agent service with
// the app's plan rule (services/plans.ts requirePaidPlan, as POST /api/create-vapi-assistant).
import type { Context } from "hono";
import type { V1AgentList } from "@shared/schemas/v1";
import type { AppEnv } from "../../app-env";
import { accountDb } from "../../context/account-db";
import { emit } from "../../events/emit";
import { currentUser } from "../../middleware/auth";
import { activateAgent, deactivateAgent, getAgent, listAgents, type AgentDeps } from "../../services/agents";
import { requirePaidPlan } from "../../services/plans";
import { toV1Agent } from "../../services/public-api";
import { V1DeclaredRoutes } from "./serve";

const deps = (c: Context<AppEnv>): AgentDeps => ({ db: c.var.db, shard: accountDb(c), voice: c.var.providers.voice, prompt: c.var.providers.prompt, text: c.env.CALL_TEXT });

export const v1AgentRoutes = new V1DeclaredRoutes()
  .serve("GET /v1/agents", async (c) => {
    const rows = await listAgents(c.var.db, currentUser(c).id);
    return c.json({ data: rows.map(toV1Agent), next_cursor: null } satisfies V1AgentList);
  })
  .serve("GET /v1/agents/:id", async (c) => c.json(toV1Agent(await getAgent(c.var.db, currentUser(c).id, c.req.valid("param").id))))
  .serve("POST /v1/agents/:id/activate", async (c) => {
    const user = currentUser(c);
    const paid = requirePaidPlan(c.var.db, user.id, { isAdmin: user.isAdmin });
    const { assistantId, agent } = await activateAgent(deps(c), user.id, { agent_id: c.req.valid("param").id }, paid);
    // The assistant's earlier calls are adopted: the live feed and the search index show them.
    emit(c, "callsChanged", { userId: user.id, db: accountDb(c), assistantId });
    return c.json(toV1Agent(agent));
  })
  .serve("POST /v1/agents/:id/deactivate", async (c) => {
    const agent = await deactivateAgent(deps(c), currentUser(c).id, c.req.valid("param").id);
    return c.json(toV1Agent(agent));
  });
