// The alert evaluation on a fake clock (decision 071): each metric's definition, the window's edges,
// fire once per breach, resolve once, the cooldown, two overlapping runs, the flags at run time and
// the channels (mail, bell, webhook). Runs evaluate every account's rules, so each test reads only
// its own account's rows. A run is one shard's (decision 078): evaluateAll runs every test shard's,
// as the cron does.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { callLogs, phoneNumbers, profiles } from "../../db/schema";
import { LocalMail } from "../../providers/mail/local";
import type { MailPort, OutgoingMail } from "../../providers";
import { insertAgent, insertAircallCalls, insertAppointments, insertLeads } from "../../test/factories";
import { db, shardNameOf, shardOf, subscribe, testShards } from "../../test/helpers";
import { createDb } from "../../db/client";
import { countingD1 } from "../../test/counting-d1";
import { createRule, updateRule } from "./rules";
import { evaluateAlerts, type AlertDeps, type AlertEvent, type AlertRun } from "./evaluate";
import { webhookChannel } from "./channels";
import type { AlertRuleInput } from "@shared/schemas/alerts";
import { alertRuleBody } from "@shared/schemas/alerts";
import type { CurrentUser } from "../profiles";
import type { WebhookEnv } from "../../webhooks/enqueue";

const NOW = new Date("2026-05-20T16:07:30.000Z");
const minutesBefore = (m: number, from = NOW) => new Date(from.getTime() - m * 60_000);

async function account(flags: Partial<Pick<CurrentUser, "shopwindowsInfo" | "callApp" | "isAdmin">> = {}) {
  const id = crypto.randomUUID();
  const email = `${id}@example.com`;
  await db().insert(profiles).values({ id, email, shopwindowsInfo: Boolean(flags.shopwindowsInfo), callApp: Boolean(flags.callApp) });
  const user: CurrentUser = {
    id,
    email,
    username: null,
    company: null,
    firstName: null,
    lastName: null,
    isAdmin: Boolean(flags.isAdmin),
    shopwindowsInfo: Boolean(flags.shopwindowsInfo),
    callApp: Boolean(flags.callApp),
    shard: await shardNameOf(id),
  };
  const agent = await insertAgent(id, { vapiAssistantId: `asst-${crypto.randomUUID()}`, name: "Front desk" });
  return { user, agent, assistant: agent.vapiAssistantId! };
}

type Account = Awaited<ReturnType<typeof account>>;

const addCall = async (a: Account, at: Date, fields: { endedReason?: string | null; cost?: number; direction?: "inbound" | "outbound"; assistant?: string | null; duration?: number } = {}) =>
  (await shardOf(a.user.id))
    .insert(callLogs)
    .values({
      userId: a.user.id,
      callId: `call-${crypto.randomUUID()}`,
      assistantId: fields.assistant === undefined ? a.assistant : fields.assistant,
      direction: fields.direction ?? "inbound",
      status: "ended",
      endedReason: fields.endedReason === undefined ? "customer-ended-call" : fields.endedReason,
      startTime: at.toISOString(),
      duration: fields.duration ?? 60,
      cost: fields.cost ?? 0,
    });

const rule = async (a: Account, input: Partial<AlertRuleInput>, now = NOW) =>
  createRule(
    { directory: db(), shard: await shardOf(a.user.id) },
    a.user,
    alertRuleBody.parse({
      name: "Rule",
      metric: "error_calls",
      scopeKind: "agent",
      scopeId: String(a.agent.id),
      comparison: "gte",
      threshold: 3,
      windowMinutes: 15,
      cooldownMinutes: 5,
      severity: "critical",
      webhook: true,
      ...input,
    }),
    now,
    { db: db(), mail: new LocalMail(db()), publicUrl: "https://app.example" },
  );

function channels() {
  const local = new LocalMail(db());
  const mails: OutgoingMail[] = [];
  const events: AlertEvent[] = [];
  const mail: MailPort = {
    kind: "local",
    async send(m) {
      mails.push(m);
      await local.send(m);
    },
  };
  return { deps: { db: db(), mail, webhook: async (e: AlertEvent) => void events.push(e), publicUrl: "https://app.example" }, mails, events };
}

/** Every test shard's rules evaluated at once, sharing the store figures, as the cron's run; the runs' figures summed. */
async function evaluateAll(deps: Omit<AlertDeps, "shard">, now: Date, only?: { userId: string }): Promise<AlertRun> {
  const storeValues = new Map();
  const runs = await Promise.all(testShards().map((shard) => evaluateAlerts({ ...deps, shard, storeValues }, now, only)));
  const sum = (f: keyof Omit<AlertRun, "runId">) => runs.reduce((n, r) => n + r[f], 0);
  return { runId: runs[0].runId, rules: sum("rules"), accounts: sum("accounts"), fired: sum("fired"), resolved: sum("resolved"), mailsFailed: sum("mailsFailed"), webhooksFailed: sum("webhooksFailed") };
}

