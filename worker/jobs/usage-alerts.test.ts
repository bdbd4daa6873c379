// The owner's mails at 80 % and 100 % of the plan's call minutes: one of each per New York month
// however often the job runs, the 100 % one alone when the month jumps past both, none without a
// plan, and a failed send retried by the next run.
import { MINUTES_TEXT } from "@shared/messages";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { callLogs, profiles } from "../db/schema";
import { parseConfig } from "../env";
import { LocalMail } from "../providers/mail/local";
import type { MailPort, OutgoingMail } from "../providers";
import { createDb } from "../db/client";
import { countingD1 } from "../test/counting-d1";
import { db, shardOf, subscribe, testShards } from "../test/helpers";
import type { Shard } from "../db/shards";
import { FREQUENT_CRON, jobsByCron } from "./index";
import { runUsageAlertJob, usageAlertJob } from "./usage-alerts";

const NOW = new Date("2026-05-20T16:00:00Z");
const ctx = (now = NOW) => ({ db: db(), shards: testShards(), config: parseConfig(env as unknown as Record<string, unknown>), now });

async function account(plan: "basic" | "pro" | null) {
  const id = crypto.randomUUID();
  const email = `${id}@example.com`;
  await db().insert(profiles).values({ id, email });
  if (plan) await subscribe(id, plan);
  return { id, email };
}

/** Adds a call of `minutes` on the given New York afternoon. */
const addMinutes = async (userId: string, minutes: number, startTime = "2026-05-20T14:00:00.000Z") =>
  (await shardOf(userId)).insert(callLogs).values({ userId, callId: `call-${crypto.randomUUID()}`, direction: "outbound", status: "ended", startTime, duration: minutes * 60 });

function recordingMail(fail: () => boolean = () => false) {
  const local = new LocalMail(db());
  const sends: OutgoingMail[] = [];
  const port: MailPort = {
    kind: "local",
    async send(mail) {
      if (fail()) throw new Error("the vendor is down");
      sends.push(mail);
      await local.send(mail);
    },
  };
  return { port, to: (email: string) => sends.filter((m) => m.to === email) };
}

