// /api/twilio/*: the account's phone numbers, the purchase search, buying under the per-account
// limit, and assigning numbers to agents. Local telephony by default; Twilio mode against the stand-in.
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { decodeJwt } from "jose";
import { PHONE_API_TEXT } from "@shared/messages";
import { NUMBER_OFFER_TTL_MS, numberOfferStatements } from "../services/phone-numbers";
import { agents, phoneNumbers } from "../db/schema";
import { localInventory } from "../providers/telephony/local";
import { myNumbersQuery, phoneNumberCountSql } from "../services/phone-numbers";
import { insertAgent, offerNumbers } from "../test/factories";
import { call, db, signUpAndSignIn } from "../test/helpers";
import { TWILIO_STANDIN } from "../test/standins/twilio";
import { VAPI_STANDIN } from "../test/standins/vapi";

/** A signed-in account whose profile exists (rows it owns reference it). */
async function account(appMetadata?: Record<string, unknown>) {
  const s = await signUpAndSignIn(appMetadata ? { appMetadata } : {});
  const me = await call("/api/profile", { token: s.accessToken });
  expect(me.status).toBe(200);
  return { token: s.accessToken, userId: s.userId };
}

/** What a search leaves behind: the number offered to the token's account (a purchase needs it). */
const offer = (token: string, phoneNumber: string) => offerNumbers(String(decodeJwt(token).sub), [phoneNumber]);

/** Buys as the SPA does: after a search that offered the number. */
async function buy(token: string, phoneNumber: string, createInVapi = true, bindings?: Record<string, unknown>) {
  await offer(token, phoneNumber);
  return call("/api/twilio/buy", { method: "POST", token, json: { phoneNumber, createInVapi }, bindings });
}

const rowsOf = (userId: string) => db().select().from(phoneNumbers).where(eq(phoneNumbers.userId, userId));
const agentRow = async (id: number) => (await db().select().from(agents).where(eq(agents.id, id)))[0];
const numberRow = async (id: number) => (await db().select().from(phoneNumbers).where(eq(phoneNumbers.id, id)))[0];

/** Inventory numbers of an area code, taken in order so each test buys different ones. */
const picks = new Map<string, number>();
function nextNumber(area: string) {
  const i = picks.get(area) ?? 0;
  picks.set(area, i + 1);
  return localInventory(area)[i];
}

/** Twilio mode: the real adapter against the stand-in, one stand-in account per call site. */
const twilioBindings = () => ({
  TWILIO_ACCOUNT_SID: `AC${crypto.randomUUID().replace(/-/g, "")}`,
  TWILIO_AUTH_TOKEN: TWILIO_STANDIN.authToken,
  TWILIO_BASE_URL: inject("standins").twilio,
});

describe("signed out", () => {
  it("every phone-number route answers 401", async () => {
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/twilio/health"],
      ["GET", "/api/twilio/my-numbers"],
      ["GET", "/api/twilio/available-numbers?areaCode=305"],
      ["POST", "/api/twilio/buy", { phoneNumber: "+13055550100", createInVapi: true }],
      ["POST", "/api/twilio/assign-number", { phoneNumberId: 1, agentId: 1 }],
      ["POST", "/api/twilio/unassign-number", { phoneNumberId: 1 }],
    ];
    for (const [method, path, json] of routes) {
      const res = await call(path, { method, json });
      expect(res.status, path).toBe(401);
      expect(res.body.code).toBe("unauthorized");
    }
  });
});

describe("GET /api/twilio/health", () => {
  it("reports the local inventory when Twilio is not configured", async () => {
    const { token } = await account();
    const res = await call("/api/twilio/health", { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, message: PHONE_API_TEXT.localHealthy, provider: "local" });
  });
});

