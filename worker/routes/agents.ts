// Agents (docs/product/README.md#states-and-flows, docs/product/api.md#dashboard-counts; docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages, docs/product/api.md#api): the account's agents, their life cycle, their voices and
// test calls.
// Handlers are thin: validate, call the agent service, answer. Every route needs a signed-in user,
// and every service call is scoped by that user's id (another account's agent answers 404).
import { type Context } from "hono";
import { type ActivateAgentResponse, type AgentDeactivatedResponse, type AgentDeletedResponse, type AgentListResponse, type AgentResponse, type TriggerCallResponse } from "@shared/schemas/agents";
import { type VoicesResponse } from "@shared/schemas/call-logs";
import { TEST_CALL_RATE, TEST_CALLS_PER_DAY } from "@shared/constants";
import { PLAN_TEXT } from "@shared/messages";
import { nyToday } from "@shared/ny-time";
import { ApiError, tooManyRequests } from "../lib/errors";
import { assertTestCallDestination, requirePaidPlan } from "../services/plans";
import type { AppEnv } from "../app-env";
import type { BatchItem } from "drizzle-orm/batch";
import { countInOrder, enforce, type Limit } from "../db/rate-limit";
import { log } from "../lib/log";
import { accountDb } from "../context/account-db";
import { currentUser } from "../middleware/auth";
import {
  activateAgent,
  createAgent,
  createDefaultAgent,
  deactivateAgent,
  deactivateAgentByAssistant,
  deleteAgent,
  generatePrompt,
  getAgent,
  listAgents,
  toAgentJson,
  updateAgent,
  type AgentDeps,
} from "../services/agents";
import { testCaller, triggerTestCall } from "../services/call-logs";
import { emit } from "../events/emit";
import { usageStats } from "../services/usage";
import { DeclaredRoutes } from "./serve";

export const AGENT_RATE_LIMITS = {
  testCall: { name: "trigger-call:user", ...TEST_CALL_RATE },
  testCallsPerDay: { name: "trigger-call:user-day", limit: TEST_CALLS_PER_DAY, windowSeconds: 2 * 86_400 },
  // Prompt writing may run a model on every request; keep it to what a person editing agents needs.
  prompt: { name: "generate-prompt:user", limit: 30, windowSeconds: 60 },
} satisfies Record<string, Limit>;

const deps = (c: Context<AppEnv>): AgentDeps => ({ db: c.var.db, shard: accountDb(c), voice: c.var.providers.voice, prompt: c.var.providers.prompt, text: c.env.CALL_TEXT });

/** /api/agents */
export const agentRoutes = new DeclaredRoutes()
  .serve("GET /api/agents", async (c) => {
    const rows = await listAgents(c.var.db, currentUser(c).id);
    return c.json({ agents: rows.map(toAgentJson) } satisfies AgentListResponse);
  })
  .serve("POST /api/agents", async (c) => {
    const agent = await createAgent(c.var.db, currentUser(c).id, c.req.valid("json"));
    return c.json({ agent: toAgentJson(agent) } satisfies AgentResponse, 201);
  })
  .serve("GET /api/agents/:id", async (c) => {
    const agent = await getAgent(c.var.db, currentUser(c).id, c.req.valid("param").id);
    return c.json({ agent: toAgentJson(agent) } satisfies AgentResponse);
  })
  .serve("PUT /api/agents/:id", async (c) => {
    const agent = await updateAgent(c.var.db, currentUser(c).id, c.req.valid("param").id, c.req.valid("json"));
    return c.json({ agent: toAgentJson(agent) } satisfies AgentResponse);
  })
  .serve("DELETE /api/agents/:id", async (c) => {
    await deleteAgent(deps(c), currentUser(c).id, c.req.valid("param").id);
    return c.json({ success: true } satisfies AgentDeletedResponse);
  })
  .serve("PATCH /api/agents/:id/deactivate", async (c) => {
    const agent = await deactivateAgent(deps(c), currentUser(c).id, c.req.valid("param").id);
    return c.json({ success: true, agent: toAgentJson(agent) } satisfies AgentDeactivatedResponse);
  });

