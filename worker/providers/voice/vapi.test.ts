// The real VAPI adapter against the VAPI stand-in, over real HTTP with VAPI's paths and shapes.
import { describe, expect, inject, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { VAPI_STANDIN } from "../../test/standins/vapi";
import { VapiVoice, VAPI_ASSISTANT_MODEL } from "./vapi";

const base = () => inject("standins").vapi;
const SECRET = "webhook-secret-for-tests";
const ORIGIN = "https://app.example.com";
const SERVER_URL = `${ORIGIN}/api/webhooks/vapi`;

const adapter = (over: Partial<ConstructorParameters<typeof VapiVoice>[0]> = {}) =>
  new VapiVoice({
    apiKey: VAPI_STANDIN.privateKey,
    baseUrl: base(),
    webhookSecret: SECRET,
    origin: ORIGIN,
    defaultPhoneNumberId: "pn-default",
    twilioAccountSid: "AC_test",
    twilioAuthToken: "twilio-token",
    ...over,
  });

/** Reads the stand-in's copy of a resource, as VAPI's own GET endpoints return it. */
async function vapiGet(path: string) {
  const res = await fetch(`${base()}${path}`, { headers: { authorization: `Bearer ${VAPI_STANDIN.privateKey}` } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function endCall(id: string, fields: Record<string, unknown>) {
  const res = await fetch(`${base()}/__standin/calls/${id}/end`, {
    method: "POST",
    headers: { authorization: `Bearer ${VAPI_STANDIN.privateKey}`, "content-type": "application/json" },
    body: JSON.stringify(fields),
  });
  expect(res.status).toBe(200);
}

async function providerFailure(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect(err.status).toBe(502);
  expect(err.code).toBe("provider_error");
  return err as ApiError;
}

const spec = { name: "Miami Front Desk", prompt: "You answer calls for the Miami store.", voiceId: "marissa-11labs", metadata: { agentId: "7" } };

describe("VapiVoice assistants", () => {
  it("creates an assistant with the model, voice, webhook server and metadata VAPI expects", async () => {
    const a = await adapter().createAssistant("user-1", spec);
    expect(a).toEqual({ id: expect.any(String), name: "Miami Front Desk", voiceId: "marissa-11labs" });
    const { body } = await vapiGet(`/assistant/${a.id}`);
    expect(body.name).toBe("Miami Front Desk");
    expect(body.firstMessage).toContain("Miami Front Desk");
    expect(body.model).toEqual({ ...VAPI_ASSISTANT_MODEL, messages: [{ role: "system", content: spec.prompt }] });
    expect(body.voice).toEqual({ provider: "11labs", voiceId: "marissa" });
    expect(body.server).toEqual({ url: SERVER_URL, headers: { "x-vapi-secret": SECRET } });
    expect(body.serverMessages).toEqual(["end-of-call-report", "status-update"]);
    expect(body.metadata).toEqual({ agentId: "7", ownerId: "user-1" });
  });

  it("builds the server URL from the origin it is given, and cuts names to VAPI's 40 characters", async () => {
    const long = "A".repeat(60);
    const a = await adapter({ origin: "https://other.example.com" }).createAssistant("user-1", { ...spec, name: long });
    const { body } = await vapiGet(`/assistant/${a.id}`);
    expect(body.name).toBe("A".repeat(40));
    expect(body.server.url).toBe("https://other.example.com/api/webhooks/vapi");
  });

  it("updates an assistant's prompt and voice; an unknown assistant is a provider error", async () => {
    const v = adapter();
    const a = await v.createAssistant("user-1", spec);
    const updated = await v.updateAssistant("user-1", a.id, { ...spec, prompt: "New prompt for the store.", voiceId: "elliot-vapi" });
    expect(updated).toMatchObject({ id: a.id, voiceId: "elliot-vapi" });
    const { body } = await vapiGet(`/assistant/${a.id}`);
    expect(body.voice).toEqual({ provider: "vapi", voiceId: "Elliot" });
    expect(body.model.messages[0].content).toBe("New prompt for the store.");

    const err = await providerFailure(v.updateAssistant("user-1", "no-such-assistant", spec));
    expect(err.message).toBe("VAPI: 404 Couldn't Find Assistant");
  });

  it("deletes an assistant, and deleting one that is already gone is not an error", async () => {
    const v = adapter();
    const a = await v.createAssistant("user-1", spec);
    await v.deleteAssistant("user-1", a.id);
    expect((await vapiGet(`/assistant/${a.id}`)).status).toBe(404);
    await expect(v.deleteAssistant("user-1", a.id)).resolves.toBeUndefined();
  });

  it("offers the curated voices, marissa-11labs first", async () => {
    const voices = await adapter().listVoices();
    expect(voices[0]).toMatchObject({ id: "marissa-11labs", provider: "11labs", gender: "female" });
    expect(new Set(voices.map((v) => v.id)).size).toBe(voices.length);
  });
});

describe("VapiVoice calls", () => {
  it("starts an outbound call with assistantId, phoneNumberId and customer.number", async () => {
    const v = adapter();
    const a = await v.createAssistant("user-1", spec);
    const call = await v.startOutboundCall("user-1", { assistantId: a.id, customerNumber: "+13055550123", phoneNumberId: "pn-own", metadata: { agentId: "7" } });
    expect(call).toMatchObject({ assistantId: a.id, type: "outboundPhoneCall", status: "queued", customer: { number: "+13055550123" }, phoneNumberId: "pn-own" });
    const { body } = await vapiGet(`/call/${call.id}`);
    expect(body).toMatchObject({ assistantId: a.id, phoneNumberId: "pn-own", customer: { number: "+13055550123" }, metadata: { agentId: "7" } });
  });

  it("falls back to the configured caller number", async () => {
    const v = adapter();
    const a = await v.createAssistant("user-1", spec);
    const call = await v.startOutboundCall("user-1", { assistantId: a.id, customerNumber: "+13055550124" });
    expect((await vapiGet(`/call/${call.id}`)).body.phoneNumberId).toBe("pn-default");
  });

  it("normalises an ended call: summary, transcript, recording, cost and duration", async () => {
    const v = adapter();
    const a = await v.createAssistant("user-1", spec);
    const call = await v.startOutboundCall("user-1", { assistantId: a.id, customerNumber: "+13055550125" });
    await endCall(call.id, {
      status: "ended",
      endedReason: "customer-ended-call",
      startedAt: "2026-03-02T15:00:00.000Z",
      endedAt: "2026-03-02T15:01:35.400Z",
      cost: 0.21,
      analysis: { summary: "The customer booked an eye exam." },
      artifact: { transcript: "AI: Hello\nUser: Hi", recordingUrl: "https://storage.vapi.ai/rec.wav", messages: [] },
    });
    const got = await v.getCall(call.id);
    expect(got).toEqual({
      id: call.id,
      assistantId: a.id,
      type: "outboundPhoneCall",
      status: "ended",
      endedReason: "customer-ended-call",
      customer: { number: "+13055550125" },
      phoneNumberId: "pn-default",
      startedAt: "2026-03-02T15:00:00.000Z",
      endedAt: "2026-03-02T15:01:35.400Z",
      createdAt: call.createdAt,
      summary: "The customer booked an eye exam.",
      transcript: "AI: Hello\nUser: Hi",
      recordingUrl: "https://storage.vapi.ai/rec.wav",
      cost: 0.21,
      duration: 95,
    });
  });

  it("reads the older top-level summary/recordingUrl fields and builds a transcript from messages", async () => {
    const v = adapter();
    const a = await v.createAssistant("user-1", spec);
    const call = await v.startOutboundCall("user-1", { assistantId: a.id, customerNumber: "+13055550126" });
    await endCall(call.id, {
      status: "ended",
      summary: "Left a voicemail.",
      recordingUrl: "https://storage.vapi.ai/old.wav",
      artifact: { messages: [{ role: "system", message: "prompt" }, { role: "bot", message: "Hi there" }, { role: "user", message: "Hello" }] },
    });
    const got = await v.getCall(call.id);
    expect(got?.summary).toBe("Left a voicemail.");
    expect(got?.recordingUrl).toBe("https://storage.vapi.ai/old.wav");
    expect(got?.transcript).toEqual([
      { role: "assistant", content: "Hi there" },
      { role: "user", content: "Hello" },
    ]);
    expect(got?.duration).toBeNull();
  });

  it("lists the calls of several assistants, newest first, up to the limit", async () => {
    const v = adapter();
    const a1 = await v.createAssistant("user-1", spec);
    const a2 = await v.createAssistant("user-1", { ...spec, name: "Second" });
    const other = await v.createAssistant("user-2", { ...spec, name: "Other" });
    const c1 = await v.startOutboundCall("user-1", { assistantId: a1.id, customerNumber: "+13055550130" });
    await new Promise((r) => setTimeout(r, 5));
    const c2 = await v.startOutboundCall("user-1", { assistantId: a2.id, customerNumber: "+13055550131" });
    await new Promise((r) => setTimeout(r, 5));
    const c3 = await v.startOutboundCall("user-1", { assistantId: a1.id, customerNumber: "+13055550132" });
    await v.startOutboundCall("user-2", { assistantId: other.id, customerNumber: "+13055550133" });

    const all = await v.listCalls({ assistantIds: [a1.id, a2.id], limit: 10 });
    expect(all.map((c) => c.id)).toEqual([c3.id, c2.id, c1.id]);
    const two = await v.listCalls({ assistantIds: [a1.id, a2.id], limit: 2 });
    expect(two.map((c) => c.id)).toEqual([c3.id, c2.id]);
    expect(await v.listCalls({ assistantIds: [], limit: 10 })).toEqual([]);
  });

  it("answers null for a call VAPI does not know", async () => {
    expect(await adapter().getCall("00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});

describe("VapiVoice phone numbers", () => {
  it("imports a Twilio number with the account's credentials and points it at an assistant", async () => {
    const v = adapter();
    const a = await v.createAssistant("user-1", spec);
    const imported = await v.importTwilioNumber({ number: "+13055550199", name: "Miami line", assistantId: a.id });
    expect(imported).toEqual({ id: expect.any(String), number: "+13055550199" });
    const { body } = await vapiGet(`/phone-number/${imported.id}`);
    expect(body).toMatchObject({ provider: "twilio", number: "+13055550199", twilioAccountSid: "AC_test", name: "Miami line", assistantId: a.id });

    const b = await v.createAssistant("user-1", { ...spec, name: "Other desk" });
    await v.setNumberAssistant(imported.id, b.id);
    expect((await vapiGet(`/phone-number/${imported.id}`)).body.assistantId).toBe(b.id);
    await v.setNumberAssistant(imported.id, null);
    expect((await vapiGet(`/phone-number/${imported.id}`)).body.assistantId).toBeUndefined();
  });

  it("removes an imported number; one already gone is not an error", async () => {
    const v = adapter();
    const imported = await v.importTwilioNumber({ number: "+13055550197" });
    await v.removeNumber(imported.id);
    expect((await vapiGet(`/phone-number/${imported.id}`)).status).toBe(404);
    await expect(v.removeNumber(imported.id)).resolves.toBeUndefined();
  });

  it("refuses an import without Twilio credentials before calling VAPI", async () => {
    const err = await providerFailure(adapter({ twilioAccountSid: undefined, twilioAuthToken: undefined }).importTwilioNumber({ number: "+13055550198" }));
    expect(err.message).toMatch(/Twilio credentials/);
  });
});

describe("VapiVoice errors", () => {
  it("sends the private key as a bearer token; a wrong key is a provider error", async () => {
    const err = await providerFailure(adapter({ apiKey: "wrong-key" }).createAssistant("user-1", spec));
    expect(err.message).toMatch(/^VAPI: 401 Invalid Key/);
  });

  it("passes VAPI's validation messages through", async () => {
    const v = adapter();
    const err = await providerFailure(v.startOutboundCall("user-1", { assistantId: "x", customerNumber: "not-a-number" }));
    expect(err.message).toMatch(/^VAPI: 400 .*customer\.number must be a valid phone number/);
  });

  it("turns an unreachable VAPI into a provider error", async () => {
    const unreachable = (async () => {
      throw new TypeError("Network connection lost.");
    }) as typeof fetch;
    const err = await providerFailure(adapter({ fetch: unreachable }).listCalls({ assistantIds: ["a"], limit: 1 }));
    expect(err.message).toBe("VAPI: network error: Network connection lost.");
  });
});
