// Concurrency: one VAPI event delivered 10 times at once has one effect; 20 concurrent number
// purchases at the limit's edge take exactly the free slots; concurrent roll-up runs write the same
// roll-ups as one run. (Ten concurrent deliveries of one Stripe event: worker/routes/billing.test.ts,
// "applies ten concurrent deliveries of one checkout event once".) Figures are printed.
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { callLogs, phoneNumbers, webhookEvents } from "../db/schema";
import { runRollups } from "../jobs/rollups";
import { localInventory } from "../providers/telephony/local";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { VOICE_WEBHOOK_PATH } from "../providers/voice/port";
import { endOfCallReportBody, insertAgent, offerNumbers } from "../test/factories";
import { clearRollups, dumpRollups, seedRollupSources } from "../test/rollup-tables";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, testShards } from "../test/helpers";

const figures: string[] = [];
const enc = new TextEncoder();
async function hmacHex(secret: string, payload: string) {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(payload)))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("the same VAPI event delivered 10 times at once", () => {
  it("is recorded once and writes one call", async () => {
    const s = await signUpAndSignIn();
    const assistantId = `asst-${crypto.randomUUID()}`;
    await insertAgent(s.userId, { vapiAssistantId: assistantId });
    const callId = `concurrent-${crypto.randomUUID()}`;
    const body = endOfCallReportBody(assistantId, callId);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const headers = { "content-type": "application/json", "x-vapi-timestamp": timestamp, "x-vapi-signature": `sha256=${await hmacHex(DEV_VAPI_WEBHOOK_SECRET, `${timestamp}.${body}`)}` };
    const events = async () => (await db().select({ n: sql<number>`count(*)` }).from(webhookEvents))[0].n;
    const before = await events();
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(VOICE_WEBHOOK_PATH, { method: "POST", body, headers })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => a.body.duplicate === false)).toHaveLength(1);
    expect(await events()).toBe(before + 1);
    // The call is on the account's shard (decision 076).
    const rows = await (await shardOf(s.userId)).select().from(callLogs).where(eq(callLogs.callId, callId));
    expect(rows).toHaveLength(1);
    figures.push(`VAPI event ×10 at once: 200 ×${answers.filter((a) => a.status === 200).length}, first ${answers.filter((a) => a.body.duplicate === false).length}, events recorded 1, call rows ${rows.length}`);
  });
});

// Two dozen signed-in requests, each confirmed before its handler: room for a busy machine.
describe("20 concurrent number purchases at the limit's edge", { timeout: 20_000 }, () => {
  it("exactly the free slots succeed; the rest answer 409 phone_limit_reached", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    await call("/api/profile", { token: admin.accessToken });
    const buyer = await signUpAndSignIn();
    await call("/api/profile", { token: buyer.accessToken });
    const LIMIT = 7;
    expect((await call("/api/admin/config/phone-limit", { method: "PUT", token: admin.accessToken, json: { phoneNumberLimit: LIMIT } })).status).toBe(200);
    const inventory = localInventory("580");
    await offerNumbers(buyer.userId, inventory.slice(0, 30));
    let next = 0;
    const number = () => inventory[next++];
    const buy = () => call("/api/twilio/buy", { method: "POST", token: buyer.accessToken, json: { phoneNumber: number(), createInVapi: false } });
    for (let i = 0; i < 4; i++) expect((await buy()).status).toBe(200);
    const free = LIMIT - 4;
    const answers = await Promise.all(Array.from({ length: 20 }, () => buy()));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409);
    expect(ok).toHaveLength(free);
    expect(refused).toHaveLength(20 - free);
    for (const r of refused) expect(r.body).toMatchObject({ code: "phone_limit_reached", limitReached: true, maxAllowed: LIMIT });
    const rows = await db().select().from(phoneNumbers).where(eq(phoneNumbers.userId, buyer.userId));
    expect(rows).toHaveLength(LIMIT);
    expect(rows.every((r) => r.status === "active")).toBe(true);
    figures.push(`20 purchases at once with ${free} free slots (limit ${LIMIT}): bought ${ok.length}, refused 409 ${refused.length}, other ${answers.length - ok.length - refused.length}, rows ${rows.length}`);
  });
});


describe("concurrent roll-up runs", { timeout: 60_000 }, () => {
  it("five runs at once write the same roll-ups as one run alone", async () => {
    const user = await seedRollupSources("LARGO", { fromMs: Date.parse("2026-02-02T00:00:00Z"), toMs: Date.parse("2026-02-20T00:00:00Z") }, Date.parse("2026-02-15T00:00:00Z"));
    const now = new Date("2026-02-24T12:00:00Z");
    // The directory's store network and every shard's calls, as the cron runs them (decision 079).
    const ctx = { db: db(), shards: testShards(), now };
    await clearRollups();
    await runRollups(ctx, { backfillFrom: "2026-02-01" });
    const alone = await dumpRollups();
    expect(alone[`${await shardNameOf(user.id)}.call_log_daily`].length).toBeGreaterThan(5);
    await clearRollups();
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => runRollups(ctx, { backfillFrom: "2026-02-01" })));
    expect(settled.map((s) => s.status)).toEqual(Array(5).fill("fulfilled"));
    const together = await dumpRollups();
    expect(JSON.stringify(together)).toBe(JSON.stringify(alone));
    const rowsTotal = Object.values(alone).reduce((n, r) => n + r.length, 0);
    figures.push(`roll-ups: 5 concurrent runs vs one run alone: ${rowsTotal} rows over ${Object.keys(together).length} tables, identical ${JSON.stringify(together) === JSON.stringify(alone) ? "yes" : "NO"}`);
  });
});

afterAll(() => {
  console.log(`\nConcurrency:\n  ${figures.join("\n  ")}`);
});
