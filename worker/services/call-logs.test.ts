// Call-log writes without HTTP: the test call is recorded as queued at once, and a failed write does
// not fail a call that is already ringing.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { agents, callLogs, phoneNumbers, profiles } from "../db/schema";
import { queuedCall, type OutboundCallRequest, type PlatformCall, type VoicePort } from "../providers/voice/port";
import { COMPLETE_AGENT_FIELDS } from "../test/factories";
import { db, shardOf } from "../test/helpers";
import { createAgent } from "./agents";
import { triggerTestCall } from "./call-logs";

const complete = COMPLETE_AGENT_FIELDS;

const unused = () => Promise.reject(new Error("not used by test calls"));

/** A voice port that only places calls, recording what it was asked. */
class StubVoice implements VoicePort {
  readonly kind = "local" as const;
  calls: OutboundCallRequest[] = [];
  ids: string[] = [];
  createAssistant = unused;
  updateAssistant = unused;
  deleteAssistant = unused;
  listVoices = unused;
  listCalls = unused;
  getCall = unused;
  importTwilioNumber = unused;
  setNumberAssistant = unused;
  removeNumber = unused;
  async startOutboundCall(_owner: string, req: OutboundCallRequest): Promise<PlatformCall> {
    this.calls.push(req);
    const id = `stub_call_${crypto.randomUUID()}`;
    this.ids.push(id);
    return queuedCall(id, req);
  }
}

/** The database, except that every INSERT fails (as a D1 outage would at that moment). */
function failingInserts(database: Database): Database {
  return new Proxy(database, {
    get(target, prop) {
      if (prop === "insert") return () => {
        throw new Error("D1_ERROR: database unavailable");
      };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("triggerTestCall", () => {
  it("calls from the agent's imported number, else the configured default, and survives a failed log write", async () => {
    const s = crypto.randomUUID();
    await db().insert(profiles).values({ id: s, email: `${s}@example.com` });
    const plain = await createAgent(db(), s, { name: "Plain", ...complete });
    await db().update(agents).set({ vapiAssistantId: `call_plain_${s}` }).where(eq(agents.id, plain.id));
    const numbered = await createAgent(db(), s, { name: "Numbered", ...complete });
    await db().update(agents).set({ vapiAssistantId: `call_numbered_${s}` }).where(eq(agents.id, numbered.id));
    await db().insert(phoneNumbers).values({ userId: s, phoneNumber: "+13055557777", agentId: numbered.id, vapiPhoneNumberId: "pn_numbered" });

    const voice = new StubVoice();
    const d = { db: db(), shard: await shardOf(s), voice };
    // Default: the first active agent, calling from the configured number.
    await triggerTestCall(d, s, { phoneNumber: "+15550001111" }, "pn_default");
    await triggerTestCall(d, s, { phoneNumber: "+15550001111", agentId: numbered.id }, "pn_default");
    expect(voice.calls.map((c) => [c.assistantId, c.phoneNumberId])).toEqual([
      [`call_plain_${s}`, "pn_default"],
      [`call_numbered_${s}`, "pn_numbered"],
    ]);
    // Recorded as queued at once, owned through the calling agent.
    const logged = await d.shard.select().from(callLogs).where(eq(callLogs.callId, voice.ids[0])).get();
    expect(logged).toMatchObject({ userId: s, agentId: plain.id, store: null, status: "queued", phoneNumber: "+15550001111" });

    const failingLog = { ...d, shard: failingInserts(d.shard) };
    const out = await triggerTestCall(failingLog, s, { phoneNumber: "+15550001111" }, undefined);
    expect(out).toEqual({ callId: voice.ids[2] });
  });
});
