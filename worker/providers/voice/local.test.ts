// The voice simulator: assistants in sim_assistants, and a test call that ends with a report
// delivered through the real webhook route (in-process), exactly once.
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { app } from "../../app";
import { callLogs, simAssistants, webhookEvents } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { upsertCallLogFromPlatform } from "../../services/call-logs";
import { callTextKey } from "../../services/call-text";
import { insertAgent, insertProfile } from "../../test/factories";
import { db, shardOf } from "../../test/helpers";
import { DEV_VAPI_WEBHOOK_SECRET, LocalVoice, SIM_RECORDING_PATH, simulateOutcome, simulatedRecordingWav } from "./local";

function simulator(opts: { secret?: string | null; delayMs?: number } = {}) {
  const pending: Promise<unknown>[] = [];
  const deliveries: { type: string; status: number }[] = [];
  const voice = new LocalVoice(db(), {
    origin: "http://localhost",
    webhookSecret: opts.secret === undefined ? DEV_VAPI_WEBHOOK_SECRET : opts.secret,
    deliver: async (request) => {
      const type = ((await request.clone().json()) as { message: { type: string } }).message.type;
      const res = await app.fetch(request, env);
      deliveries.push({ type, status: res.status });
      return res;
    },
    defer: (p) => pending.push(p),
    delayMs: opts.delayMs ?? 10,
  });
  return { voice, deliveries, settled: () => Promise.all(pending) };
}

const spec = { name: "Tulsa Follow-up", prompt: "Call customers back about their visit.", voiceId: "marissa-11labs" };

async function activeAgent(voice: LocalVoice) {
  const owner = await insertProfile();
  const assistant = await voice.createAssistant(owner.id, spec);
  const agent = await insertAgent(owner.id, { vapiAssistantId: assistant.id, name: `Agent ${assistant.id.slice(-6)}`, store: "TULSA" });
  return { owner, assistant, agent };
}

