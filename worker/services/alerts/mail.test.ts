// Alert mail is not a relay (decision 073): an extra address gets nothing until it confirms; the
// subject carries no word of the account's; the daily caps per account and per recipient hold inside
// one run, past which the firing is still recorded, the bell rings and the owner is told once; the
// cooldown's floor; what the plan allows, also for rules saved before; the confirmation mail's caps.
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { ALERT_CONFIRM_CAPS, ALERT_COOLDOWN, ALERT_MAIL_CAPS } from "@shared/alerts";
import { ALERT_MAIL_TEXT } from "@shared/messages";
import { alertRuleBody, type AlertRuleInput } from "@shared/schemas/alerts";
import { profiles } from "../../db/schema";
import type { MailPort, OutgoingMail } from "../../providers";
import { ResendMail } from "../../providers/mail/resend";
import { db, shardNameOf, shardOf, subscribe } from "../../test/helpers";
import type { CurrentUser } from "../profiles";
import { evaluateAlerts, type AlertDeps, type AlertEvent } from "./evaluate";
import { confirmByToken, requestConfirmations, unsubscribeById } from "./recipients";
import { createRule, pruneAlertMailLog, type AlertDbs } from "./rules";

const NOW = new Date("2026-06-10T15:00:30.000Z");
const after = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const SPAM = "BUY CHEAP WATCHES at spam.example";

function outbox() {
  const mails: OutgoingMail[] = [];
  const mail: MailPort = { kind: "local", send: async (m) => void mails.push(m) };
  return { mails, mail, deps: { db: db(), mail, webhook: async (_e: AlertEvent) => undefined, publicUrl: "https://app.example" } };
}

async function account(plan?: "basic" | "pro") {
  const id = crypto.randomUUID();
  const email = `owner-${id}@example.com`;
  await db().insert(profiles).values({ id, email });
  if (plan) await subscribe(id, plan);
  const user: CurrentUser = { id, email, username: null, company: null, firstName: null, lastName: null, isAdmin: false, shopwindowsInfo: false, callApp: false, shard: await shardNameOf(id) };
  return user;
}

/** The account's shard (its rules, states, history and bell; decision 078) as a bare binding. */
const shardD1 = async (user: CurrentUser) => (await shardOf(user.id)).$client;
const dbsOf = async (user: CurrentUser): Promise<AlertDbs> => ({ directory: db(), shard: await shardOf(user.id) });
/** A run of the rules of the account's shard, as the cron's run there. */
const evaluateOn = async (user: CurrentUser, deps: Omit<AlertDeps, "shard">, now: Date, only?: { userId: string }) =>
  evaluateAlerts({ ...deps, shard: { name: user.shard, db: await shardOf(user.id) } }, now, only);

const victims = (n: number) => Array.from({ length: n }, (_, i) => `victim${i}-${crypto.randomUUID().slice(0, 8)}@example.net`);

/** A rule as stored before consent existed: any extra addresses, any cooldown, straight into the tables. */
async function legacyRule(user: CurrentUser, over: { name?: string; extra?: string[]; cooldown?: number; threshold?: number } = {}) {
  const shard = await shardD1(user);
  const { id } = (await shard.prepare(
    "INSERT INTO alert_rules (user_id, name, metric, scope_kind, scope_id, comparison, threshold, window_minutes, cooldown_minutes, severity, extra_emails) " +
      "VALUES (?, ?, 'call_count', 'all', '', 'gte', ?, 15, ?, 'warning', ?) RETURNING id",
  )
    .bind(user.id, over.name ?? SPAM, over.threshold ?? 0, over.cooldown ?? 0, JSON.stringify(over.extra ?? []))
    .first<{ id: number }>())!;
  await shard.prepare("INSERT INTO alert_rule_state (rule_id, user_id, status, since) VALUES (?, ?, 'ok', ?)").bind(id, user.id, NOW.toISOString()).run();
  return id;
}

const setThreshold = async (user: CurrentUser, id: number, threshold: number) => (await shardD1(user)).prepare("UPDATE alert_rules SET threshold = ? WHERE id = ?").bind(threshold, id).run();

const body = (input: Partial<AlertRuleInput>) =>
  alertRuleBody.parse({ name: SPAM, metric: "call_count", scopeKind: "all", scopeId: "", comparison: "gte", threshold: 0, windowMinutes: 15, cooldownMinutes: 5, severity: "warning", ...input });

