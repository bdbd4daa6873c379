// The phone-number rules with recording ports: the voice-platform link follows the agent link
// (and is undone with it), and a purchase that cannot be completed leaves nothing behind.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { agents, phoneNumbers } from "../db/schema";
import { parseConfig } from "../env";
import { ApiError, providerError } from "../lib/errors";
import { LocalTelephony, localInventory } from "../providers/telephony/local";
import type { PurchasedNumber, TelephonyPort } from "../providers/telephony/port";
import type { VoicePort } from "../providers/voice/port";
import { insertAgent, insertPhoneNumber, insertProfile } from "../test/factories";
import { db } from "../test/helpers";
import { createDb } from "../db/client";
import { assignNumber, buyNumber, unassignNumber } from "./phone-numbers";

const config = parseConfig({ ...env, APP_ENV: "test" });

/** A voice port that records the number calls and fails when told to. */
function recordingVoice(opts: { failImport?: boolean; failLink?: boolean } = {}) {
  const calls: unknown[][] = [];
  const unused = () => {
    throw new Error("not used here");
  };
  const voice: VoicePort = {
    kind: "local",
    createAssistant: unused,
    updateAssistant: unused,
    deleteAssistant: unused,
    listVoices: unused,
    startOutboundCall: unused,
    listCalls: unused,
    getCall: unused,
    async importTwilioNumber(input) {
      calls.push(["import", input]);
      if (opts.failImport) throw providerError("VAPI", "Invalid Twilio credentials");
      return { id: `vapi-${input.number}`, number: input.number };
    },
    async setNumberAssistant(phoneNumberId, assistantId) {
      calls.push(["link", phoneNumberId, assistantId]);
      if (opts.failLink) throw providerError("VAPI", "Phone number not found");
    },
    async removeNumber(phoneNumberId) {
      calls.push(["remove", phoneNumberId]);
    },
  };
  return { voice, calls };
}

const numberRow = async (id: number) => (await db().select().from(phoneNumbers).where(eq(phoneNumbers.id, id)))[0];
const agentRow = async (id: number) => (await db().select().from(agents).where(eq(agents.id, id)))[0];

async function setup(numberOverrides: Partial<typeof phoneNumbers.$inferInsert> = {}) {
  const profile = await insertProfile();
  const agent = await insertAgent(profile.id, { vapiAssistantId: `asst-${crypto.randomUUID()}` });
  const number = await insertPhoneNumber(profile.id, { agentId: null, vapiPhoneNumberId: `pn-${crypto.randomUUID()}`, ...numberOverrides });
  return { userId: profile.id, agent, number };
}