describe("GET /api/twilio/available-numbers", () => {
  it("lists numbers of an area code with their place", async () => {
    const { token } = await account();
    const res = await call("/api/twilio/available-numbers?country=US&type=Local&sms=true&voice=true&limit=5&areaCode=305", { token });
    expect(res.status).toBe(200);
    expect(res.body.numbers).toHaveLength(5);
    for (const n of res.body.numbers) {
      expect(Object.keys(n).sort()).toEqual(["friendlyName", "isoCountry", "locality", "phoneNumber", "region"]);
      expect(n.phoneNumber).toMatch(/^\+1305\d{7}$/);
      expect(n).toMatchObject({ locality: "Miami", region: "FL", isoCountry: "US" });
    }
  });

  it("defaults to 50 numbers from several area codes", async () => {
    const { token } = await account();
    const res = await call("/api/twilio/available-numbers", { token });
    expect(res.status).toBe(200);
    expect(res.body.numbers).toHaveLength(50);
    expect(new Set(res.body.numbers.map((n: { phoneNumber: string }) => n.phoneNumber.slice(2, 5))).size).toBeGreaterThan(5);
  });

  it("treats an empty area-code filter as none", async () => {
    const { token } = await account();
    const res = await call("/api/twilio/available-numbers?areaCode=&limit=3", { token });
    expect(res.status).toBe(200);
    expect(res.body.numbers).toHaveLength(3);
  });

  it("answers 400 naming the field for bad input", async () => {
    const { token } = await account();
    const cases: [string, string][] = [
      ["areaCode=30", "areaCode"],
      ["areaCode=3055", "areaCode"],
      ["areaCode=abc", "areaCode"],
      ["limit=51", "limit"],
      ["limit=0", "limit"],
      ["limit=ten", "limit"],
      ["sms=maybe", "sms"],
      ["type=TollFree", "type"],
      ["country=USA", "country"],
    ];
    for (const [query, field] of cases) {
      const res = await call(`/api/twilio/available-numbers?${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.field, query).toBe(field);
    }
    const area = await call("/api/twilio/available-numbers?areaCode=30", { token });
    expect(area.body.error).toBe(`areaCode: ${PHONE_API_TEXT.areaCodeInvalid}`);
  });
});

describe("POST /api/twilio/buy and GET /api/twilio/my-numbers", () => {
  it("buys a number, copies it to the voice platform and lists it", async () => {
    const { token, userId } = await account();
    const number = nextNumber("305");
    const res = await buy(token, number);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      phoneNumber: number,
      vapiCreated: true,
      limitReached: false,
      maxAllowed: 9,
      currentCount: 1,
    });
    expect(res.body.sid).toMatch(/^PN[0-9a-f]{32}$/);
    expect(typeof res.body.vapiPhoneNumberId).toBe("string");
    expect(res.body.error).toBeUndefined();

    const mine = await call("/api/twilio/my-numbers", { token });
    expect(mine.status).toBe(200);
    expect(mine.body.numbers).toEqual([
      {
        id: res.body.phoneNumberId,
        phone_number: number,
        friendly_name: `(305) ${number.slice(5, 8)}-${number.slice(8)}`,
        locality: "Miami",
        region: "FL",
        iso_country: "US",
        agent_id: null,
        sid: res.body.sid,
        vapi_phone_number_id: res.body.vapiPhoneNumberId,
        agents: null,
      },
    ]);
    const [row] = await rowsOf(userId);
    expect(row.status).toBe("active");

    // A bought number is no longer offered.
    const search = await call("/api/twilio/available-numbers?areaCode=305&limit=50", { token });
    expect(search.body.numbers.map((n: { phoneNumber: string }) => n.phoneNumber)).not.toContain(number);
  });

  it("buys without the voice-platform copy when not asked", async () => {
    const { token } = await account();
    const res = await buy(token, nextNumber("319"), false);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ vapiCreated: false, vapiPhoneNumberId: null });
    expect(res.body.error).toBeUndefined();
  });

  it("keeps the purchase when the voice-platform copy fails", async () => {
    const { token, userId } = await account();
    const number = nextNumber("727");
    // VAPI configured, but a locally invented number has no Twilio account it can be imported from.
    const res = await buy(token, number, true, { VAPI_PRIVATE_KEY: "vapi-test-key", VAPI_BASE_URL: "http://127.0.0.1:9" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ phoneNumber: number, vapiCreated: false, vapiPhoneNumberId: null, currentCount: 1 });
    expect(res.body.error).toMatch(/^VAPI: /);
    const [row] = await rowsOf(userId);
    expect(row).toMatchObject({ phoneNumber: number, status: "active", vapiPhoneNumberId: null });
  });

  it("answers 400 naming the field for bad input", async () => {
    const { token, userId } = await account();
    for (const json of [{ phoneNumber: "305-555-0100", createInVapi: true }, { createInVapi: true }, { phoneNumber: 13055550100 }]) {
      const res = await call("/api/twilio/buy", { method: "POST", token, json });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe("phoneNumber");
    }
    const offered = nextNumber("305");
    await offer(token, offered);
    const flag = await call("/api/twilio/buy", { method: "POST", token, json: { phoneNumber: offered, createInVapi: "yes" } });
    expect(flag.status).toBe(400);
    expect(flag.body.field).toBe("createInVapi");
    expect(await rowsOf(userId)).toEqual([]);
  });

  it("a failed purchase leaves no row", async () => {
    const { token, userId } = await account();
    const res = await buy(token, "+13050000000");
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: PHONE_API_TEXT.numberUnavailable, field: "phoneNumber" });
    expect(await rowsOf(userId)).toEqual([]);
    expect(await db().select().from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, "+13050000000"))).toEqual([]);
  });

  it("refuses a number another account owns, and one already owned", async () => {
    const a = await account();
    const b = await account();
    const number = nextNumber("954");
    expect((await buy(a.token, number)).status).toBe(200);
    const taken = await buy(b.token, number);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(PHONE_API_TEXT.numberUnavailable);
    const again = await buy(a.token, number);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(PHONE_API_TEXT.numberOwned);
    expect(await rowsOf(b.userId)).toEqual([]);
    expect(await rowsOf(a.userId)).toHaveLength(1);
  });

  it("a reservation left by a purchase that died long ago does not block buying that number", async () => {
    const a = await account();
    const b = await account();
    const longAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const mine = nextNumber("954");
    const theirs = nextNumber("954");
    await db().insert(phoneNumbers).values([
      { userId: a.userId, phoneNumber: mine, status: "pending", createdAt: longAgo },
      { userId: b.userId, phoneNumber: theirs, status: "pending", createdAt: longAgo },
    ]);
    const again = await buy(a.token, mine, false);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const other = await buy(a.token, theirs, false);
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect((await rowsOf(a.userId)).map((r) => [r.phoneNumber, r.status]).sort()).toEqual([
      [mine, "active"],
      [theirs, "active"],
    ].sort());
    expect(await rowsOf(b.userId)).toEqual([]);
  });

  it("lists only the caller's numbers", async () => {
    const a = await account();
    const b = await account();
    await buy(a.token, nextNumber("918"));
    const theirs = await call("/api/twilio/my-numbers", { token: b.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body.numbers).toEqual([]);
  });
});

describe("the per-account limit", () => {
  it("lets exactly one of five concurrent purchases take the last slot", async () => {
    const admin = await account({ is_admin: true });
    const { token, userId } = await account();
    const set = await call("/api/admin/config/phone-limit", { method: "PUT", token: admin.token, json: { phoneNumberLimit: 3 } });
    expect(set.status).toBe(200);
    try {
      expect((await buy(token, nextNumber("405"))).status).toBe(200);
      expect((await buy(token, nextNumber("405"))).status).toBe(200);

      const results = await Promise.all(Array.from({ length: 5 }, () => buy(token, nextNumber("405"))));
      const ok = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status === 409);
      expect(ok).toHaveLength(1);
      expect(ok[0].body).toMatchObject({ limitReached: false, maxAllowed: 3, currentCount: 3 });
      expect(refused).toHaveLength(4);
      for (const r of refused) {
        expect(r.body).toMatchObject({ code: "phone_limit_reached", limitReached: true, maxAllowed: 3, currentCount: 3 });
        expect(r.body.error).toContain("3");
        expect(r.body.error).toMatch(/contact support/);
      }
      const rows = await rowsOf(userId);
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.status === "active")).toBe(true);

      const later = await buy(token, nextNumber("405"));
      expect(later.status).toBe(409);
      expect(later.body.limitReached).toBe(true);
      expect(await rowsOf(userId)).toHaveLength(3);
    } finally {
      await call("/api/admin/config/phone-limit", { method: "PUT", token: admin.token, json: { phoneNumberLimit: 9 } });
    }
  });

  it("counts with the user index, also inside the reservation", async () => {
    const count = await db().all<{ detail: string }>(sql`explain query plan ${phoneNumberCountSql("u")}`);
    expect(count.map((r) => r.detail).join(" | ")).toMatch(/SEARCH phone_numbers USING COVERING INDEX phone_numbers_user_idx \(user_id=\?\)/);

    const reserve = await db().all<{ detail: string }>(sql`explain query plan
      insert into phone_numbers (user_id, phone_number, iso_country, status)
      select ${"u"}, ${"+10000000000"}, 'US', 'pending' where (${phoneNumberCountSql("u")}) < ${9}`);
    expect(reserve.map((r) => r.detail).join(" | ")).toMatch(/phone_numbers_user_idx/);
    expect(reserve.map((r) => r.detail).join(" | ")).not.toMatch(/SCAN phone_numbers(?! USING)/);
    // The foreign-key check of agents.twilio_number_id goes through its index, not a scan of agents.
    expect(reserve.map((r) => r.detail).join(" | ")).not.toMatch(/SCAN agents/);
    const drop = await db().all<{ detail: string }>(sql`explain query plan delete from phone_numbers where id = ${1} and status = 'pending'`);
    expect(drop.map((r) => r.detail).join(" | ")).not.toMatch(/SCAN agents/);
  });

  it("lists my numbers with the user index", async () => {
    const q = myNumbersQuery(db(), "u").toSQL();
    const plan = await env.DB.prepare(`explain query plan ${q.sql}`)
      .bind(...q.params)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join(" | ");
    expect(details).toMatch(/SEARCH phone_numbers USING INDEX phone_numbers_user_idx \(user_id=\?\)/);
    expect(details).not.toMatch(/SCAN phone_numbers/);
    expect(details).not.toMatch(/SCAN agents/);
  });
});

describe("POST /api/twilio/assign-number and /unassign-number", () => {
  async function owned() {
    const me = await account();
    const bought = await buy(me.token, nextNumber("239"));
    expect(bought.status).toBe(200);
    return { ...me, numberId: bought.body.phoneNumberId as number, number: bought.body.phoneNumber as string };
  }

  it("assigns a number: the number, the agent's number id and its number, in one go; unassign clears them", async () => {
    const me = await owned();
    const agent = await insertAgent(me.userId, { name: "Front desk" });
    const res = await call("/api/twilio/assign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId, agentId: agent.id } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.number).toMatchObject({ id: me.numberId, agent_id: agent.id, agents: { name: "Front desk" } });
    expect((await numberRow(me.numberId)).agentId).toBe(agent.id);
    expect(await agentRow(agent.id)).toMatchObject({ twilioNumberId: me.numberId, assignedPhoneNumber: me.number });

    const mine = await call("/api/twilio/my-numbers", { token: me.token });
    expect(mine.body.numbers[0]).toMatchObject({ agent_id: agent.id, agents: { name: "Front desk" } });

    // Assigning the same pair again changes nothing.
    const again = await call("/api/twilio/assign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId, agentId: agent.id } });
    expect(again.status).toBe(200);

    const un = await call("/api/twilio/unassign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId } });
    expect(un.status).toBe(200);
    expect(un.body.number).toMatchObject({ id: me.numberId, agent_id: null, agents: null });
    expect((await numberRow(me.numberId)).agentId).toBeNull();
    expect(await agentRow(agent.id)).toMatchObject({ twilioNumberId: null, assignedPhoneNumber: null });

    // Unassigning an unassigned number is harmless.
    const twice = await call("/api/twilio/unassign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId } });
    expect(twice.status).toBe(200);
  });

  it("an agent holds at most one number", async () => {
    const me = await owned();
    const second = await buy(me.token, nextNumber("239"));
    const agent = await insertAgent(me.userId);
    const first = await call("/api/twilio/assign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId, agentId: agent.id } });
    expect(first.status).toBe(200);
    const res = await call("/api/twilio/assign-number", {
      method: "POST",
      token: me.token,
      json: { phoneNumberId: second.body.phoneNumberId, agentId: agent.id },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(PHONE_API_TEXT.agentHasNumber);
    expect((await numberRow(second.body.phoneNumberId)).agentId).toBeNull();
    expect(await agentRow(agent.id)).toMatchObject({ twilioNumberId: me.numberId, assignedPhoneNumber: me.number });
  });

  it("a number held by another agent moves only after unassign", async () => {
    const me = await owned();
    const a1 = await insertAgent(me.userId);
    const a2 = await insertAgent(me.userId);
    await call("/api/twilio/assign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId, agentId: a1.id } });
    const moved = await call("/api/twilio/assign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId, agentId: a2.id } });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toBe(PHONE_API_TEXT.numberHasAgent);
    expect((await numberRow(me.numberId)).agentId).toBe(a1.id);
    expect((await agentRow(a2.id)).twilioNumberId).toBeNull();

    await call("/api/twilio/unassign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId } });
    const after = await call("/api/twilio/assign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId, agentId: a2.id } });
    expect(after.status).toBe(200);
    expect(await agentRow(a2.id)).toMatchObject({ twilioNumberId: me.numberId, assignedPhoneNumber: me.number });
    expect((await agentRow(a1.id)).twilioNumberId).toBeNull();
  });

  it("another account's number or agent answers 404 and changes nothing", async () => {
    const me = await owned();
    const other = await owned();
    const mine = await insertAgent(me.userId);
    const theirs = await insertAgent(other.userId);

    const theirNumber = await call("/api/twilio/assign-number", { method: "POST", token: me.token, json: { phoneNumberId: other.numberId, agentId: mine.id } });
    expect(theirNumber.status).toBe(404);
    expect(theirNumber.body.error).toBe(PHONE_API_TEXT.numberNotFound);
    const theirAgent = await call("/api/twilio/assign-number", { method: "POST", token: me.token, json: { phoneNumberId: me.numberId, agentId: theirs.id } });
    expect(theirAgent.status).toBe(404);
    expect(theirAgent.body.error).toBe(PHONE_API_TEXT.agentNotFound);
    expect((await numberRow(other.numberId)).agentId).toBeNull();
    expect((await numberRow(me.numberId)).agentId).toBeNull();
    expect((await agentRow(theirs.id)).twilioNumberId).toBeNull();
    expect((await agentRow(mine.id)).twilioNumberId).toBeNull();

    // Their assigned number cannot be unassigned by me either.
    await call("/api/twilio/assign-number", { method: "POST", token: other.token, json: { phoneNumberId: other.numberId, agentId: theirs.id } });
    const un = await call("/api/twilio/unassign-number", { method: "POST", token: me.token, json: { phoneNumberId: other.numberId } });
    expect(un.status).toBe(404);
    expect((await numberRow(other.numberId)).agentId).toBe(theirs.id);
    expect((await agentRow(theirs.id)).twilioNumberId).toBe(other.numberId);
  });

  it("answers 400 naming the field for bad input", async () => {
    const me = await owned();
    const agent = await insertAgent(me.userId);
    const cases: [string, unknown, string][] = [
      ["/api/twilio/assign-number", { agentId: agent.id }, "phoneNumberId"],
      ["/api/twilio/assign-number", { phoneNumberId: me.numberId, agentId: "abc" }, "agentId"],
      ["/api/twilio/assign-number", { phoneNumberId: -1, agentId: agent.id }, "phoneNumberId"],
      ["/api/twilio/unassign-number", {}, "phoneNumberId"],
      ["/api/twilio/unassign-number", { phoneNumberId: 1.5 }, "phoneNumberId"],
    ];
    for (const [path, json, field] of cases) {
      const res = await call(path, { method: "POST", token: me.token, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    expect((await agentRow(agent.id)).twilioNumberId).toBeNull();
  });
});

describe("Twilio mode", () => {
  it("is chosen when the Twilio secrets are set: health says real and buys go to Twilio", async () => {
    const { token, userId } = await account();
    const bindings = twilioBindings();
    const health = await call("/api/health", { bindings });
    expect(health.body.providers.telephony).toBe("real");
    const local = await call("/api/health");
    expect(local.body.providers.telephony).toBe("local");

    const th = await call("/api/twilio/health", { token, bindings });
    expect(th.body).toEqual({ ok: true, message: PHONE_API_TEXT.twilioHealthy, provider: "twilio" });
    // the account's name and SID are not shown to users
    expect(JSON.stringify(th.body)).not.toContain("Stand-in account");
    expect(JSON.stringify(th.body)).not.toContain(bindings.TWILIO_ACCOUNT_SID);

    const search = await call("/api/twilio/available-numbers?areaCode=918&limit=3&sms=true&voice=true", { token, bindings });
    expect(search.status).toBe(200);
    expect(search.body.numbers.map((n: { phoneNumber: string }) => n.phoneNumber)).toEqual([
      "+19185550100",
      "+19185550101",
      "+19185550102",
    ]);

    const bought = await buy(token, "+19185550101", true, bindings);
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ phoneNumber: "+19185550101", vapiCreated: true, currentCount: 1 });

    // The stand-in holds the number under that account, with the sid we stored.
    const listed = await fetch(`${bindings.TWILIO_BASE_URL}/2010-04-01/Accounts/${bindings.TWILIO_ACCOUNT_SID}/IncomingPhoneNumbers.json`, {
      headers: { authorization: `Basic ${btoa(`${bindings.TWILIO_ACCOUNT_SID}:${TWILIO_STANDIN.authToken}`)}` },
    });
    const { incoming_phone_numbers } = (await listed.json()) as { incoming_phone_numbers: { sid: string; phone_number: string }[] };
    expect(incoming_phone_numbers).toEqual([expect.objectContaining({ sid: bought.body.sid, phone_number: "+19185550101" })]);

    const [row] = await rowsOf(userId);
    // Twilio's purchase answer has no location: the area code gives it.
    expect(row).toMatchObject({ sid: bought.body.sid, status: "active", locality: "Tulsa", region: "OK", friendlyName: "(918) 555-0101" });
  });

  it("with VAPI configured too: the number is imported and follows the agent's assistant", async () => {
    const { token, userId } = await account();
    const vapiUrl = inject("standins").vapi;
    const vapiHeaders = { authorization: `Bearer ${VAPI_STANDIN.privateKey}`, "content-type": "application/json" };
    const bindings = { ...twilioBindings(), VAPI_PRIVATE_KEY: VAPI_STANDIN.privateKey, VAPI_BASE_URL: vapiUrl };
    const created = await fetch(`${vapiUrl}/assistant`, { method: "POST", headers: vapiHeaders, body: JSON.stringify({ name: "Phone test" }) });
    const assistant = (await created.json()) as { id: string };
    const agent = await insertAgent(userId, { name: "Phone test", vapiAssistantId: assistant.id });
    const platformNumber = async (id: string) =>
      (await (await fetch(`${vapiUrl}/phone-number/${id}`, { headers: vapiHeaders })).json()) as Record<string, unknown>;

    const bought = await buy(token, "+12125550137", true, bindings);
    expect(bought.status).toBe(200);
    expect(bought.body).toMatchObject({ vapiCreated: true });
    const vapiId = bought.body.vapiPhoneNumberId as string;
    expect(await platformNumber(vapiId)).toMatchObject({
      provider: "twilio",
      number: "+12125550137",
      twilioAccountSid: bindings.TWILIO_ACCOUNT_SID,
    });

    const assigned = await call("/api/twilio/assign-number", {
      method: "POST",
      token,
      bindings,
      json: { phoneNumberId: bought.body.phoneNumberId, agentId: agent.id },
    });
    expect(assigned.status).toBe(200);
    expect((await platformNumber(vapiId)).assistantId).toBe(assistant.id);

    const un = await call("/api/twilio/unassign-number", { method: "POST", token, bindings, json: { phoneNumberId: bought.body.phoneNumberId } });
    expect(un.status).toBe(200);
    expect((await platformNumber(vapiId)).assistantId).toBeUndefined();
    expect(await agentRow(agent.id)).toMatchObject({ twilioNumberId: null, assignedPhoneNumber: null });
  });

  it("a purchase Twilio refuses leaves no row and reports Twilio's message", async () => {
    const { token, userId } = await account();
    const res = await buy(token, "+19180000000", true, twilioBindings());
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: "provider_error", error: "Twilio: PhoneNumber requested is not available" });
    expect(await rowsOf(userId)).toEqual([]);
  });

  it("reports wrong Twilio credentials on health", async () => {
    const { token } = await account();
    const res = await call("/api/twilio/health", { token, bindings: { ...twilioBindings(), TWILIO_AUTH_TOKEN: "wrong" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false, message: PHONE_API_TEXT.twilioUnreachable, provider: "twilio" });
  });
});

describe("purchases only of numbers a search offered", () => {
  it("refuses a number no search offered to the account, another account's offer and an expired one", async () => {
    const { token, userId } = await account();
    const number = nextNumber("512");
    const direct = await call("/api/twilio/buy", { method: "POST", token, json: { phoneNumber: number, createInVapi: false } });
    expect(direct.status).toBe(400);
    expect(direct.body).toMatchObject({ field: "phoneNumber", error: PHONE_API_TEXT.numberNotOffered });

    const other = await account();
    await offer(other.token, number);
    expect((await call("/api/twilio/buy", { method: "POST", token, json: { phoneNumber: number, createInVapi: false } })).status).toBe(400);

    for (const statement of numberOfferStatements(db(), userId, [number], Date.now() - NUMBER_OFFER_TTL_MS - 1000)) await statement;
    expect((await call("/api/twilio/buy", { method: "POST", token, json: { phoneNumber: number, createInVapi: false } })).status).toBe(400);
    expect(await rowsOf(userId)).toEqual([]);
  });

  it("buys a number the account's own search returned", async () => {
    const { token, userId } = await account();
    const search = await call("/api/twilio/available-numbers?areaCode=512&limit=3&sms=true&voice=true", { token });
    const [first] = search.body.numbers as { phoneNumber: string }[];
    const res = await call("/api/twilio/buy", { method: "POST", token, json: { phoneNumber: first.phoneNumber, createInVapi: false } });
    expect(res.status).toBe(200);
    expect((await rowsOf(userId)).map((r) => r.phoneNumber)).toEqual([first.phoneNumber]);
  });
});

describe("data left behind", () => {
  it("no reservation stays pending after the tests above", async () => {
    const pending = await db().select().from(phoneNumbers).where(eq(phoneNumbers.status, "pending"));
    expect(pending).toEqual([]);
  });
});
