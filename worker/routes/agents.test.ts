import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_VOICE_ID } from "@shared/constants";
import { AGENT_API_TEXT, AGENT_TEXT, VALIDATION } from "@shared/messages";
import { agentFormSchema, agentSchema, isAgentIncomplete } from "@shared/schemas/agents";
import { agents, callLogs, customers, phoneNumbers, rateLimits, simAssistants, subscriptions, systemConfig } from "../db/schema";
import { AGENT_RATE_LIMITS } from "./agents";
import { nyMonthRange } from "@shared/ny-time";
import { call, db, shardOf, signUpAndSignIn, type Json } from "../test/helpers";
import { VAPI_STANDIN } from "../test/standins/vapi";
import { LocalVoice } from "../providers/voice/local";
import { VapiVoice } from "../providers/voice/vapi";
import { insertAgent } from "../test/factories";

type Session = Awaited<ReturnType<typeof signUpAndSignIn>>;
let alice: Session;
let bob: Session;

const complete = {
  business_description: "A family dental clinic in Miami with three chairs.",
  services: "Cleanings, fillings, whitening and regular check-ups.",
  agent_instructions: "Greet callers warmly, answer questions and book appointments.",
};

/** The real VAPI adapter against the VAPI stand-in. */
const realVapi = () => ({ VAPI_PRIVATE_KEY: VAPI_STANDIN.privateKey, VAPI_BASE_URL: inject("standins").vapi });
/** The same with a key VAPI refuses: every platform call fails with VAPI's 401. */
const brokenVapi = () => ({ ...realVapi(), VAPI_PRIVATE_KEY: "revoked-key" });