const shardD1 = async (a: Account) => (await shardOf(a.user.id)).$client;
const history = async (a: Account) =>
  (await (await shardD1(a)).prepare("SELECT * FROM alert_history WHERE user_id = ? ORDER BY fired_at, id").bind(a.user.id).all<Record<string, unknown>>()).results;
const bellRows = async (a: Account) =>
  (await (await shardD1(a)).prepare("SELECT kind, title FROM alert_notifications WHERE user_id = ? ORDER BY created_at, id").bind(a.user.id).all<{ kind: string; title: string }>()).results;

describe("the metrics' definitions", () => {
  it("errors: only calls whose ended reason is a failure, in the rule's agent", async () => {
    const a = await account();
    await rule(a, { threshold: 3 });
    await addCall(a, minutesBefore(1), { endedReason: "pipeline-error-openai-llm-failed" });
    await addCall(a, minutesBefore(2), { endedReason: "twilio-failed-to-connect-call" });
    await addCall(a, minutesBefore(3), { endedReason: "customer-ended-call" });
    await addCall(a, minutesBefore(3), { endedReason: "assistant-forwarded-call" });
    await addCall(a, minutesBefore(4), { endedReason: "call.start.error-get-assistant", assistant: "another-assistant" });
    const c = channels();
    await evaluateAll(c.deps, NOW);
    expect(await history(a)).toEqual([]);
    await addCall(a, minutesBefore(5), { endedReason: "assistant-not-found" });
    await evaluateAll(c.deps, NOW);
    expect(await history(a)).toMatchObject([{ metric: "error_calls", value: 3, threshold: 3, window_minutes: 15, scope_label: "Front desk" }]);
  });

  it("call count, forwarded share and cost, over the whole account", async () => {
    const a = await account();
    await rule(a, { metric: "call_count", scopeKind: "all", scopeId: "", threshold: 4, windowMinutes: 60 });
    await rule(a, { metric: "forwarded_share", scopeKind: "all", scopeId: "", threshold: 50, windowMinutes: 60 });
    await rule(a, { metric: "total_cost", scopeKind: "all", scopeId: "", threshold: 1.5, windowMinutes: 60 });
    await addCall(a, minutesBefore(10), { endedReason: "assistant-forwarded-call", cost: 0.5 });
    await addCall(a, minutesBefore(20), { endedReason: "assistant-forwarded-call", cost: 0.5 });
    await addCall(a, minutesBefore(30), { endedReason: "customer-ended-call", cost: 0.5 });
    // Still running: in the count, not in the share's denominator.
    await addCall(a, minutesBefore(40), { endedReason: null, assistant: null });
    await evaluateAll(channels().deps, NOW);
    const fired = Object.fromEntries((await history(a)).map((h) => [h.metric, h.value]));
    expect(fired.call_count).toBe(4);
    expect(fired.forwarded_share).toBeCloseTo(66.67, 1);
    expect(fired.total_cost).toBe(1.5);
  });

  it("minutes used: whole minutes this New York month against the plan's cap", async () => {
    const a = await account();
    await subscribe(a.user.id, "basic");
    await rule(a, { metric: "minutes_used", scopeKind: "all", scopeId: "", threshold: 80, windowMinutes: 0 });
    await addCall(a, minutesBefore(60 * 24), { duration: 799 * 60 });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toEqual([]);
    await addCall(a, minutesBefore(60), { duration: 60 });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toMatchObject([{ metric: "minutes_used", value: 80 }]);
  });

  it("minutes used costs no round trip per rule: an account's run makes as many D1 round trips with 30 such rules as with one", async () => {
    const a = await account();
    await subscribe(a.user.id, "pro");
    await rule(a, { metric: "minutes_used", scopeKind: "all", scopeId: "", threshold: 150, windowMinutes: 0 });
    const tripsOfRun = async () => {
      const directory = countingD1(env.DB);
      const shard = countingD1(await shardD1(a));
      await evaluateAlerts({ ...channels().deps, db: createDb(directory.d1), shard: { name: a.user.shard, db: createDb(shard.d1) } }, NOW, { userId: a.user.id });
      return directory.trips() + shard.trips();
    };
    const one = await tripsOfRun();
    for (let i = 0; i < 29; i++) await rule(a, { metric: "minutes_used", scopeKind: "all", scopeId: "", threshold: 151 + i, windowMinutes: 0 });
    expect(await tripsOfRun()).toBe(one);
    // The rules on the shard, then the accounts' rows in the directory, then their calls on the shard.
    expect(one).toBeLessThanOrEqual(3);
  });

  it("silent line: only in an hour the number usually has calls, from the same weekday's last 4 weeks", async () => {
    const a = await account();
    const [number] = await db()
      .insert(phoneNumbers)
      .values({ userId: a.user.id, phoneNumber: `+1305${Math.floor(1e6 + Math.random() * 8e6)}`, agentId: a.agent.id })
      .returning();
    await rule(a, { metric: "silent_line", scopeKind: "number", scopeId: String(number.id), threshold: 30, windowMinutes: 0 });
    // Inbound calls in this hour two of the last four weeks: not usual yet.
    const week = 7 * 24 * 60;
    await addCall(a, minutesBefore(week - 1));
    await addCall(a, minutesBefore(2 * week - 1));
    await addCall(a, minutesBefore(45));
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toEqual([]);
    // An outbound call does not break the silence; a third week makes the hour usual.
    await addCall(a, minutesBefore(3 * week - 1), { direction: "inbound" });
    await addCall(a, minutesBefore(10), { direction: "outbound" });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toMatchObject([{ metric: "silent_line", value: 45 }]);
    // An inbound call resolves it.
    await addCall(a, minutesBefore(1));
    await evaluateAll(channels().deps, NOW);
    expect((await history(a))[0].resolved_at).toBe(NOW.toISOString());
  });

  it("leads drop: yesterday against the same weekday a week before, for a flagged account", async () => {
    const a = await account({ shopwindowsInfo: true });
    await rule(a, { metric: "leads_drop", scopeKind: "store", scopeId: "TYLER", threshold: 50, windowMinutes: 0 });
    await insertLeads(4, {}, { day: "2026-05-12", store: "TYLER" });
    await insertLeads(1, {}, { day: "2026-05-19", store: "TYLER" });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toMatchObject([{ metric: "leads_drop", value: 75 }]);
  });

  it("appointment no-shows: yesterday's appointments at the store, cancelled ones left out", async () => {
    const a = await account({ shopwindowsInfo: true });
    await rule(a, { metric: "appointment_no_show_share", scopeKind: "store", scopeId: "NAPLES", threshold: 25, windowMinutes: 0 });
    await insertAppointments(3, { status: "Visited" }, { day: "2026-05-19", store: "NAPLES" });
    await insertAppointments(2, { status: "Cancelled" }, { day: "2026-05-19", store: "NAPLES" });
    await insertAppointments(5, { status: "No Show" }, { day: "2026-05-18", store: "NAPLES" });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toEqual([]);
    await insertAppointments(1, { status: "No Show" }, { day: "2026-05-19", store: "NAPLES" });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toMatchObject([{ metric: "appointment_no_show_share", value: 25 }]);
  });

  it("Aircall calls not answered: today's inbound calls on the store's line, for an account with call_app", async () => {
    const a = await account({ callApp: true });
    await rule(a, { metric: "aircall_unanswered_share", scopeKind: "store", scopeId: "PEMBROKE", threshold: 75, windowMinutes: 0 });
    await insertAircallCalls(3, { direction: "inbound", answeredAt: null }, { day: "2026-05-20", store: "PEMBROKE" });
    await insertAircallCalls(1, { direction: "inbound", answeredAt: "2026-05-20T15:00:05.000Z" }, { day: "2026-05-20", store: "PEMBROKE" });
    await insertAircallCalls(4, { direction: "outbound", answeredAt: null }, { day: "2026-05-20", store: "PEMBROKE" });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toMatchObject([{ metric: "aircall_unanswered_share", value: 75 }]);
  });

  it("a store rule of an account that has lost its flag is not evaluated", async () => {
    const a = await account({ shopwindowsInfo: true });
    await rule(a, { metric: "leads_drop", scopeKind: "store", scopeId: "TULSA", threshold: 10, windowMinutes: 0 });
    await insertLeads(4, {}, { day: "2026-05-12", store: "TULSA" });
    await db().update(profiles).set({ shopwindowsInfo: false }).where(eq(profiles.id, a.user.id));
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toEqual([]);
  });
});

