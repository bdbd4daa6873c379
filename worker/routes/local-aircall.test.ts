// POST /api/local/aircall/simulate: the local simulator's calls go through the real webhook route.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { aircallCalls, webhookEvents } from "../db/schema";
import { standinCompany } from "../test/aircall";
import { call, db, signUpAndSignIn } from "../test/helpers";
import { PRODUCTION_BINDINGS } from "../test/production";

let token = "";
beforeAll(async () => {
  token = (await signUpAndSignIn({ appMetadata: { call_app: true } })).accessToken;
});

/** `as` null: signed out. */
const simulate = (json: unknown, bindings?: Record<string, unknown>, as: string | null = token) =>
  call("/api/local/aircall/simulate", { method: "POST", json, bindings, token: as ?? undefined });
const row = (id: string) => db().query.aircallCalls.findFirst({ where: eq(aircallCalls.aircallId, id) });

describe("POST /api/local/aircall/simulate", () => {
  it("posts an answered call's events through the webhook route, with the token, into one row", async () => {
    const res = await simulate({ scenario: "answered", store: "NAPLES", userName: "Ana Lopez" });
    expect(res.status).toBe(200);
    expect(res.body.deliveries).toEqual([
      { event: "call.created", status: 200 },
      { event: "call.answered", status: 200 },
      { event: "call.ended", status: 200 },
    ]);
    expect(await row(res.body.callId)).toMatchObject({
      direction: "inbound",
      status: "done",
      answered: true,
      userName: "Ana Lopez",
      numberName: "Naples.",
      store: "NAPLES",
      transferredToStore: false,
    });
    const events = await db().select().from(webhookEvents).where(eq(webhookEvents.provider, "aircall"));
    expect(events.filter((e) => e.id.includes(`:${res.body.callId}:`))).toHaveLength(3);
  });

  it("simulates transfers to the store, missed calls and voicemails as Aircall reports them", async () => {
    const transferred = await simulate({ scenario: "transferred", store: "WOODLANDS" });
    expect(await row(transferred.body.callId)).toMatchObject({ store: "WOODLANDS", transferredTo: "Woodlands.", transferredToStore: true, userName: "Local Agent" });

    const missed = await simulate({ scenario: "missed", store: "TULSA" });
    expect(await row(missed.body.callId)).toMatchObject({ answered: false, userName: null, status: "done", store: "TULSA" });

    const voicemail = await simulate({ scenario: "voicemail" });
    expect(voicemail.body.deliveries.map((d: { event: string }) => d.event)).toEqual(["call.created", "call.voicemail_left", "call.ended"]);
    expect(await row(voicemail.body.callId)).toMatchObject({ answered: false, userName: null, store: "MIAMI" });

    const outbound = await simulate({ scenario: "outbound", store: "OKC" });
    expect(await row(outbound.body.callId)).toMatchObject({ direction: "outbound", answered: true, numberName: "Oklahoma City" });
  });

  it("names the bad field", async () => {
    const res = await simulate({ scenario: "conference" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error", field: "scenario" });
    expect((await simulate({ senario: "missed" })).status).toBe(400);
  });

  it("needs a signed-in account with call_app, like the Aircall data it writes", async () => {
    expect((await simulate({}, undefined, null)).status).toBe(401);
    const plain = await signUpAndSignIn();
    expect((await simulate({}, undefined, plain.accessToken)).status).toBe(403);
  });

  it("does not exist with the real Aircall adapter, nor in production", async () => {
    expect((await simulate({}, standinCompany().bindings)).status).toBe(404);
    expect((await simulate({}, PRODUCTION_BINDINGS)).status).toBe(404);
  });
});