/** Reads (or creates) a resource on the VAPI stand-in directly, as the platform's dashboard would. */
async function vapiStandin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${inject("standins").vapi}${path}`, {
    method,
    headers: { authorization: `Bearer ${VAPI_STANDIN.privateKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

async function createAgent(s: Session, body: Json) {
  const res = await call("/api/agents", { method: "POST", token: s.accessToken, json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.agent as Json;
}

async function activate(s: Session, agentId: number, extra: Json = {}) {
  return call("/api/create-vapi-assistant", { method: "POST", token: s.accessToken, json: { agent_id: agentId, ...extra } });
}

const agentRow = (id: number) => db().select().from(agents).where(eq(agents.id, id)).get();

beforeAll(async () => {
  alice = await signUpAndSignIn();
  bob = await signUpAndSignIn();
});

describe("signed out", () => {
  it.each([
    ["GET", "/api/agents"],
    ["POST", "/api/agents"],
    ["GET", "/api/agents/1"],
    ["PUT", "/api/agents/1"],
    ["DELETE", "/api/agents/1"],
    ["PATCH", "/api/agents/1/deactivate"],
    ["POST", "/api/generate-prompt"],
    ["POST", "/api/create-vapi-assistant"],
    ["POST", "/api/create-default-agent"],
    ["GET", "/api/usage-stats"],
    ["POST", "/api/trigger-call"],
  ])("%s %s answers 401", async (method, path) => {
    const res = await call(path, { method, json: method === "GET" || method === "DELETE" ? undefined : {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
  });
});

describe("POST /api/agents and GET /api/agents", () => {
  it("creates an agent in the shape every endpoint returns, forcing the default voice", async () => {
    const res = await call("/api/agents", {
      method: "POST",
      token: alice.accessToken,
      json: { name: "Front Desk", ...complete, voice_id: "burt-11labs", store: "MIAMI", type: "inbound", vapi_assistant_id: "forged" },
    });
    expect(res.status).toBe(201);
    const agent = agentSchema.strict().parse(res.body.agent);
    expect(agent).toMatchObject({
      name: "Front Desk",
      ...complete,
      pricing_information: "",
      documents: "",
      prompt: null,
      voice_id: DEFAULT_VOICE_ID,
      vapi_assistant_id: null,
      store: "MIAMI",
      type: "inbound",
      twilio_number_id: null,
      assigned_phone_number: null,
      phone_number: null,
    });
  });

  it("lists only the caller's agents, oldest first", async () => {
    await createAgent(alice, { name: "Second Desk" });
    await createAgent(bob, { name: "Bob's agent" });
    const res = await call("/api/agents", { token: alice.accessToken });
    expect(res.status).toBe(200);
    const names = (res.body.agents as Json[]).map((a) => a.name);
    expect(names.slice(0, 2)).toEqual(["Front Desk", "Second Desk"]);
    expect(names).not.toContain("Bob's agent");
    const ids = (res.body.agents as Json[]).map((a) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("refuses a missing or empty name with 'Please enter a name for your agent.'", async () => {
    for (const json of [{ ...complete }, { name: "   ", ...complete }]) {
      const res = await call("/api/agents", { method: "POST", token: alice.accessToken, json });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe("name");
      expect(res.body.error).toContain(AGENT_TEXT.nameRequired);
    }
  });

  it("refuses an unknown store naming the field", async () => {
    const res = await call("/api/agents", { method: "POST", token: alice.accessToken, json: { name: "Paris", store: "PARIS" } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("store");
  });

  it("refuses a duplicate name case-insensitively with 409", async () => {
    const res = await call("/api/agents", { method: "POST", token: alice.accessToken, json: { name: "  front DESK " } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: AGENT_TEXT.duplicate, code: "duplicate_name", field: "name" });
  });

  it("lets another account use the same name", async () => {
    await createAgent(bob, { name: "Front Desk" });
  });

  it("saves an incomplete agent, which the card shows as incomplete", async () => {
    const agent = await createAgent(alice, { name: "Draft", services: "Short" });
    expect(isAgentIncomplete(agent as never)).toBe(true);
  });
});

describe("GET/PUT/DELETE /api/agents/:id", () => {
  let mine: Json;
  let bobs: Json;
  beforeAll(async () => {
    mine = await createAgent(alice, { name: "Editable", ...complete });
    bobs = await createAgent(bob, { name: "Bob private", ...complete });
  });

  it("gets the caller's agent", async () => {
    const res = await call(`/api/agents/${mine.id}`, { token: alice.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.agent).toEqual(mine);
  });

  it("answers 400 naming id for a malformed id", async () => {
    const res = await call("/api/agents/abc", { token: alice.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("id");
  });

  it("updates some fields and keeps the others", async () => {
    const res = await call(`/api/agents/${mine.id}`, {
      method: "PUT",
      token: alice.accessToken,
      json: { services: "Implants, braces, cleanings and whitening.", voice_id: "sarah-11labs", pricing_information: null },
    });
    expect(res.status).toBe(200);
    expect(res.body.agent).toMatchObject({
      name: "Editable",
      business_description: complete.business_description,
      services: "Implants, braces, cleanings and whitening.",
      voice_id: "sarah-11labs",
      pricing_information: "",
    });
    expect(res.body.agent.updated_at >= mine.updated_at).toBe(true);
  });

  it("sets, changes and clears the store and type, taking a store's name for its code", async () => {
    const set = await call(`/api/agents/${mine.id}`, { method: "PUT", token: alice.accessToken, json: { store: "Oklahoma City", type: "outbound" } });
    expect(set.status).toBe(200);
    expect(set.body.agent).toMatchObject({ store: "OKC", type: "outbound" });
    const changed = await call(`/api/agents/${mine.id}`, { method: "PUT", token: alice.accessToken, json: { store: "Naples", type: "inbound" } });
    expect(changed.body.agent).toMatchObject({ store: "NAPLES", type: "inbound" });
    const bad = await call(`/api/agents/${mine.id}`, { method: "PUT", token: alice.accessToken, json: { store: "Orlando" } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("store");
    const cleared = await call(`/api/agents/${mine.id}`, { method: "PUT", token: alice.accessToken, json: { store: null, type: null } });
    expect(cleared.body.agent).toMatchObject({ store: null, type: null });
  });

  it("lets an agent keep its own name in another case", async () => {
    const res = await call(`/api/agents/${mine.id}`, { method: "PUT", token: alice.accessToken, json: { name: "EDITABLE" } });
    expect(res.status).toBe(200);
    expect(res.body.agent.name).toBe("EDITABLE");
  });

  it("refuses renaming onto another agent's name (409) and a blank name (400)", async () => {
    const dup = await call(`/api/agents/${mine.id}`, { method: "PUT", token: alice.accessToken, json: { name: "front desk" } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: AGENT_TEXT.duplicate, code: "duplicate_name", field: "name" });
    const blank = await call(`/api/agents/${mine.id}`, { method: "PUT", token: alice.accessToken, json: { name: "" } });
    expect(blank.status).toBe(400);
    expect(blank.body.field).toBe("name");
    expect((await agentRow(mine.id))!.name).toBe("EDITABLE");
  });

  it("answers 404 for another account's agent and leaves it unchanged", async () => {
    const before = await agentRow(bobs.id);
    expect((await call(`/api/agents/${bobs.id}`, { token: alice.accessToken })).status).toBe(404);
    const put = await call(`/api/agents/${bobs.id}`, { method: "PUT", token: alice.accessToken, json: { name: "Stolen" } });
    expect(put.status).toBe(404);
    const del = await call(`/api/agents/${bobs.id}`, { method: "DELETE", token: alice.accessToken });
    expect(del.status).toBe(404);
    expect(await agentRow(bobs.id)).toEqual(before);
  });

  it("deletes the caller's inactive agent", async () => {
    const doomed = await createAgent(alice, { name: "Short lived" });
    const res = await call(`/api/agents/${doomed.id}`, { method: "DELETE", token: alice.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await call(`/api/agents/${doomed.id}`, { token: alice.accessToken })).status).toBe(404);
  });
});

describe("POST /api/generate-prompt", () => {
  it("writes a prompt from the agent's fields", async () => {
    const res = await call("/api/generate-prompt", {
      method: "POST",
      token: alice.accessToken,
      json: { name: "Front Desk", ...complete },
    });
    expect(res.status).toBe(200);
    expect(res.body.prompt).toContain("Front Desk");
    expect(res.body.prompt).toContain(complete.services);
    expect(res.body.prompt).toContain(complete.agent_instructions);
  });

  it("refuses fields below the form minimums with the spec's message", async () => {
    const res = await call("/api/generate-prompt", {
      method: "POST",
      token: alice.accessToken,
      json: { name: "Front Desk", ...complete, services: "Teeth" },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("services");
    expect(res.body.error).toContain(VALIDATION.servicesMin);
  });

  it("uses the Workers AI binding when it is bound", async () => {
    const seen: Json[] = [];
    const AI = {
      run: async (model: string, input: Json) => {
        seen.push({ model, input });
        return { response: "  You are Front Desk, written by the model.  " };
      },
    };
    const res = await call("/api/generate-prompt", {
      method: "POST",
      token: alice.accessToken,
      json: { name: "Front Desk", ...complete },
      bindings: { AI },
    });
    expect(res.status).toBe(200);
    expect(res.body.prompt).toBe("You are Front Desk, written by the model.");
    expect(JSON.stringify(seen[0].input.messages)).toContain(complete.business_description);
  });
});

describe("POST /api/create-vapi-assistant (activation)", () => {
  it("creates an assistant, stores prompt and id, then updates the same assistant on the next activation", async () => {
    const agent = await createAgent(alice, { name: "Activator", ...complete });
    const first = await activate(alice, agent.id, { name: "Activator", prompt: "You are Activator.", voice_id: DEFAULT_VOICE_ID });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const assistantId = first.body.id as string;
    expect(assistantId).toBeTruthy();
    expect(first.body.agent).toMatchObject({ id: agent.id, vapi_assistant_id: assistantId, prompt: "You are Activator." });
    const sim = await db().select().from(simAssistants).where(eq(simAssistants.id, assistantId)).get();
    expect(sim).toMatchObject({ ownerId: alice.userId, name: "Activator", prompt: "You are Activator." });

    // No prompt given: the server writes one from the agent's fields.
    const second = await activate(alice, agent.id);
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(assistantId);
    const stored = await agentRow(agent.id);
    expect(stored!.vapiAssistantId).toBe(assistantId);
    expect(stored!.prompt).toContain(complete.services);
    const sims = await db().select().from(simAssistants).where(eq(simAssistants.ownerId, alice.userId));
    expect(sims.filter((s) => s.name === "Activator")).toHaveLength(1);
    expect(sims.find((s) => s.id === assistantId)!.prompt).toBe(stored!.prompt);
  });

  it("refuses an unsaved or missing agent id naming agent_id", async () => {
    for (const json of [{}, { agent_id: -1 }, { agent_id: "x" }]) {
      const res = await call("/api/create-vapi-assistant", { method: "POST", token: alice.accessToken, json });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe("agent_id");
      expect(res.body.error).toContain(AGENT_API_TEXT.saveBeforeActivate);
    }
  });

  it("refuses to activate an incomplete agent, naming the field, and leaves it inactive", async () => {
    const agent = await createAgent(alice, { name: "Half done", ...complete, agent_instructions: "Be nice" });
    const res = await activate(alice, agent.id);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("agent_instructions");
    expect(res.body.error).toBe(VALIDATION.agentInstructionsMin);
    expect((await agentRow(agent.id))!.vapiAssistantId).toBeNull();
  });

  it("answers 404 for another account's agent and creates nothing", async () => {
    const bobs = await createAgent(bob, { name: "Bob activatable", ...complete });
    const before = await agentRow(bobs.id);
    const res = await activate(alice, bobs.id);
    expect(res.status).toBe(404);
    expect(await agentRow(bobs.id)).toEqual(before);
    const bobSims = await db().select().from(simAssistants).where(eq(simAssistants.ownerId, bob.userId));
    expect(bobSims).toHaveLength(0);
  });

  it("leaves the agent unchanged when the voice platform fails", async () => {
    const agent = await createAgent(alice, { name: "Unlucky", ...complete });
    const before = await agentRow(agent.id);
    const res = await call("/api/create-vapi-assistant", {
      method: "POST",
      token: alice.accessToken,
      json: { agent_id: agent.id, prompt: "You are Unlucky." },
      bindings: brokenVapi(),
    });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("provider_error");
    expect(await agentRow(agent.id)).toEqual(before);
  });
});

describe("activation and test calls on the real VAPI adapter (stand-in)", () => {
  it("creates the assistant with our webhook and ids, points the agent's imported number at it, and updates it next time", async () => {
    const agent = await createAgent(alice, { name: "Real VAPI agent", ...complete });
    const imported = await vapiStandin("POST", "/phone-number", { provider: "vapi", number: "+13055550155" });
    expect(imported.status).toBe(201);
    await db().insert(phoneNumbers).values({ userId: alice.userId, phoneNumber: "+13055550155", agentId: agent.id, vapiPhoneNumberId: imported.body.id });

    const first = await call("/api/create-vapi-assistant", {
      method: "POST",
      token: alice.accessToken,
      json: { agent_id: agent.id, name: "Real VAPI agent", prompt: "You are the real one.", voice_id: DEFAULT_VOICE_ID },
      bindings: realVapi(),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const assistant = (await vapiStandin("GET", `/assistant/${first.body.id}`)).body;
    expect(assistant.server.url).toBe("http://localhost/api/webhooks/vapi");
    expect(assistant.metadata).toMatchObject({ agentId: String(agent.id), userId: alice.userId });
    expect(assistant.model.messages[0].content).toBe("You are the real one.");
    expect((await vapiStandin("GET", `/phone-number/${imported.body.id}`)).body.assistantId).toBe(first.body.id);

    const second = await call("/api/create-vapi-assistant", {
      method: "POST",
      token: alice.accessToken,
      json: { agent_id: agent.id, prompt: "You are the real one, revised." },
      bindings: realVapi(),
    });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect((await vapiStandin("GET", `/assistant/${first.body.id}`)).body.model.messages[0].content).toBe("You are the real one, revised.");

    // A test call goes out from the agent's own imported number.
    const placed = await call("/api/trigger-call", {
      method: "POST",
      token: alice.accessToken,
      json: { phoneNumber: "+15551230000", agentId: agent.id },
      bindings: realVapi(),
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const platformCall = (await vapiStandin("GET", `/call/${placed.body.callId}`)).body;
    expect(platformCall).toMatchObject({ assistantId: first.body.id, phoneNumberId: imported.body.id, customer: { number: "+15551230000" } });
    expect(await (await shardOf(alice.userId)).select().from(callLogs).where(eq(callLogs.callId, placed.body.callId)).get()).toMatchObject({
      userId: alice.userId,
      agentId: agent.id,
      status: "queued",
    });
  });

  it("calls from the configured VAPI phone number when the agent has none of its own", async () => {
    const s = await signUpAndSignIn();
    const agent = await createAgent(s, { name: "No number", ...complete });
    const bindings = { ...realVapi(), VAPI_PHONE_NUMBER_ID: "pn-configured-default" };
    expect((await call("/api/create-vapi-assistant", { method: "POST", token: s.accessToken, json: { agent_id: agent.id }, bindings })).status).toBe(200);
    const placed = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "2125550100" }, bindings });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const platformCall = (await vapiStandin("GET", `/call/${placed.body.callId}`)).body;
    expect(platformCall).toMatchObject({ phoneNumberId: "pn-configured-default", customer: { number: "+12125550100" } });
  });
});

describe("PATCH /api/agents/:id/deactivate", () => {
  it("deletes the assistant and marks the agent inactive; a second time there is no assistant", async () => {
    const agent = await createAgent(alice, { name: "Deactivatable", ...complete });
    const assistantId = (await activate(alice, agent.id)).body.id as string;
    const res = await call(`/api/agents/${agent.id}/deactivate`, { method: "PATCH", token: alice.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.agent).toMatchObject({ id: agent.id, vapi_assistant_id: null });
    expect(await db().select().from(simAssistants).where(eq(simAssistants.id, assistantId)).get()).toBeUndefined();

    const again = await call(`/api/agents/${agent.id}/deactivate`, { method: "PATCH", token: alice.accessToken });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(AGENT_API_TEXT.noAssistant);
  });

  it("answers 404 for another account's agent and leaves it active", async () => {
    const bobs = await createAgent(bob, { name: "Bob active", ...complete });
    expect((await activate(bob, bobs.id)).status).toBe(200);
    const before = await agentRow(bobs.id);
    const res = await call(`/api/agents/${bobs.id}/deactivate`, { method: "PATCH", token: alice.accessToken });
    expect(res.status).toBe(404);
    expect(await agentRow(bobs.id)).toEqual(before);
    expect(await db().select().from(simAssistants).where(eq(simAssistants.id, before!.vapiAssistantId!)).get()).toBeDefined();
  });

  it("keeps the agent active when the platform delete fails", async () => {
    const agent = await createAgent(alice, { name: "Sticky", ...complete });
    expect((await activate(alice, agent.id)).status).toBe(200);
    const before = await agentRow(agent.id);
    const res = await call(`/api/agents/${agent.id}/deactivate`, { method: "PATCH", token: alice.accessToken, bindings: brokenVapi() });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("provider_error");
    expect(await agentRow(agent.id)).toEqual(before);
  });
});

describe("DELETE /api/agents/:id of an active agent", () => {
  it("removes its assistant and frees its number", async () => {
    const agent = await createAgent(alice, { name: "Numbered", ...complete });
    const [number] = await db()
      .insert(phoneNumbers)
      .values({ userId: alice.userId, phoneNumber: "+13055550101", agentId: agent.id, vapiPhoneNumberId: "sim_pn_numbered" })
      .returning();
    await db().update(agents).set({ twilioNumberId: number.id, assignedPhoneNumber: number.phoneNumber }).where(eq(agents.id, agent.id));
    const assistantId = (await activate(alice, agent.id)).body.id as string;

    const listed = (await call(`/api/agents/${agent.id}`, { token: alice.accessToken })).body.agent;
    expect(listed).toMatchObject({ twilio_number_id: number.id, assigned_phone_number: "+13055550101", phone_number: "+13055550101" });

    const res = await call(`/api/agents/${agent.id}`, { method: "DELETE", token: alice.accessToken });
    expect(res.status).toBe(200);
    expect(await agentRow(agent.id)).toBeUndefined();
    expect(await db().select().from(simAssistants).where(eq(simAssistants.id, assistantId)).get()).toBeUndefined();
    const freed = await db().select().from(phoneNumbers).where(eq(phoneNumbers.id, number.id)).get();
    expect(freed).toMatchObject({ agentId: null, userId: alice.userId });
  });

  it("keeps the agent, its assistant and its number when the platform delete fails", async () => {
    const agent = await createAgent(alice, { name: "Undeletable", ...complete });
    const assistantId = (await activate(alice, agent.id)).body.id as string;
    const res = await call(`/api/agents/${agent.id}`, { method: "DELETE", token: alice.accessToken, bindings: brokenVapi() });
    expect(res.status).toBe(502);
    expect((await agentRow(agent.id))!.vapiAssistantId).toBe(assistantId);
  });
});

describe("POST /api/create-default-agent", () => {
  it("creates complete agents named 'New Agent', 'New Agent 2', …", async () => {
    const s = await signUpAndSignIn();
    const first = await call("/api/create-default-agent", { method: "POST", token: s.accessToken });
    expect(first.status).toBe(201);
    expect(first.body.agent).toMatchObject({ name: "New Agent", voice_id: DEFAULT_VOICE_ID, vapi_assistant_id: null });
    expect(agentFormSchema.safeParse(first.body.agent).success).toBe(true);
    expect(isAgentIncomplete(first.body.agent)).toBe(false);
    const second = await call("/api/create-default-agent", { method: "POST", token: s.accessToken });
    expect(second.body.agent.name).toBe("New Agent 2");
    // Complete, so it can be activated straight away.
    expect((await activate(s, first.body.agent.id)).status).toBe(200);
  });

  it("refuses a new agent beyond the plan's agent limit (basic: 5)", async () => {
    const s = await signUpAndSignIn();
    await db().insert(subscriptions).values({
      id: `sub_${s.userId}`,
      userId: s.userId,
      customerId: "cus_test",
      priceId: "price_basic",
      productName: "Basic",
      status: "active",
    });
    for (let i = 0; i < 5; i++) expect((await call("/api/create-default-agent", { method: "POST", token: s.accessToken })).status).toBe(201);
    const res = await call("/api/create-default-agent", { method: "POST", token: s.accessToken });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "agent_limit_reached", maxAllowed: 5, currentCount: 5 });
    const post = await call("/api/agents", { method: "POST", token: s.accessToken, json: { name: "One more" } });
    expect(post.status).toBe(403);
    const stats = await call("/api/usage-stats", { token: s.accessToken });
    expect(stats.body).toMatchObject({ agents: 5, agentLimit: 5 });
  });

  it("holds the plan's agent limit when creates arrive at the same time", async () => {
    const s = await signUpAndSignIn();
    await db().insert(subscriptions).values({
      id: `sub_${s.userId}`,
      userId: s.userId,
      customerId: "cus_race",
      priceId: "price_basic",
      productName: "Basic",
      status: "active",
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call("/api/agents", { method: "POST", token: s.accessToken, json: { name: `Racer ${i}` } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.body).toMatchObject({ code: "agent_limit_reached", maxAllowed: 5, currentCount: 5 });
    expect(await db().select().from(agents).where(eq(agents.userId, s.userId))).toHaveLength(5);
  });

  it("reads the agent limit from the same plan as the paid resources: past due, an ended trial and no plan keep 5 drafts", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const cases: { plan: "pro" | null; status?: string; trialEnd?: string; state: string }[] = [
      { plan: "pro", status: "past_due", state: "past_due" },
      { plan: "pro", status: "trialing", trialEnd: yesterday, state: "trial_ended" },
      { plan: null, state: "none" },
    ];
    for (const { plan, status, trialEnd, state } of cases) {
      const s = await signUpAndSignIn({ plan: null });
      if (plan) {
        await db().insert(subscriptions).values({ id: `sub_${s.userId}`, userId: s.userId, customerId: "cus_lapsed", priceId: "price_pro", productName: "Pro", status: status!, trialEnd });
      }
      for (let i = 0; i < 5; i++) expect((await call("/api/agents", { method: "POST", token: s.accessToken, json: { name: `Draft ${i}` } })).status).toBe(201);
      const res = await call("/api/agents", { method: "POST", token: s.accessToken, json: { name: "One more" } });
      expect(res.status, state).toBe(403);
      expect(res.body).toMatchObject({ code: "agent_limit_reached", maxAllowed: 5, currentCount: 5, error: AGENT_API_TEXT.agentLimitNoPlan(5), upgradeUrl: "/buy" });
      expect((await call("/api/create-default-agent", { method: "POST", token: s.accessToken })).status).toBe(403);
      // What the screens are told is what was enforced.
      const stats = await call("/api/usage-stats", { token: s.accessToken });
      expect(stats.body).toMatchObject({ plan: null, planState: state, planRequired: true, agents: 5, agentLimit: 5, minuteLimit: null });
    }
  });

  it("does not take the plan from the customer record, which an admin can edit", async () => {
    const s = await signUpAndSignIn({ plan: null });
    await db().insert(customers).values({ userId: s.userId, email: s.email, currentPlan: "pro", subscriptionStatus: "active" });
    const stats = await call("/api/usage-stats", { token: s.accessToken });
    expect(stats.body).toMatchObject({ plan: null, planState: "none", agentLimit: 5 });
  });
});

describe("GET /api/usage-stats", () => {
  it("counts this New York month's calls and minutes of the caller only", async () => {
    const s = await signUpAndSignIn();
    const other = await signUpAndSignIn();
    const { start } = nyMonthRange(new Date());
    const before = new Date(Date.parse(start) - 1000).toISOString();
    const log = (userId: string, n: number, startTime: string, duration: number) => ({
      userId,
      callId: `usage_${userId}_${n}`,
      direction: "outbound" as const,
      status: "ended",
      startTime,
      duration,
    });
    // Each account's calls on its shard (decision 076); the first signed-in request places the profile.
    for (const who of [s, other]) expect((await call("/api/profile", { token: who.accessToken })).status).toBe(200);
    await (await shardOf(s.userId))
      .insert(callLogs)
      .values([log(s.userId, 1, start, 90), log(s.userId, 2, new Date().toISOString(), 45), log(s.userId, 3, before, 600)]);
    await (await shardOf(other.userId)).insert(callLogs).values([log(other.userId, 1, new Date().toISOString(), 300)]);
    await db().insert(phoneNumbers).values({ userId: s.userId, phoneNumber: "+13055550177" });
    await call("/api/create-default-agent", { method: "POST", token: s.accessToken });

    const res = await call("/api/usage-stats", { token: s.accessToken });
    expect(res.status).toBe(200);
    // 135 s = 2.25 min, shown to one decimal.
    expect(res.body).toEqual({
      callsThisMonth: 2,
      minutesThisMonth: 2.3,
      minuteLimit: 5000,
      agents: 1,
      agentLimit: 25,
      numbers: 1,
      numberLimit: 9,
      plan: "pro",
      planState: "subscribed",
      planRequired: false,
    });
  });

  it("says when the account needs a plan for paid resources (activation, numbers, test calls), before it tries one", async () => {
    const noPlan = await signUpAndSignIn({ plan: null });
    const stats = await call("/api/usage-stats", { token: noPlan.accessToken });
    expect(stats.body).toMatchObject({ plan: null, planRequired: true });
    // The same account is refused what the answer said it would be.
    const agent = await createAgent(noPlan, { name: "Front desk", ...complete });
    expect((await activate(noPlan, agent.id as number)).status).toBe(402);

    const basic = await signUpAndSignIn({ plan: "basic" });
    expect((await call("/api/usage-stats", { token: basic.accessToken })).body).toMatchObject({ plan: "basic", planRequired: false });
    // Admins pass the plan check, so nothing is required of them.
    const admin = await signUpAndSignIn({ plan: null, appMetadata: { is_admin: true } });
    expect((await call("/api/usage-stats", { token: admin.accessToken })).body).toMatchObject({ plan: null, planRequired: false });
  });

  it("reads the phone-number limit from system configuration", async () => {
    await db().insert(systemConfig).values({ key: "phone_number_limit", value: "12" }).onConflictDoUpdate({ target: systemConfig.key, set: { value: "12" } });
    const res = await call("/api/usage-stats", { token: alice.accessToken });
    expect(res.body.numberLimit).toBe(12);
    await db().delete(systemConfig).where(eq(systemConfig.key, "phone_number_limit"));
  });
});

describe("POST /api/trigger-call", () => {
  let s: Session;
  let active: Json;
  beforeAll(async () => {
    s = await signUpAndSignIn();
  });

  it("asks for an active agent first", async () => {
    await createAgent(s, { name: "Idle", ...complete });
    const res = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+15551234567" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(AGENT_API_TEXT.activateFirst);
  });

  it("refuses a malformed phone number naming phoneNumber", async () => {
    const res = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "555-12" } });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("phoneNumber");
  });

  it("starts a call from the first active agent and logs it as queued at once", async () => {
    active = await createAgent(s, { name: "Caller", ...complete, store: "TULSA" });
    expect((await activate(s, active.id)).status).toBe(200);
    const res = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "(555) 123-4567" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, callId: expect.any(String) });
    // Logged on the account's shard (decision 076).
    const row = await (await shardOf(s.userId)).select().from(callLogs).where(eq(callLogs.callId, res.body.callId)).get();
    expect(row).toMatchObject({
      userId: s.userId,
      agentId: active.id,
      store: "TULSA",
      direction: "outbound",
      phoneNumber: "+15551234567",
      status: "queued",
    });
    const logs = await call("/api/call-logs", { token: s.accessToken });
    expect(logs.status).toBe(200);
    expect((logs.body.logs as Json[]).map((l) => l.call_id)).toContain(res.body.callId);
    const others = await call("/api/call-logs", { token: bob.accessToken });
    expect((others.body.logs as Json[]).map((l) => l.call_id)).not.toContain(res.body.callId);
  });

  it("refuses another account's agent (404) and an inactive own agent (400 naming agentId)", async () => {
    const bobs = await createAgent(bob, { name: "Bob caller", ...complete });
    expect((await activate(bob, bobs.id)).status).toBe(200);
    const foreign = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+15551234567", agentId: bobs.id } });
    expect(foreign.status).toBe(404);
    const idle = (await call("/api/agents", { token: s.accessToken })).body.agents.find((a: Json) => a.name === "Idle");
    const inactive = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+15551234567", agentId: idle.id } });
    expect(inactive.status).toBe(400);
    expect(inactive.body.field).toBe("agentId");
  });

  it("is rate limited per user", async () => {
    const rule = AGENT_RATE_LIMITS.testCall;
    const windowStart = Math.floor(Date.now() / 1000 / rule.windowSeconds) * rule.windowSeconds;
    await db()
      .insert(rateLimits)
      .values({ key: `${rule.name}:${s.userId}`, windowStart, count: rule.limit })
      .onConflictDoUpdate({ target: rateLimits.key, set: { windowStart, count: rule.limit } });
    const res = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+15551234567" } });
    expect(res.status).toBe(429);
    // Another user is not affected.
    const bobs = await call("/api/trigger-call", { method: "POST", token: bob.accessToken, json: { phoneNumber: "+15551234567" } });
    expect(bobs.status).toBe(200);
    expect(await (await shardOf(bob.userId)).select().from(callLogs).where(and(eq(callLogs.userId, bob.userId), eq(callLogs.callId, bobs.body.callId))).get()).toBeDefined();
  });
});

// ---- the agent endpoints under /api/vapi (the spec's paths for voices and assistant deletion) ----

const vapiBindings = realVapi;
const standinVoice = () => new VapiVoice({ apiKey: VAPI_STANDIN.privateKey, baseUrl: inject("standins").vapi });
const spec = { name: "Naples Desk", prompt: "Answer calls for Naples.", voiceId: "marissa-11labs" };

/** A signed-in account with one active agent holding the given (or a made-up) assistant. */
async function account(opts: { assistantId?: string } = {}) {
  const session = await signUpAndSignIn();
  const assistantId = opts.assistantId ?? `asst-${crypto.randomUUID()}`;
  const agent = await insertAgent(session.userId, { vapiAssistantId: assistantId, name: `Desk ${assistantId.slice(-8)}` }, { store: "NAPLES", type: "outbound" });
  return { ...session, assistantId, agent };
}

describe("GET /api/vapi/voices", () => {
  it("lists the voices, marissa-11labs first", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/vapi/voices", { token: s.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.voices[0]).toMatchObject({ id: "marissa-11labs", provider: "11labs" });
    expect((await call("/api/vapi/voices")).status).toBe(401);
  });
});

describe("DELETE /api/vapi/assistant/:assistantId", () => {
  it("deletes the caller's own assistant and clears it from the agent", async () => {
    const s = await signUpAndSignIn();
    const assistant = await new LocalVoice(db(), { origin: "http://localhost", webhookSecret: null }).createAssistant(s.userId, spec);
    const agent = await insertAgent(s.userId, { vapiAssistantId: assistant.id, name: "Deleting desk" });
    const res = await call(`/api/vapi/assistant/${assistant.id}`, { method: "DELETE", token: s.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, agentId: agent.id });
    expect((await db().query.agents.findFirst({ where: eq(agents.id, agent.id) }))?.vapiAssistantId).toBeNull();
    expect(await db().query.simAssistants.findFirst({ where: eq(simAssistants.id, assistant.id) })).toBeUndefined();
    // Gone now: a second delete finds no agent holding it.
    expect((await call(`/api/vapi/assistant/${assistant.id}`, { method: "DELETE", token: s.accessToken })).status).toBe(404);
  });

  it("deletes at VAPI when VAPI is configured (an assistant already gone there is fine)", async () => {
    const voice = standinVoice();
    const assistant = await voice.createAssistant("x", spec);
    const a = await account({ assistantId: assistant.id });
    const res = await call(`/api/vapi/assistant/${assistant.id}`, { method: "DELETE", token: a.accessToken, bindings: vapiBindings() });
    expect(res.status).toBe(200);
    const check = await fetch(`${inject("standins").vapi}/assistant/${assistant.id}`, { headers: { authorization: `Bearer ${VAPI_STANDIN.privateKey}` } });
    expect(check.status).toBe(404);
    await check.text();

    const gone = await account({ assistantId: crypto.randomUUID() });
    const again = await call(`/api/vapi/assistant/${gone.assistantId}`, { method: "DELETE", token: gone.accessToken, bindings: vapiBindings() });
    expect(again.status).toBe(200);
  });

  it("unpoints the agent's imported number at VAPI, as deactivation does", async () => {
    const voice = standinVoice();
    const assistant = await voice.createAssistant("x", spec);
    const a = await account({ assistantId: assistant.id });
    const imported = await fetch(`${inject("standins").vapi}/phone-number`, {
      method: "POST",
      headers: { authorization: `Bearer ${VAPI_STANDIN.privateKey}`, "content-type": "application/json" },
      body: JSON.stringify({ provider: "vapi", number: "+12395550177", assistantId: assistant.id }),
    }).then((r) => r.json() as Promise<{ id: string; assistantId?: string }>);
    expect(imported.assistantId).toBe(assistant.id);
    await db().insert(phoneNumbers).values({ userId: a.userId, phoneNumber: "+12395550177", agentId: a.agent.id, vapiPhoneNumberId: imported.id });

    const res = await call(`/api/vapi/assistant/${assistant.id}`, { method: "DELETE", token: a.accessToken, bindings: vapiBindings() });
    expect(res.status).toBe(200);
    const number = await fetch(`${inject("standins").vapi}/phone-number/${imported.id}`, { headers: { authorization: `Bearer ${VAPI_STANDIN.privateKey}` } }).then(
      (r) => r.json() as Promise<{ assistantId?: string }>,
    );
    expect(number.assistantId).toBeUndefined();
  });

  it("answers 404 for another account's assistant and leaves it alone", async () => {
    const a = await account();
    const b = await account();
    const res = await call(`/api/vapi/assistant/${b.assistantId}`, { method: "DELETE", token: a.accessToken });
    expect(res.status).toBe(404);
    expect((await db().query.agents.findFirst({ where: eq(agents.id, b.agent.id) }))?.vapiAssistantId).toBe(b.assistantId);
  });

  it("refuses a bad id and signed-out callers", async () => {
    const a = await account();
    const bad = await call(`/api/vapi/assistant/${"x".repeat(201)}`, { method: "DELETE", token: a.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("assistantId");
    expect((await call(`/api/vapi/assistant/${a.assistantId}`, { method: "DELETE" })).status).toBe(401);
  });
});