async function failure(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("LocalVoice assistants", () => {
  it("stores assistants per owner, updates and deletes them", async () => {
    const { voice } = simulator();
    const owner = await insertProfile();
    const a = await voice.createAssistant(owner.id, spec);
    expect(a.id).toMatch(/^sim_asst_[0-9a-f-]{36}$/);
    expect(await db().query.simAssistants.findFirst({ where: eq(simAssistants.id, a.id) })).toMatchObject({ ownerId: owner.id, name: spec.name, voiceId: spec.voiceId });

    await voice.updateAssistant(owner.id, a.id, { ...spec, name: "Renamed", voiceId: "sarah-11labs" });
    expect(await db().query.simAssistants.findFirst({ where: eq(simAssistants.id, a.id) })).toMatchObject({ name: "Renamed", voiceId: "sarah-11labs" });

    // Another owner cannot touch it; the simulator answers like VAPI for an unknown assistant.
    const stranger = await insertProfile();
    const err = await failure(voice.updateAssistant(stranger.id, a.id, spec));
    expect(err.status).toBe(502);
    await voice.deleteAssistant(stranger.id, a.id);
    expect(await db().query.simAssistants.findFirst({ where: eq(simAssistants.id, a.id) })).toBeDefined();

    await voice.deleteAssistant(owner.id, a.id);
    expect(await db().query.simAssistants.findFirst({ where: eq(simAssistants.id, a.id) })).toBeUndefined();
    await expect(voice.deleteAssistant(owner.id, a.id)).resolves.toBeUndefined();
  });

  it("offers a fixed voice catalogue with marissa-11labs first", async () => {
    const voices = await simulator().voice.listVoices();
    expect(voices[0]).toEqual({ id: "marissa-11labs", name: "Marissa", provider: "11labs", gender: "female", accent: "American" });
    expect(voices.length).toBeGreaterThanOrEqual(5);
    for (const v of voices) expect(v).toMatchObject({ id: expect.any(String), name: expect.any(String), provider: expect.any(String) });
  });

  it("imports numbers as sim_pn ids", async () => {
    const n = await simulator().voice.importTwilioNumber({ number: "+19185550100" });
    expect(n).toEqual({ id: expect.stringMatching(/^sim_pn_[0-9a-f-]{36}$/), number: "+19185550100" });
  });
});

describe("LocalVoice test calls", () => {
  it("queues the call, then delivers in-progress and an end-of-call report through the webhook", async () => {
    const sim = simulator();
    const { owner, assistant, agent } = await activeAgent(sim.voice);
    const call = await sim.voice.startOutboundCall(owner.id, { assistantId: assistant.id, customerNumber: "+19185550101" });
    expect(call).toMatchObject({ id: expect.stringMatching(/^sim_call_[0-9a-f-]{36}$/), status: "queued", type: "outboundPhoneCall" });
    // What trigger-call does right away, so the call is listed at once: on the account's shard.
    const shard = await shardOf(owner.id);
    await shard.batch(upsertCallLogFromPlatform(shard, call, { userId: owner.id, agentId: agent.id, store: agent.store }));
    expect((await sim.voice.getCall(call.id))?.status).toBe("queued");

    await sim.settled();
    expect(sim.deliveries).toEqual([
      { type: "status-update", status: 200 },
      { type: "end-of-call-report", status: 200 },
    ]);
    const row = await shard.query.callLogs.findFirst({ where: eq(callLogs.callId, call.id) });
    // The webhook found the same row there: none in the directory.
    expect(await db().query.callLogs.findFirst({ where: eq(callLogs.callId, call.id) })).toBeUndefined();
    const expected = simulateOutcome(call.id, spec.name, row!.startTime);
    expect(row).toMatchObject({
      userId: owner.id,
      agentId: agent.id,
      store: "TULSA",
      assistantId: assistant.id,
      direction: "outbound",
      phoneNumber: "+19185550101",
      status: "ended",
      endedReason: expected.endedReason,
      summary: expected.summary,
      // The transcript is R2's (decision 077).
      transcript: null,
      duration: expected.duration,
      cost: expected.cost,
      recordingUrl: expected.recordingUrl,
      endTime: expected.endedAt,
    });
    expect(row!.summary).toBeTruthy();
    // Each simulated conversation opens with the assistant naming itself ("this is <name>." or "this is <name>, …").
    const stored = (await (await env.CALL_TEXT.get(callTextKey(owner.id, call.id)))?.json()) as { transcript: string };
    expect(stored).toEqual({ transcript: expected.transcript });
    expect(stored.transcript.split("\n")[0]).toMatch(new RegExp(`^AI: .*this is ${spec.name}[.,]`));
    const prefix = `vapi:${call.id}:`;
    const events = await db().select().from(webhookEvents).where(sql`substr(${webhookEvents.id}, 1, ${prefix.length}) = ${prefix}`);
    expect(events.map((e) => e.id).sort()).toEqual([`vapi:${call.id}:end-of-call-report`, `vapi:${call.id}:status-update:in-progress`]);

    // getCall and listCalls read the log.
    const got = await sim.voice.getCall(call.id);
    expect(got).toMatchObject({ id: call.id, status: "ended", assistantId: assistant.id, transcript: expected.transcript });
    const listed = await sim.voice.listCalls({ assistantIds: [assistant.id], limit: 10 });
    expect(listed.map((c) => c.id)).toEqual([call.id]);
  });

  it("creates the row from the webhook alone when nothing was recorded at start", async () => {
    const sim = simulator({ delayMs: 0 });
    const { owner, assistant } = await activeAgent(sim.voice);
    const call = await sim.voice.startOutboundCall(owner.id, { assistantId: assistant.id, customerNumber: "+19185550102" });
    await sim.settled();
    const row = await (await shardOf(owner.id)).query.callLogs.findFirst({ where: eq(callLogs.callId, call.id) });
    expect(row).toMatchObject({ userId: owner.id, status: "ended" });
  });

  it("refuses to start a call for an assistant that is not the owner's", async () => {
    const sim = simulator();
    const { assistant } = await activeAgent(sim.voice);
    const stranger = await insertProfile();
    const err = await failure(sim.voice.startOutboundCall(stranger.id, { assistantId: assistant.id, customerNumber: "+19185550103" }));
    expect(err.status).toBe(502);
    await sim.settled();
    expect(sim.deliveries).toEqual([]);
  });

  it("is refused by the webhook when it carries the wrong secret, and nothing is written", async () => {
    const sim = simulator({ secret: "not-the-secret" });
    const { owner, assistant } = await activeAgent(sim.voice);
    const call = await sim.voice.startOutboundCall(owner.id, { assistantId: assistant.id, customerNumber: "+19185550104" });
    await sim.settled();
    // The first refusal stops the story: the report is never sent.
    expect(sim.deliveries).toEqual([{ type: "status-update", status: 401 }]);
    expect(await db().query.callLogs.findFirst({ where: eq(callLogs.callId, call.id) })).toBeUndefined();
  });
});

describe("simulateOutcome", () => {
  const ids = Array.from({ length: 64 }, (_, i) => `sim_call_00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
  const started = "2026-03-02T15:00:00.000Z";

  it("is chosen by the call id: the same id always tells the same story", () => {
    for (const id of ids.slice(0, 8)) expect(simulateOutcome(id, "Ava", started)).toEqual(simulateOutcome(id, "Ava", started));
  });

  it("gives answered calls a summary, a several-turn AI/Human transcript and a recording", () => {
    const answered = ids.map((id) => ({ id, o: simulateOutcome(id, "Ava", started) })).filter(({ o }) => o.endedReason !== "voicemail");
    expect(answered.length).toBeGreaterThan(0);
    for (const { id, o } of answered) {
      const lines = (o.transcript as string).split("\n");
      expect(lines.length).toBeGreaterThanOrEqual(5);
      expect(lines.every((l) => l.startsWith("AI: ") || l.startsWith("Human: "))).toBe(true);
      expect(lines[0]).toContain("Ava");
      expect(o.summary).toContain("Ava");
      expect(o.recordingUrl).toBe(`${SIM_RECORDING_PATH}/${id}.wav`);
      expect(o.duration).toBeGreaterThanOrEqual(45);
      expect(Date.parse(o.endedAt!) - Date.parse(started)).toBe(o.duration! * 1000);
      expect(o.cost).toBeGreaterThan(0);
    }
  });

  it("sends some calls to voicemail: short message, no recording", () => {
    const voicemail = ids.map((id) => simulateOutcome(id, "Ava", started)).filter((o) => o.endedReason === "voicemail");
    expect(voicemail.length).toBeGreaterThan(0);
    for (const o of voicemail) {
      expect(o.transcript).toMatch(/^AI: Hi, this is Ava\./);
      expect(o.recordingUrl).toBeNull();
      expect(o.duration).toBeLessThan(30);
    }
  });
});

describe("simulatedRecordingWav", () => {
  it("is a playable PCM WAV: RIFF header, 8 kHz mono 16-bit, declared sizes match", () => {
    const wav = simulatedRecordingWav("sim_call_x", 1);
    const v = new DataView(wav.buffer);
    const text = (at: number) => String.fromCharCode(...wav.slice(at, at + 4));
    expect([text(0), text(8), text(12), text(36)]).toEqual(["RIFF", "WAVE", "fmt ", "data"]);
    expect(v.getUint32(4, true)).toBe(wav.length - 8);
    expect(v.getUint32(24, true)).toBe(8000);
    expect(v.getUint16(22, true)).toBe(1);
    expect(v.getUint32(40, true)).toBe(wav.length - 44);
  });
});