describe("the window's edges", () => {
  it("counts from the start of the minute N minutes before the current one through now", async () => {
    const a = await account();
    await rule(a, { threshold: 2 });
    // NOW is 16:07:30: a 15-minute window starts at 15:52:00.
    await addCall(a, new Date("2026-05-20T15:51:59.999Z"), { endedReason: "pipeline-error-x" });
    await addCall(a, new Date("2026-05-20T15:52:00.000Z"), { endedReason: "pipeline-error-x" });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toEqual([]);
    await addCall(a, new Date("2026-05-20T16:07:29.000Z"), { endedReason: "pipeline-error-x" });
    await evaluateAll(channels().deps, NOW);
    expect(await history(a)).toMatchObject([{ value: 2, window_start: "2026-05-20T15:52:00.000Z", window_end: NOW.toISOString() }]);
  });
});

describe("fire once, resolve once, cooldown", () => {
  it("fires once per breach with mail, bell and webhook; resolves once when the window has passed", async () => {
    const a = await account();
    await subscribe(a.user.id, "pro");
    await rule(a, { threshold: 3, extraEmails: ["ops@example.com"] });
    // The extra address is mailed once it has confirmed (./mail.test.ts follows the link itself).
    await env.DB.prepare("UPDATE alert_mail_recipients SET status = 'confirmed' WHERE user_id = ?").bind(a.user.id).run();
    for (const m of [1, 2, 3]) await addCall(a, minutesBefore(m), { endedReason: "pipeline-error-x" });
    const c = channels();
    await evaluateAll(c.deps, NOW);
    await evaluateAll(c.deps, minutesBefore(-1));
    expect(await history(a)).toHaveLength(1);
    const mine = c.mails.filter((m) => m.to === a.user.email || m.to === "ops@example.com");
    expect(mine.map((m) => m.to).sort()).toEqual([a.user.email, "ops@example.com"].sort());
    expect(mine[0].subject).toBe("[Critical] Alert triggered: Calls ending in an error");
    expect(c.events.filter((e) => e.userId === a.user.id).map((e) => [e.type, e.alert.value])).toEqual([["alert.triggered", 3]]);
    expect(await bellRows(a)).toMatchObject([{ kind: "triggered" }]);

    // 20 minutes on, the three calls have left the window.
    const later = minutesBefore(-20);
    await evaluateAll(c.deps, later);
    await evaluateAll(c.deps, minutesBefore(-21));
    expect(await history(a)).toMatchObject([{ resolved_at: later.toISOString(), resolved_value: 0 }]);
    expect(c.events.filter((e) => e.userId === a.user.id).map((e) => e.type)).toEqual(["alert.triggered", "alert.resolved"]);
    expect((await bellRows(a)).map((b) => b.kind)).toEqual(["triggered", "resolved"]);
  });

  it("does not fire again inside the cooldown, and does after it", async () => {
    const a = await account();
    await rule(a, { threshold: 1, cooldownMinutes: 60 });
    const c = channels();
    await addCall(a, minutesBefore(1), { endedReason: "pipeline-error-x" });
    await evaluateAll(c.deps, NOW);
    // Resolved 20 minutes later, breached again at 30 minutes: inside the hour's cooldown.
    await evaluateAll(c.deps, minutesBefore(-20));
    await addCall(a, minutesBefore(-29), { endedReason: "pipeline-error-x" });
    await evaluateAll(c.deps, minutesBefore(-30));
    expect(await history(a)).toHaveLength(1);
    // At 61 minutes a new breach fires.
    await addCall(a, minutesBefore(-60), { endedReason: "pipeline-error-x" });
    await evaluateAll(c.deps, minutesBefore(-61));
    expect((await history(a)).map((h) => h.fired_at)).toEqual([NOW.toISOString(), minutesBefore(-61).toISOString()]);
  });

  it("a rule without a state row yet (a move's copy) reads as ok, fires once, and its first firing writes the row", async () => {
    const a = await account();
    const shard = await shardD1(a);
    await shard
      .prepare(
        "INSERT INTO alert_rules (user_id, name, metric, scope_kind, scope_id, comparison, threshold, window_minutes, cooldown_minutes, severity, created_at) " +
          "VALUES (?, 'Copied', 'call_count', 'all', '', 'gte', 1, 15, 5, 'warning', ?)",
      )
      .bind(a.user.id, minutesBefore(60).toISOString())
      .run();
    await addCall(a, minutesBefore(1));
    const c = channels();
    await evaluateAll(c.deps, NOW);
    await evaluateAll(c.deps, minutesBefore(-1));
    expect(await history(a)).toMatchObject([{ rule_name: "Copied", value: 1 }]);
    expect(await shard.prepare("SELECT status FROM alert_rule_state WHERE user_id = ?").bind(a.user.id).all()).toMatchObject({ results: [{ status: "triggered" }] });
  });

  it("two overlapping runs fire a breach once and send one mail", async () => {
    const a = await account();
    await rule(a, { threshold: 1 });
    await addCall(a, minutesBefore(1), { endedReason: "pipeline-error-x" });
    const c = channels();
    const runs = await Promise.all([evaluateAll(c.deps, NOW), evaluateAll(c.deps, NOW), evaluateAll(c.deps, minutesBefore(-1))]);
    expect(runs.every((r) => r.runId)).toBe(true);
    expect(await history(a)).toHaveLength(1);
    expect(c.mails.filter((m) => m.to === a.user.email)).toHaveLength(1);
    expect(c.events.filter((e) => e.userId === a.user.id)).toHaveLength(1);
    expect(await bellRows(a)).toHaveLength(1);
  });

  it("raising the threshold of a triggered rule resolves its alert at the next run, once, with alert.resolved", async () => {
    const a = await account();
    const created = await rule(a, { threshold: 3 });
    for (const m of [1, 2, 3]) await addCall(a, minutesBefore(m), { endedReason: "pipeline-error-x" });
    const c = channels();
    await evaluateAll(c.deps, NOW);
    const edited = alertRuleBody.parse({
      name: "Rule",
      metric: "error_calls",
      scopeKind: "agent",
      scopeId: String(a.agent.id),
      comparison: "gte",
      threshold: 10,
      windowMinutes: 15,
      cooldownMinutes: 5,
      severity: "critical",
      webhook: true,
    });
    const view = await updateRule({ directory: db(), shard: await shardOf(a.user.id) }, a.user, created.id, edited, minutesBefore(-1), { db: db(), mail: new LocalMail(db()), publicUrl: "https://app.example" });
    // The edit itself leaves the alert open: the rule still says triggered until it is evaluated.
    expect(view.status).toBe("triggered");
    expect(await history(a)).toMatchObject([{ resolved_at: null }]);
    expect(c.events.filter((e) => e.userId === a.user.id).map((e) => e.type)).toEqual(["alert.triggered"]);

    const next = minutesBefore(-2);
    await evaluateAll(c.deps, next);
    await evaluateAll(c.deps, minutesBefore(-3));
    expect(await history(a)).toMatchObject([{ resolved_at: next.toISOString(), resolved_value: 3 }]);
    expect(c.events.filter((e) => e.userId === a.user.id).map((e) => [e.type, e.alert.value])).toEqual([
      ["alert.triggered", 3],
      ["alert.resolved", 3],
    ]);
    expect(c.mails.filter((m) => m.to === a.user.email).map((m) => m.subject)).toEqual(["[Critical] Alert triggered: Calls ending in an error", "Alert resolved: Calls ending in an error"]);
  });

  it("an account's run (after a call webhook) evaluates only that account's call rules", async () => {
    const a = await account();
    const b = await account();
    await rule(a, { threshold: 1 });
    await rule(b, { threshold: 1 });
    await addCall(a, minutesBefore(1), { endedReason: "pipeline-error-x" });
    await addCall(b, minutesBefore(1), { endedReason: "pipeline-error-x" });
    await evaluateAll(channels().deps, NOW, { userId: a.user.id });
    expect(await history(a)).toHaveLength(1);
    expect(await history(b)).toHaveLength(0);
  });
});

