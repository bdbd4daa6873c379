// VAPI's webhook protocol without HTTP: one reader authenticates, parses and names each event, and the
// message types it handles are exactly the ones the adapters subscribe to. (The route's effects on the
// call log are tested in routes/vapi-webhook.test.ts.)
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { readEvent, VAPI_SERVER_MESSAGES } from "./vapi-webhook";

const SECRET = "webhook-secret-for-tests";
const NOW = Date.parse("2026-03-02T15:05:00Z");
const headers = (h: Record<string, string> = { "x-vapi-secret": SECRET }) => new Headers(h);
const call = { id: "call-1", type: "outboundPhoneCall", status: "queued", assistantId: "asst-1", createdAt: "2026-03-02T15:00:00Z" };
const body = (message: Record<string, unknown>) => JSON.stringify({ message });

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("readEvent", () => {
  it("names one event per status update and one per end-of-call report", async () => {
    const update = await readEvent(headers(), body({ type: "status-update", status: "ringing", call }), SECRET, NOW);
    expect(update).toMatchObject({ id: "vapi:call-1:status-update:ringing", provider: "vapi", type: "status-update", call: { id: "call-1", status: "ringing" } });
    const report = await readEvent(headers(), body({ type: "end-of-call-report", endedReason: "voicemail", call }), SECRET, NOW);
    expect(report).toMatchObject({ id: "vapi:call-1:end-of-call-report", type: "end-of-call-report", call: { status: "ended", endedReason: "voicemail" } });
  });

  it("answers null for an authentic message of a type it does not handle", async () => {
    expect(await readEvent(headers(), body({ type: "transcript", transcript: "hello" }), SECRET, NOW)).toBeNull();
  });

  it("authenticates before it parses: no secret, a wrong one, or none configured is a 401", async () => {
    for (const [h, secret] of [
      [headers({}), SECRET],
      [headers({ "x-vapi-secret": "wrong" }), SECRET],
      [headers(), null],
    ] as const) {
      expect((await refusal(readEvent(h, "{not json", secret, NOW))).status).toBe(401);
    }
  });

  it("names the bad field of a message it handles", async () => {
    const err = await refusal(readEvent(headers(), body({ type: "status-update", status: "ringing", call: { ...call, id: "" } }), SECRET, NOW));
    expect(err).toMatchObject({ status: 400, field: "message.call.id" });
    expect((await refusal(readEvent(headers(), "{not json", SECRET, NOW))).field).toBe("body");
  });

  it("handles exactly the messages the adapters subscribe to", () => {
    expect([...VAPI_SERVER_MESSAGES].sort()).toEqual(["end-of-call-report", "status-update"]);
  });
});