/** The agent actions the spec names as top-level paths: /api/generate-prompt, /api/create-vapi-assistant, /api/vapi/voices, … */
export const agentActionRoutes = new DeclaredRoutes()
  .serve("POST /api/generate-prompt", async (c) => {
    const user = currentUser(c);
    await enforce(c, [[AGENT_RATE_LIMITS.prompt, user.id]]);
    const prompt = await generatePrompt(c.var.providers.prompt, c.req.valid("json"));
    return c.json({ prompt });
  })
  .serve("POST /api/create-vapi-assistant", async (c) => {
    const user = currentUser(c);
    // The plan is checked in the same round trip as the agent is read; its refusal answers first.
    const paid = requirePaidPlan(c.var.db, user.id, { isAdmin: user.isAdmin });
    const { assistantId, agent } = await activateAgent(deps(c), user.id, c.req.valid("json"), paid);
    // The assistant's earlier calls are adopted: the live feed and the search index show them.
    emit(c, "callsChanged", { userId: user.id, db: accountDb(c), assistantId });
    return c.json({ id: assistantId, agent: toAgentJson(agent) } satisfies ActivateAgentResponse);
  })
  .serve("POST /api/create-default-agent", async (c) => {
    const user = currentUser(c);
    const agent = await createDefaultAgent(c.var.db, user.id, user.company);
    return c.json({ agent: toAgentJson(agent) } satisfies AgentResponse, 201);
  })
  .serve("GET /api/usage-stats", async (c) => {
    const user = currentUser(c);
    const dbs = { directory: c.var.db, shard: accountDb(c), shardName: user.shard };
    return c.json(await usageStats(dbs, user.id, new Date(), { isAdmin: user.isAdmin }));
  })
  .serve("POST /api/trigger-call", async (c) => {
    const user = currentUser(c);
    const body = c.req.valid("json");
    assertTestCallDestination(body.phoneNumber);
    // The per-minute limit, then a daily cap per account (counted per New York day), in one batch: a
    // call the per-minute limit refuses is not counted against the daily cap. The batch goes beside
    // the plan and agent reads, in one round trip.
    const limits: [[Limit, string], [Limit, string]] = [
      [AGENT_RATE_LIMITS.testCall, user.id],
      [AGENT_RATE_LIMITS.testCallsPerDay, `${user.id}:${nyToday()}`],
    ];
    const counting = countInOrder(c.var.db, ...limits);
    counting.catch(() => undefined);
    // The agent the call goes out from is read with the plan; its refusal still answers after the
    // plan's and the rate limits'.
    const caller = testCaller(c.var.db, user.id, body);
    caller.catch(() => undefined);
    try {
      await requirePaidPlan(c.var.db, user.id, { minutes: { shard: accountDb(c), name: user.shard }, isAdmin: user.isAdmin });
    } catch (e) {
      // A request the plan refuses is not counted: its counts are taken back before the answer.
      const undo = (await counting.catch(() => null))?.undo(c.var.db) ?? [];
      if (undo.length) {
        await c.var.db.batch(undo as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]).catch((failure: unknown) => {
          log(c, "warn", "taking back a test call's rate-limit counts failed", { error: failure instanceof Error ? failure.message : String(failure) });
        });
      }
      throw e;
    }
    const hits = await counting;
    if (hits.refused === AGENT_RATE_LIMITS.testCall) throw tooManyRequests();
    if (hits.refused) throw new ApiError(429, PLAN_TEXT.testCallDailyCap(TEST_CALLS_PER_DAY), "rate_limited");
    const { callId } = await triggerTestCall(deps(c), user.id, body, c.var.config.VAPI_PHONE_NUMBER_ID, caller);
    // The queued call is committed: the live feed and the search index show it.
    emit(c, "callsChanged", { userId: user.id, db: accountDb(c), callIds: [callId] });
    return c.json({ success: true, callId } satisfies TriggerCallResponse);
  })
  .serve("GET /api/vapi/voices", async (c) => {
    const body: VoicesResponse = { voices: await c.var.providers.voice.listVoices() };
    return c.json(body);
  })
  .serve("DELETE /api/vapi/assistant/:assistantId", async (c) => {
    const agent = await deactivateAgentByAssistant(deps(c), currentUser(c).id, c.req.valid("param").assistantId);
    return c.json({ success: true, agentId: agent.id });
  });