describe("the webhook channel", () => {
  it("writes an alert.triggered delivery for each of the account's endpoints subscribed to it, then alert.resolved", async () => {
    const a = await account();
    await subscribe(a.user.id, "pro");
    await (await shardD1(a)).prepare("INSERT INTO webhook_endpoints (id, user_id, url, events, secret) VALUES (?, ?, ?, ?, ?)")
      .bind(`we-${a.user.id}`, a.user.id, "https://hooks.example/alerts", JSON.stringify(["alert.triggered", "alert.resolved"]), "whsec_test")
      .run();
    await rule(a, { threshold: 1 });
    await addCall(a, minutesBefore(1), { endedReason: "pipeline-error-x" });
    const deps = { ...channels().deps, webhook: webhookChannel(env as unknown as WebhookEnv) };
    await evaluateAll(deps, NOW);
    await evaluateAll(deps, minutesBefore(-20));
    const deliveries = (
      await (await shardD1(a)).prepare("SELECT event_type, payload FROM webhook_deliveries WHERE user_id = ? ORDER BY created_at, rowid").bind(a.user.id).all<{ event_type: string; payload: string }>()
    ).results;
    expect(deliveries.map((d) => d.event_type)).toEqual(["alert.triggered", "alert.resolved"]);
    expect(JSON.parse(deliveries[0].payload).data).toMatchObject({ ruleName: "Rule", metric: "error_calls", value: 1, threshold: 1, windowMinutes: 15 });
  });
});
