// Agent rules tested without HTTP, with stub voice ports that fail at chosen steps.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { agents, phoneNumbers, profiles, subscriptions } from "../db/schema";
import { ApiError } from "../lib/errors";
import { LocalPromptWriter } from "../providers/prompt/local";
import { queuedCall, type Assistant, type AssistantSpec, type OutboundCallRequest, type PlatformCall, type VoicePort } from "../providers/voice/port";
import { COMPLETE_AGENT_FIELDS } from "../test/factories";
import { db } from "../test/helpers";
import { activateAgent, createAgent, deactivateAgent, deleteAgent, type AgentDeps } from "./agents";

const complete = COMPLETE_AGENT_FIELDS;

type Step = "create" | "update" | "delete" | "number" | "call";

/** A voice port that records what it was asked and fails at the steps it is told to. */
class StubVoice implements VoicePort {
  readonly kind = "local" as const;
  log: string[] = [];
  specs: AssistantSpec[] = [];
  calls: OutboundCallRequest[] = [];
  /** Ids of the assistants created, unique across instances (agents_assistant_uq). */
  ids: string[] = [];
  constructor(
    private failAt: Step[] = [],
    private during: Partial<Record<Step, () => Promise<void>>> = {},
  ) {}
  private async step(step: Step, entry: string) {
    this.log.push(entry);
    await this.during[step]?.();
    if (this.failAt.includes(step)) throw new Error(`${step} refused`);
  }
  async createAssistant(_owner: string, spec: AssistantSpec): Promise<Assistant> {
    const id = `stub_${crypto.randomUUID().slice(0, 8)}`;
    this.ids.push(id);
    this.specs.push(spec);
    await this.step("create", `create ${id}`);
    return { id, name: spec.name, voiceId: spec.voiceId };
  }
  async updateAssistant(_owner: string, id: string, spec: AssistantSpec): Promise<Assistant> {
    this.specs.push(spec);
    await this.step("update", `update ${id}`);
    return { id, name: spec.name, voiceId: spec.voiceId };
  }
  async deleteAssistant(_owner: string, id: string) {
    await this.step("delete", `delete ${id}`);
  }
  async setNumberAssistant(numberId: string, assistantId: string | null) {
    await this.step("number", `number ${numberId} -> ${assistantId}`);
  }
  async startOutboundCall(_owner: string, req: OutboundCallRequest): Promise<PlatformCall> {
    this.calls.push(req);
    await this.step("call", `call ${req.customerNumber}`);
    return queuedCall(`stub_call_${this.calls.length}`, req);
  }
  async listVoices() {
    return [];
  }
  async listCalls() {
    return [];
  }
  async getCall() {
    return null;
  }
  async importTwilioNumber(input: { number: string }) {
    return { id: "stub_pn", number: input.number };
  }
  async removeNumber() {}
}

/** Adoption is proved in orphan-calls.test.ts: here the account's shard is the directory's stand-in. */
const deps = (voice: VoicePort, database: Database = db()): AgentDeps => ({ db: database, shard: database, voice, prompt: new LocalPromptWriter(), text: env.CALL_TEXT });