describe("usage alert mails", () => {
  it("runs every ten minutes", () => {
    expect(jobsByCron[FREQUENT_CRON]).toContain(usageAlertJob);
  });

  it("mails the owner once at 80 % and once at 100 % in a month, however often it runs", async () => {
    const owner = await account("basic");
    const mail = recordingMail();
    await addMinutes(owner.id, 799);
    await runUsageAlertJob(ctx(), mail.port);
    expect(mail.to(owner.email)).toHaveLength(0);

    await addMinutes(owner.id, 1);
    await runUsageAlertJob(ctx(), mail.port);
    await runUsageAlertJob(ctx(), mail.port);
    expect(mail.to(owner.email).map((m) => m.subject)).toEqual([MINUTES_TEXT.mailSubject(80)]);
    expect(mail.to(owner.email)[0].text).toContain(MINUTES_TEXT.mailText(80, 800, 1000, "Basic"));

    await addMinutes(owner.id, 200);
    await runUsageAlertJob(ctx(), mail.port);
    await runUsageAlertJob(ctx(new Date("2026-05-31T20:00:00Z")), mail.port);
    expect(mail.to(owner.email).map((m) => m.subject)).toEqual([MINUTES_TEXT.mailSubject(80), MINUTES_TEXT.mailSubject(100)]);
    // Both went to the local outbox under their own keys.
    const outbox = await env.DB.prepare("SELECT idempotency_key FROM mail_outbox WHERE kind = 'usage_alert' AND to_email = ? ORDER BY id").bind(owner.email).all<{ idempotency_key: string }>();
    expect(outbox.results.map((r) => r.idempotency_key)).toEqual([`usage-alert/${owner.id}/2026-05/80`, `usage-alert/${owner.id}/2026-05/100`]);

    // A new month starts again.
    await addMinutes(owner.id, 850, "2026-06-03T14:00:00.000Z");
    await runUsageAlertJob(ctx(new Date("2026-06-03T16:00:00Z")), mail.port);
    expect(mail.to(owner.email).map((m) => m.subject)).toEqual([MINUTES_TEXT.mailSubject(80), MINUTES_TEXT.mailSubject(100), MINUTES_TEXT.mailSubject(80)]);
  });

  it("sends only the 100 % mail when the month jumps past both, and never the 80 % one after it", async () => {
    const owner = await account("pro");
    const mail = recordingMail();
    await addMinutes(owner.id, 5000);
    await runUsageAlertJob(ctx(), mail.port);
    await runUsageAlertJob(ctx(), mail.port);
    expect(mail.to(owner.email).map((m) => m.subject)).toEqual([MINUTES_TEXT.mailSubject(100)]);
    expect(mail.to(owner.email)[0].text).toContain(MINUTES_TEXT.mailText(100, 5000, 5000, "Pro"));
  });

  it("mails no account without a plan, and retries a failed send on the next run", async () => {
    const none = await account(null);
    await addMinutes(none.id, 5000);
    const owner = await account("basic");
    await addMinutes(owner.id, 900);
    let down = true;
    const mail = recordingMail(() => down);
    const failed = await runUsageAlertJob(ctx(), mail.port);
    expect(failed.failed).toBeGreaterThanOrEqual(1);
    down = false;
    await runUsageAlertJob(ctx(), mail.port);
    await runUsageAlertJob(ctx(), mail.port);
    expect(mail.to(owner.email).map((m) => m.subject)).toEqual([MINUTES_TEXT.mailSubject(80)]);
    expect(mail.to(none.email)).toHaveLength(0);
  });

  it("reads the accounts' plans and months a batch per 25 accounts, not round trips per account", async () => {
    const owner = await account("pro");
    await addMinutes(owner.id, 4000);
    const counted = async () => {
      const d1 = countingD1(env.DB);
      const mail = recordingMail();
      const run = await runUsageAlertJob({ ...ctx(), db: createDb(d1.d1) }, mail.port);
      return { run, trips: d1.trips(), mail };
    };
    const before = await counted();
    expect(before.mail.to(owner.email).map((m) => m.subject)).toEqual([MINUTES_TEXT.mailSubject(80)]);
    for (let i = 0; i < 30; i++) await account(i % 2 ? "basic" : "pro");
    const after = await counted();
    expect(after.run.accounts - before.run.accounts).toBe(30);
    // 30 accounts more: at most two batches more (a chunk of 25 may split), never trips per account.
    expect(after.trips - before.trips).toBeLessThanOrEqual(2);
  });

  it("mails the accounts of the healthy shards when one shard fails, then fails naming that shard; the next run mails the rest", async () => {
    const owners = [await account("basic"), await account("basic")];
    for (const o of owners) await addMinutes(o.id, 900);
    const names = await Promise.all(owners.map((o) => db().select({ shard: profiles.shard }).from(profiles).where(eq(profiles.id, o.id)).get()));
    // The two accounts on different shards, so one shard's failure hides only its own.
    if (names[0]!.shard === names[1]!.shard) {
      const other = names[0]!.shard === "SHARD_0" ? "SHARD_1" : "SHARD_0";
      const calls = await (await shardOf(owners[1].id)).select().from(callLogs).where(eq(callLogs.userId, owners[1].id));
      await (await shardOf(owners[1].id)).delete(callLogs).where(eq(callLogs.userId, owners[1].id));
      await db().update(profiles).set({ shard: other }).where(eq(profiles.id, owners[1].id));
      await (await shardOf(owners[1].id)).insert(callLogs).values(calls.map(({ id: _id, ...c }) => c));
    }
    const failingOn = (await db().select({ shard: profiles.shard }).from(profiles).where(eq(profiles.id, owners[1].id)).get())!.shard!;
    const broken: Shard = { name: failingOn, db: createDb({ prepare: () => { throw new Error("D1_ERROR: unreachable"); }, batch: async () => { throw new Error("D1_ERROR: unreachable"); } } as unknown as D1Database) };
    const shards = testShards().map((s) => (s.name === failingOn ? broken : s));
    const mail = recordingMail();
    await expect(runUsageAlertJob({ ...ctx(), shards }, mail.port)).rejects.toThrow(new RegExp(`1 of 2 shards failed: ${failingOn}: D1_ERROR: unreachable`));
    expect(mail.to(owners[0].email).map((m) => m.subject)).toEqual([MINUTES_TEXT.mailSubject(80)]);
    expect(mail.to(owners[1].email)).toHaveLength(0);
    await runUsageAlertJob(ctx(), mail.port);
    expect(mail.to(owners[1].email).map((m) => m.subject)).toEqual([MINUTES_TEXT.mailSubject(80)]);
    expect(mail.to(owners[0].email)).toHaveLength(1);
  });
});