describe("assigning with the voice platform", () => {
  it("points the imported number at the agent's assistant, and at none on unassign", async () => {
    const { userId, agent, number } = await setup();
    const { voice, calls } = recordingVoice();
    const view = await assignNumber({ db: db(), voice }, userId, { phoneNumberId: number.id, agentId: agent.id });
    expect(view).toMatchObject({ id: number.id, agent_id: agent.id, agents: { name: agent.name } });
    expect(calls).toEqual([["link", number.vapiPhoneNumberId, agent.vapiAssistantId]]);

    await unassignNumber({ db: db(), voice }, userId, { phoneNumberId: number.id });
    expect(calls).toEqual([
      ["link", number.vapiPhoneNumberId, agent.vapiAssistantId],
      ["link", number.vapiPhoneNumberId, null],
    ]);
    expect((await numberRow(number.id)).agentId).toBeNull();
    expect(await agentRow(agent.id)).toMatchObject({ twilioNumberId: null, assignedPhoneNumber: null });
  });

  it("does not call the platform for a number it does not know", async () => {
    const { userId, agent, number } = await setup({ vapiPhoneNumberId: null });
    const { voice, calls } = recordingVoice();
    await assignNumber({ db: db(), voice }, userId, { phoneNumberId: number.id, agentId: agent.id });
    await unassignNumber({ db: db(), voice }, userId, { phoneNumberId: number.id });
    expect(calls).toEqual([]);
  });

  it("undoes the assignment when the platform refuses the link", async () => {
    const { userId, agent, number } = await setup();
    const { voice } = recordingVoice({ failLink: true });
    const err = await assignNumber({ db: db(), voice }, userId, { phoneNumberId: number.id, agentId: agent.id }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(502);
    expect((await numberRow(number.id)).agentId).toBeNull();
    expect(await agentRow(agent.id)).toMatchObject({ twilioNumberId: null, assignedPhoneNumber: null });
  });

  it("keeps the assignment when the platform refuses to unlink", async () => {
    const { userId, agent, number } = await setup();
    await assignNumber({ db: db(), voice: recordingVoice().voice }, userId, { phoneNumberId: number.id, agentId: agent.id });
    const { voice } = recordingVoice({ failLink: true });
    const err = await unassignNumber({ db: db(), voice }, userId, { phoneNumberId: number.id }).catch((e) => e);
    expect((err as ApiError).status).toBe(502);
    expect((await numberRow(number.id)).agentId).toBe(agent.id);
    expect(await agentRow(agent.id)).toMatchObject({ twilioNumberId: number.id, assignedPhoneNumber: number.phoneNumber });
  });
});

describe("buying", () => {
  it("imports the bought number into the voice platform and stores its id", async () => {
    const profile = await insertProfile();
    const { voice, calls } = recordingVoice();
    const phoneNumber = localInventory("405")[0];
    const res = await buyNumber({ db: db(), config, telephony: new LocalTelephony(db()), voice }, profile.id, { phoneNumber, createInVapi: true });
    expect(res).toMatchObject({ vapiCreated: true, vapiPhoneNumberId: `vapi-${phoneNumber}` });
    expect(calls).toEqual([["import", { number: phoneNumber, name: `(405) ${phoneNumber.slice(5, 8)}-${phoneNumber.slice(8)}` }]]);
    expect((await numberRow(res.phoneNumberId)).vapiPhoneNumberId).toBe(`vapi-${phoneNumber}`);
  });

  it("keeps the number when the voice-platform import fails, and says why", async () => {
    const profile = await insertProfile();
    const { voice } = recordingVoice({ failImport: true });
    const phoneNumber = localInventory("405")[1];
    const res = await buyNumber({ db: db(), config, telephony: new LocalTelephony(db()), voice }, profile.id, { phoneNumber, createInVapi: true });
    expect(res).toMatchObject({ vapiCreated: false, vapiPhoneNumberId: null, error: "VAPI: Invalid Twilio credentials", currentCount: 1 });
    expect(await numberRow(res.phoneNumberId)).toMatchObject({ status: "active", vapiPhoneNumberId: null, phoneNumber });
  });

  it("gives the number and its import back when the purchase cannot be recorded", async () => {
    const profile = await insertProfile();
    const { voice, calls } = recordingVoice();
    const real = db();
    // The batch that records the number fails, as a D1 outage would at that moment.
    const failing = createDb(
      new Proxy(env.DB, {
        get(target, prop) {
          if (prop === "batch") return async () => {
            throw new Error("D1_ERROR: internal storage detail");
          };
          const value = Reflect.get(target, prop, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
    );
    const telephony = new LocalTelephony(real);
    const released: string[] = [];
    const release = telephony.release.bind(telephony);
    telephony.release = async (sid) => {
      released.push(sid);
      await release(sid);
    };
    const phoneNumber = localInventory("405")[2];
    const err = await buyNumber({ db: failing, config, telephony, voice }, profile.id, { phoneNumber, createInVapi: true }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(calls).toEqual([["import", expect.objectContaining({ number: phoneNumber })], ["remove", `vapi-${phoneNumber}`]]);
    expect(released).toHaveLength(1);
    expect(await real.select().from(phoneNumbers).where(eq(phoneNumbers.userId, profile.id))).toEqual([]);
  });

  it("a purchase that finds the last slot taken when it is recorded gives the number and its import back and answers the limit", async () => {
    const profile = await insertProfile();
    for (let i = 0; i < 8; i++) await insertPhoneNumber(profile.id);
    const { voice, calls } = recordingVoice();
    const released: string[] = [];
    const phoneNumber = "+15125550177";
    // A concurrent purchase takes the account's last slot while this one is at the provider.
    const telephony: TelephonyPort = {
      kind: "local",
      health: async () => ({ ok: true, message: "" }),
      searchAvailable: async () => [],
      purchase: async (): Promise<PurchasedNumber> => {
        await insertPhoneNumber(profile.id);
        return { sid: "PN00000000000000000000000000000177", phoneNumber, friendlyName: phoneNumber, locality: null, region: null, isoCountry: "US" };
      },
      release: async (sid) => {
        released.push(sid);
      },
    };
    const err = await buyNumber({ db: db(), config, telephony, voice }, profile.id, { phoneNumber, createInVapi: true }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).extra).toEqual({ limitReached: true, maxAllowed: 9, currentCount: 9 });
    expect(released).toEqual(["PN00000000000000000000000000000177"]);
    expect(calls.filter(([kind]) => kind === "remove")).toEqual([["remove", `vapi-${phoneNumber}`]]);
    expect(await db().select().from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, phoneNumber))).toEqual([]);
  });

  it("counts reservations against the limit, but frees one left behind by a request that died", async () => {
    const profile = await insertProfile();
    const deps = { db: db(), config, telephony: new LocalTelephony(db()), voice: recordingVoice().voice };
    for (let i = 0; i < 8; i++) await insertPhoneNumber(profile.id);
    const fresh = await insertPhoneNumber(profile.id, { status: "pending" });
    const full = await buyNumber(deps, profile.id, { phoneNumber: localInventory("281")[0], createInVapi: false }).catch((e) => e);
    expect(full).toBeInstanceOf(ApiError);
    expect((full as ApiError).extra).toEqual({ limitReached: true, maxAllowed: 9, currentCount: 9 });

    const old = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    await db().update(phoneNumbers).set({ createdAt: old }).where(eq(phoneNumbers.id, fresh.id));
    const res = await buyNumber(deps, profile.id, { phoneNumber: localInventory("281")[0], createInVapi: false });
    expect(res).toMatchObject({ currentCount: 9, maxAllowed: 9 });
    expect(await numberRow(fresh.id)).toBeUndefined();
  });

  it("gives the number back and frees the slot when it cannot be saved", async () => {
    const profile = await insertProfile();
    const other = await insertPhoneNumber(null);
    const released: string[] = [];
    // The provider answers with a number this database already holds, so saving it fails.
    const telephony: TelephonyPort = {
      kind: "local",
      health: async () => ({ ok: true, message: "" }),
      searchAvailable: async () => [],
      purchase: async (): Promise<PurchasedNumber> => ({
        sid: "PN0123456789abcdef0123456789abcdef",
        phoneNumber: other.phoneNumber,
        friendlyName: other.phoneNumber,
        locality: null,
        region: null,
        isoCountry: "US",
      }),
      release: async (sid) => {
        released.push(sid);
      },
    };
    const removed = recordingVoice();
    const err = await buyNumber({ db: db(), config, telephony, voice: removed.voice }, profile.id, {
      phoneNumber: "+15125550199",
      createInVapi: true,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(released).toEqual(["PN0123456789abcdef0123456789abcdef"]);
    expect(removed.calls.filter(([kind]) => kind === "remove")).toEqual([["remove", `vapi-${other.phoneNumber}`]]);
    expect(await db().select().from(phoneNumbers).where(eq(phoneNumbers.userId, profile.id))).toEqual([]);
  });
});