/** The database, except that every UPDATE fails (as a D1 outage would at that moment). */
function failingUpdates(database: Database): Database {
  return new Proxy(database, {
    get(target, prop) {
      if (prop === "update") return () => {
        throw new Error("D1_ERROR: database unavailable");
      };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

let userId: string;
let seq = 0;
async function newAgent(extra: Partial<typeof agents.$inferInsert> = {}) {
  const created = await createAgent(db(), userId, { name: `Agent ${++seq}`, ...complete });
  if (Object.keys(extra).length) await db().update(agents).set(extra).where(eq(agents.id, created.id));
  return (await db().select().from(agents).where(eq(agents.id, created.id)).get())!;
}
const reload = (id: number) => db().select().from(agents).where(eq(agents.id, id)).get();

beforeAll(async () => {
  userId = crypto.randomUUID();
  await db().insert(profiles).values({ id: userId, email: `${userId}@example.com` });
  // A Pro plan (25 agents): the tests here create more agents than an account without a plan may keep.
  await db().insert(subscriptions).values({ id: `sub_${userId}`, userId, customerId: "c", priceId: "p", productName: "Pro", status: "active" });
});

describe("activateAgent", () => {
  it("creates the assistant with our webhook and ids, then stores prompt and id", async () => {
    const agent = await newAgent();
    const voice = new StubVoice();
    const out = await activateAgent(deps(voice), userId, { agent_id: agent.id, prompt: "Be helpful." });
    expect(out.assistantId).toBe(voice.ids[0]);
    expect(voice.specs[0]).toEqual({
      name: agent.name,
      prompt: "Be helpful.",
      voiceId: "marissa-11labs",
      metadata: { agentId: String(agent.id), userId },
    });
    expect(await reload(agent.id)).toMatchObject({ vapiAssistantId: voice.ids[0], prompt: "Be helpful." });
  });

  it("updates the existing assistant instead of creating another", async () => {
    const agent = await newAgent({ vapiAssistantId: `existing_${seq}` });
    const voice = new StubVoice();
    const out = await activateAgent(deps(voice), userId, { agent_id: agent.id, voice_id: "sarah-11labs" });
    expect(out.assistantId).toBe(agent.vapiAssistantId);
    expect(voice.log).toEqual([`update ${agent.vapiAssistantId}`]);
    expect(await reload(agent.id)).toMatchObject({ vapiAssistantId: agent.vapiAssistantId, voiceId: "sarah-11labs" });
  });

  it("turns a platform failure into a provider error and writes nothing", async () => {
    const agent = await newAgent();
    const voice = new StubVoice(["create"]);
    const err = await activateAgent(deps(voice), userId, { agent_id: agent.id }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 502, code: "provider_error" });
    expect(await reload(agent.id)).toEqual(agent);
  });

  it("a failed update leaves the stored prompt as it was", async () => {
    const agent = await newAgent({ vapiAssistantId: `kept_${seq}`, prompt: "Old prompt" });
    const err = await activateAgent(deps(new StubVoice(["update"])), userId, { agent_id: agent.id, prompt: "New" }).catch((e) => e);
    expect(err).toMatchObject({ status: 502 });
    expect(await reload(agent.id)).toEqual(agent);
  });

  it("removes the just-created assistant when the database write fails", async () => {
    const agent = await newAgent();
    const voice = new StubVoice();
    const err = await activateAgent(deps(voice, failingUpdates(db())), userId, { agent_id: agent.id }).catch((e) => e);
    expect(String(err)).toContain("database unavailable");
    expect(voice.log).toEqual([`create ${voice.ids[0]}`, `delete ${voice.ids[0]}`]);
    expect(await reload(agent.id)).toEqual(agent);
  });

  it("removes the just-created assistant when another request activated the agent meanwhile", async () => {
    const agent = await newAgent();
    const voice = new StubVoice([], {
      create: async () => {
        await db().update(agents).set({ vapiAssistantId: `other_${agent.id}` }).where(eq(agents.id, agent.id));
      },
    });
    const err = await activateAgent(deps(voice), userId, { agent_id: agent.id }).catch((e) => e);
    expect(err).toMatchObject({ status: 409 });
    expect(voice.log).toEqual([`create ${voice.ids[0]}`, `delete ${voice.ids[0]}`]);
    expect((await reload(agent.id))!.vapiAssistantId).toBe(`other_${agent.id}`);
  });

  it("points the agent's imported number at the new assistant, and undoes everything if that fails", async () => {
    const agent = await newAgent();
    await db().insert(phoneNumbers).values({ userId, phoneNumber: `+1305555${1000 + seq}`, agentId: agent.id, vapiPhoneNumberId: `pn_${seq}` });
    const ok = new StubVoice();
    await activateAgent(deps(ok), userId, { agent_id: agent.id });
    expect(ok.log).toEqual([`create ${ok.ids[0]}`, `number pn_${seq} -> ${ok.ids[0]}`]);

    const other = await newAgent();
    await db().insert(phoneNumbers).values({ userId, phoneNumber: `+1305555${1000 + seq}`, agentId: other.id, vapiPhoneNumberId: `pn_${seq}` });
    const failing = new StubVoice(["number"]);
    const err = await activateAgent(deps(failing), userId, { agent_id: other.id }).catch((e) => e);
    expect(err).toMatchObject({ status: 502 });
    const id = failing.ids[0];
    expect(failing.log).toEqual([`create ${id}`, `number pn_${seq} -> ${id}`, `number pn_${seq} -> null`, `delete ${id}`]);
    expect(await reload(other.id)).toEqual(other);
  });

  it("of two simultaneous activations, the loser never touches the number the winner pointed", async () => {
    const agent = await newAgent();
    await db().insert(phoneNumbers).values({ userId, phoneNumber: `+1305557${1000 + seq}`, agentId: agent.id, vapiPhoneNumberId: `pnr_${seq}` });
    // Both requests have created their assistant before either goes on.
    let created = 0;
    let release!: () => void;
    const bothCreated = new Promise<void>((resolve) => (release = resolve));
    const voice = new StubVoice([], {
      create: async () => {
        if (++created === 2) release();
        await bothCreated;
      },
    });
    const results = await Promise.allSettled([
      activateAgent(deps(voice), userId, { agent_id: agent.id }),
      activateAgent(deps(voice), userId, { agent_id: agent.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
    const stored = (await reload(agent.id))!.vapiAssistantId;
    const loser = voice.ids.find((id) => id !== stored)!;
    // The number ends up pointing at the assistant the agent holds, and the loser's assistant is gone.
    const numberSteps = voice.log.filter((l) => l.startsWith(`number pnr_${seq}`));
    expect(numberSteps).toEqual([`number pnr_${seq} -> ${stored}`]);
    expect(voice.log).toContain(`delete ${loser}`);
    expect(voice.log).not.toContain(`delete ${stored}`);
  });

  it("refuses an incomplete agent before touching the platform", async () => {
    const agent = await newAgent({ services: "Bikes" });
    const voice = new StubVoice();
    const err = await activateAgent(deps(voice), userId, { agent_id: agent.id }).catch((e) => e);
    expect(err).toMatchObject({ status: 400, field: "services" });
    expect(voice.log).toEqual([]);
  });
});

describe("deactivateAgent and deleteAgent", () => {
  it("deactivation deletes the assistant, unpoints the number and clears the id", async () => {
    const agent = await newAgent({ vapiAssistantId: `deact_${seq}` });
    await db().insert(phoneNumbers).values({ userId, phoneNumber: `+1305556${1000 + seq}`, agentId: agent.id, vapiPhoneNumberId: `pnd_${seq}` });
    const voice = new StubVoice();
    const out = await deactivateAgent(deps(voice), userId, agent.id);
    expect(voice.log).toEqual([`delete ${agent.vapiAssistantId}`, `number pnd_${seq} -> null`]);
    expect(out.vapiAssistantId).toBeNull();
  });

  it("a failed platform delete leaves the agent active", async () => {
    const agent = await newAgent({ vapiAssistantId: `stay_${seq}` });
    const err = await deactivateAgent(deps(new StubVoice(["delete"])), userId, agent.id).catch((e) => e);
    expect(err).toMatchObject({ status: 502, code: "provider_error" });
    expect(await reload(agent.id)).toEqual(agent);
  });

  it("another account's agent is not found, for every action", async () => {
    const agent = await newAgent({ vapiAssistantId: `mine_${seq}` });
    const voice = new StubVoice();
    for (const act of [
      () => deactivateAgent(deps(voice), "someone-else", agent.id),
      () => deleteAgent(deps(voice), "someone-else", agent.id),
      () => activateAgent(deps(voice), "someone-else", { agent_id: agent.id }),
    ]) {
      expect(await act().catch((e) => e)).toMatchObject({ status: 404 });
    }
    expect(voice.log).toEqual([]);
    expect(await reload(agent.id)).toEqual(agent);
  });
});