const historyCount = async (user: CurrentUser) => Number((await (await shardD1(user)).prepare("SELECT count(*) AS n FROM alert_history WHERE user_id = ?").bind(user.id).first<{ n: number }>())!.n);
const bellCount = async (user: CurrentUser) => Number((await (await shardD1(user)).prepare("SELECT count(*) AS n FROM alert_notifications WHERE user_id = ?").bind(user.id).first<{ n: number }>())!.n);
const tokenIn = (m: OutgoingMail) => /token=([A-Za-z0-9_-]{43})/.exec(m.text)![1];

describe("the reproduction: three call_count >= 0 rules, five extra addresses each, a spammy name, the minute cron", () => {
  it("mails no unconfirmed address, never puts the name in a subject, and the cooldown floor stops raise-and-lower", async () => {
    const user = await account();
    const to = victims(5);
    const ids = [await legacyRule(user, { extra: to }), await legacyRule(user, { extra: to }), await legacyRule(user, { extra: to })];
    const c = outbox();
    // Three runs, the threshold raised and lowered between them: a relay would mail again at each.
    await evaluateOn(user, c.deps, NOW);
    for (const id of ids) await setThreshold(user, id, 1_000);
    await evaluateOn(user, c.deps, after(1));
    for (const id of ids) await setThreshold(user, id, 0);
    await evaluateOn(user, c.deps, after(2));
    expect(c.mails.filter((m) => to.includes(m.to))).toEqual([]);
    expect(c.mails.filter((m) => m.subject.includes("WATCHES"))).toEqual([]);
    // The owner's own address: the three firings of the first run and their resolution, not again inside the floor of 5 minutes.
    const own = c.mails.filter((m) => m.to === user.email);
    expect(own.map((m) => m.subject)).toEqual([...Array(3).fill("[Warning] Alert triggered: Call count"), ...Array(3).fill("Alert resolved: Call count")]);
    expect(own[0].text).toContain(`Rule (named by the account): ${SPAM}`);
    expect(await historyCount(user)).toBe(3);
    // Past the floor, lowered again: they fire again.
    await evaluateOn(user, c.deps, after(3));
    for (const id of ids) await setThreshold(user, id, 1_000);
    await evaluateOn(user, c.deps, after(4));
    for (const id of ids) await setThreshold(user, id, 0);
    await evaluateOn(user, c.deps, after(ALERT_COOLDOWN.min + 1));
    expect(await historyCount(user)).toBe(6);
  });

  it("a plan-less account mails nobody but itself even where the addresses confirmed (a rule saved before the plan limits)", async () => {
    const user = await account();
    const [victim] = victims(1);
    await legacyRule(user, { extra: [victim] });
    await env.DB.prepare("INSERT INTO alert_mail_recipients (user_id, email, status, unsubscribe_id, changed_at) VALUES (?, ?, 'confirmed', ?, ?)")
      .bind(user.id, victim, "u".repeat(43), NOW.toISOString())
      .run();
    const c = outbox();
    await evaluateOn(user, c.deps, NOW);
    expect(c.mails.filter((m) => m.to === victim)).toEqual([]);
    expect(c.mails.filter((m) => m.to === user.email)).toHaveLength(1);
  });

  it("on Pro, a saved rule mails each extra address one confirmation of our words only, and nothing else until it confirms", async () => {
    const user = await account("pro");
    const to = victims(5);
    const c = outbox();
    for (let i = 0; i < 3; i++) await createRule(await dbsOf(user), user, body({ extraEmails: to }), NOW, { db: db(), mail: c.mail, publicUrl: "https://app.example" });
    const confirmations = c.mails.filter((m) => to.includes(m.to));
    expect(confirmations.map((m) => m.to).sort()).toEqual([...to].sort());
    for (const m of confirmations) {
      expect(m.subject).toBe(ALERT_MAIL_TEXT.confirmSubject);
      expect(m.text).not.toContain("WATCHES");
      expect(m.text).not.toContain(user.email);
      expect(m.text).toContain("https://app.example/api/alerts/recipients/confirm?token=");
    }
    c.mails.length = 0;
    await evaluateOn(user, c.deps, NOW);
    expect(c.mails.filter((m) => to.includes(m.to))).toEqual([]);

    // One confirms: from now on it gets each rule's alert, with a one-click unsubscribe.
    expect(await confirmByToken(db(), tokenIn(confirmations.find((m) => m.to === to[0])!), NOW)).toBe(true);
    await (await shardD1(user)).prepare("UPDATE alert_rule_state SET status = 'ok' WHERE user_id = ?").bind(user.id).run();
    c.mails.length = 0;
    await evaluateOn(user, c.deps, after(10));
    const theirs = c.mails.filter((m) => m.to === to[0]);
    expect(theirs).toHaveLength(3);
    expect(c.mails.filter((m) => to.slice(1).includes(m.to))).toEqual([]);
    const link = /<(https:\/\/app\.example\/api\/alerts\/recipients\/unsubscribe\?token=([A-Za-z0-9_-]{43}))>/.exec(theirs[0].headers!["List-Unsubscribe"])!;
    expect(theirs[0].headers!["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(theirs[0].text).toContain(link[1]);

    // Unsubscribed once: nothing more from any rule of the account.
    expect(await unsubscribeById(db(), link[2], after(10))).toBe(true);
    await (await shardD1(user)).prepare("UPDATE alert_rule_state SET status = 'ok' WHERE user_id = ?").bind(user.id).run();
    c.mails.length = 0;
    await evaluateOn(user, c.deps, after(20));
    expect(c.mails.filter((m) => m.to === to[0])).toEqual([]);
    expect(c.mails.filter((m) => m.to === user.email)).toHaveLength(3);
  });
});

describe("the daily caps", () => {
  it(`stops at ${ALERT_MAIL_CAPS.perRecipientPerDay} mails to one address in one run, records every firing, rings the bell and tells the owner once`, async () => {
    const user = await account("pro");
    const rules = ALERT_MAIL_CAPS.perRecipientPerDay + 5;
    for (let i = 0; i < rules; i++) await legacyRule(user, { name: `r${i}`, cooldown: 5 });
    const c = outbox();
    await evaluateOn(user, c.deps, NOW);
    expect(await historyCount(user)).toBe(rules);
    expect(await bellCount(user)).toBe(rules);
    const mine = () => c.mails.filter((m) => m.to === user.email);
    expect(mine().filter((m) => m.kind === "alert")).toHaveLength(ALERT_MAIL_CAPS.perRecipientPerDay);
    const paused = mine().filter((m) => m.kind === "alert_paused");
    expect(paused.map((m) => [m.to, m.subject])).toEqual([[user.email, ALERT_MAIL_TEXT.pausedSubject]]);
    // Later that day: still recorded, no mail, no second notice.
    await (await shardD1(user)).prepare("UPDATE alert_rule_state SET status = 'ok' WHERE user_id = ?").bind(user.id).run();
    c.mails.length = 0;
    await evaluateOn(user, c.deps, after(10));
    expect(await historyCount(user)).toBe(2 * rules);
    expect(mine()).toEqual([]);
    // The next UTC day, mail resumes.
    await (await shardD1(user)).prepare("UPDATE alert_rule_state SET status = 'ok' WHERE user_id = ?").bind(user.id).run();
    await evaluateOn(user, c.deps, after(24 * 60));
    expect(mine().filter((m) => m.kind === "alert")).toHaveLength(ALERT_MAIL_CAPS.perRecipientPerDay);
  });

  it(`stops at ${ALERT_MAIL_CAPS.perAccountPerDay} mails of one account a day, whoever the recipients`, async () => {
    const user = await account("pro");
    const day = NOW.toISOString().slice(0, 10);
    // The account's day so far: one short of its cap, spread over other addresses.
    await env.DB.batch(
      Array.from({ length: ALERT_MAIL_CAPS.perAccountPerDay - 1 }, (_, i) =>
        env.DB.prepare("INSERT INTO alert_mail_log (user_id, email, day, kind, ref) VALUES (?, ?, ?, 'alert', ?)").bind(user.id, `x${i}@example.org`, day, `${user.id}:${i}`),
      ),
    );
    await legacyRule(user, { name: "a", cooldown: 5 });
    await legacyRule(user, { name: "b", cooldown: 5 });
    const c = outbox();
    await evaluateOn(user, c.deps, NOW);
    expect(await historyCount(user)).toBe(2);
    expect(c.mails.filter((m) => m.to === user.email).map((m) => m.kind).sort()).toEqual(["alert", "alert_paused"]);
  });
});

describe("the confirmation mail's caps", () => {
  it(`mails one address at most ${ALERT_CONFIRM_CAPS.perAddressPerDay} times a day, and one account at most ${ALERT_CONFIRM_CAPS.perAccountPerDay} confirmations`, async () => {
    const user = await account("pro");
    const c = outbox();
    const deps = { db: db(), mail: c.mail, publicUrl: "https://app.example" };
    const [one] = victims(1);
    await createRule(await dbsOf(user), user, body({ extraEmails: [one] }), NOW, deps);
    for (let i = 0; i < 5; i++) await requestConfirmations(deps, user.id, [one], NOW, true);
    expect(c.mails.filter((m) => m.to === one)).toHaveLength(ALERT_CONFIRM_CAPS.perAddressPerDay);
    // The same address asked by another account meets the same cap.
    const other = await account("pro");
    await createRule(await dbsOf(other), other, body({ extraEmails: [one] }), NOW, deps);
    expect(c.mails.filter((m) => m.to === one)).toHaveLength(ALERT_CONFIRM_CAPS.perAddressPerDay);

    const many = victims(15);
    for (let i = 0; i < 3; i++) await createRule(await dbsOf(user), user, body({ extraEmails: many.slice(i * 5, i * 5 + 5) }), NOW, deps);
    const sent = c.mails.filter((m) => m.kind === "alert_confirm" && m.to !== one);
    expect(sent).toHaveLength(ALERT_CONFIRM_CAPS.perAccountPerDay - ALERT_CONFIRM_CAPS.perAddressPerDay);
    // The next day the account may ask again.
    expect(await requestConfirmations(deps, user.id, many.slice(14), after(24 * 60))).toEqual(many.slice(14));
  });
});

describe("the caps' log", () => {
  it("is pruned nightly of the days before yesterday", async () => {
    const user = await account();
    const day = (offset: number) => after(offset * 24 * 60).toISOString().slice(0, 10);
    for (const offset of [-3, -1, 0]) {
      await env.DB.prepare("INSERT INTO alert_mail_log (user_id, email, day, kind, ref) VALUES (?, ?, ?, 'alert', ?)").bind(user.id, user.email, day(offset), `${user.id}:${offset}`).run();
    }
    await pruneAlertMailLog(db(), NOW);
    const days = (await env.DB.prepare("SELECT day FROM alert_mail_log WHERE user_id = ? ORDER BY day").bind(user.id).all<{ day: string }>()).results.map((r) => r.day);
    expect(days).toEqual([day(-1), day(0)]);
  });
});

describe("through the real mail adapter", () => {
  it("an alert to a confirmed extra address reaches Resend with its RFC 8058 headers, the owner's without them", async () => {
    const user = await account("pro");
    const [ops] = victims(1);
    await legacyRule(user, { name: "Front desk", cooldown: 5, extra: [ops] });
    await env.DB.prepare("INSERT INTO alert_mail_recipients (user_id, email, status, unsubscribe_id, changed_at) VALUES (?, ?, 'confirmed', ?, ?)")
      .bind(user.id, ops, "r".repeat(43), NOW.toISOString())
      .run();
    const base = inject("standins").resend;
    const apiKey = `re_test_alerts_${crypto.randomUUID().slice(0, 8)}`;
    const mail = new ResendMail({ apiKey, from: "Alerts <alerts@example.test>", baseUrl: base });
    // Only this account's rules: the evaluation of one account.
    await evaluateOn(user, { db: db(), mail, webhook: async () => undefined, publicUrl: "https://app.example" }, NOW, { userId: user.id });
    type Sent = { to: string[]; subject: string; text: string; headers?: Record<string, string> };
    const sent = ((await (await fetch(`${base}/__sent/${apiKey}`)).json()) as { emails: Sent[] }).emails;
    const theirs = sent.find((m) => m.to[0] === ops)!;
    expect(theirs.headers).toEqual({
      "List-Unsubscribe": `<https://app.example/api/alerts/recipients/unsubscribe?token=${"r".repeat(43)}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(theirs.subject).toBe("[Warning] Alert triggered: Call count");
    expect(sent.find((m) => m.to[0] === user.email)!.headers).toBeUndefined();
  });
});
