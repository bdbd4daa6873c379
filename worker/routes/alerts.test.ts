// The alerts API (decision 071): bad input answered 400 naming the field, the flags (a customer
// cannot make a store rule), the scope must be the account's, the 50 rules, another account's rule
// or alert is 404, Test's replay over the last 7 days, the history's acknowledgement and the bell.
import { describe, expect, it } from "vitest";
import { MAX_ALERT_RULES } from "@shared/alerts";
import { ALERT_MAIL_TEXT } from "@shared/messages";
import { callLogs } from "../db/schema";
import { insertAgent } from "../test/factories";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, type Json } from "../test/helpers";
import { evaluateAlerts } from "../services/alerts/evaluate";
import { LocalMail } from "../providers/mail/local";

/** The account's shard as an evaluation takes it (decision 078). */
const shardOfAccount = async (userId: string) => ({ name: await shardNameOf(userId), db: await shardOf(userId) });

async function owner(appMetadata: Json = {}, plan: "basic" | "pro" | null = "pro") {
  const s = await signUpAndSignIn({ appMetadata, plan });
  const agent = await insertAgent(s.userId, { vapiAssistantId: `asst-${crypto.randomUUID()}`, name: "Front desk" });
  return { ...s, agent };
}

const errorsRule = (agentId: number, over: Json = {}) => ({
  name: "Errors at the front desk",
  metric: "error_calls",
  scopeKind: "agent",
  scopeId: String(agentId),
  comparison: "gte",
  threshold: 3,
  windowMinutes: 15,
  cooldownMinutes: 30,
  severity: "critical",
  ...over,
});

const post = (token: string, body: Json) => call("/api/alerts/rules", { method: "POST", token, json: body });

describe("rules", () => {
  it("creates, lists, updates and deletes the account's own rule", async () => {
    const s = await owner();
    const created = await post(s.accessToken, errorsRule(s.agent.id));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.rule).toMatchObject({ metric: "error_calls", scopeLabel: "Front desk", status: "ok", emailAccount: true, bell: true, webhook: false });
    const listed = await call("/api/alerts/rules", { token: s.accessToken });
    expect(listed.body.rules).toHaveLength(1);
    expect(listed.body.metrics).not.toContain("leads_drop");
    expect(listed.body.scopes).toContainEqual({ kind: "agent", id: String(s.agent.id), label: "Front desk" });
    const id = created.body.rule.id;
    const updated = await call(`/api/alerts/rules/${id}`, { method: "PUT", token: s.accessToken, json: errorsRule(s.agent.id, { threshold: 5 }) });
    expect(updated.body.rule.threshold).toBe(5);
    expect((await call(`/api/alerts/rules/${id}`, { method: "DELETE", token: s.accessToken })).body).toEqual({ deleted: true });
    expect((await call("/api/alerts/rules", { token: s.accessToken })).body.rules).toEqual([]);
  });

  it("answers 400 naming the field for bad input", async () => {
    const s = await owner();
    const cases: [Json, string][] = [
      [{ metric: "happiness" }, "metric"],
      [{ threshold: 0 }, "threshold"],
      [{ threshold: 100_001 }, "threshold"],
      [{ metric: "forwarded_share", threshold: 101 }, "threshold"],
      [{ threshold: "three" }, "threshold"],
      [{ windowMinutes: 30 }, "windowMinutes"],
      [{ windowMinutes: 0 }, "windowMinutes"],
      [{ comparison: "lte" }, "comparison"],
      [{ cooldownMinutes: -1 }, "cooldownMinutes"],
      [{ severity: "mild" }, "severity"],
      [{ name: "" }, "name"],
      [{ scopeKind: "store", scopeId: "MIAMI" }, "scopeKind"],
      [{ scopeKind: "agent", scopeId: "" }, "scopeId"],
      [{ extraEmails: ["not an address"] }, "extraEmails.0"],
      [{ surprise: 1 }, "body"],
    ];
    for (const [over, field] of cases) {
      const res = await post(s.accessToken, errorsRule(s.agent.id, over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.field, JSON.stringify(over)).toBe(field);
    }
  });

  it("refuses a scope that is not the account's: 400 naming scopeId", async () => {
    const s = await owner();
    const other = await owner();
    const res = await post(s.accessToken, errorsRule(other.agent.id));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("scopeId");
    const number = await post(s.accessToken, errorsRule(0, { scopeKind: "number", scopeId: "999999" }));
    expect(number.body.field).toBe("scopeId");
  });

  it("a customer cannot make a store rule (403 naming metric); an account with the flag can", async () => {
    const customer = await owner();
    const store = { metric: "leads_drop", scopeKind: "store", scopeId: "MIAMI", threshold: 30, windowMinutes: 0 };
    const refused = await post(customer.accessToken, errorsRule(0, store));
    expect(refused.status).toBe(403);
    expect(refused.body.field).toBe("metric");
    const aircall = await post(customer.accessToken, errorsRule(0, { ...store, metric: "aircall_unanswered_share" }));
    expect(aircall.status).toBe(403);
    const staff = await owner({ shopwindows_info: true });
    expect((await post(staff.accessToken, errorsRule(0, store))).status).toBe(201);
    expect((await post(staff.accessToken, errorsRule(0, { ...store, scopeId: "ATLANTIS" }))).body.field).toBe("scopeId");
    // The store flag does not open Aircall's rules.
    expect((await post(staff.accessToken, errorsRule(0, { ...store, metric: "aircall_unanswered_share" }))).status).toBe(403);
    const listed = await call("/api/alerts/rules", { token: staff.accessToken });
    expect(listed.body.metrics).toContain("leads_drop");
    expect(listed.body.scopes).toContainEqual({ kind: "store", id: "MIAMI", label: "MIAMI" });
  });

  it(`keeps at most ${MAX_ALERT_RULES} rules (Pro)`, async () => {
    const s = await owner();
    const body = errorsRule(s.agent.id);
    const d1 = (await shardOf(s.userId)).$client;
    await d1.batch(
      Array.from({ length: MAX_ALERT_RULES - 1 }, (_, i) =>
        d1
          .prepare(
            "INSERT INTO alert_rules (user_id, name, metric, scope_kind, scope_id, comparison, threshold, window_minutes, cooldown_minutes, severity) VALUES (?, ?, 'call_count', 'all', '', 'gte', 1, 15, 0, 'warning')",
          )
          .bind(s.userId, `r${i}`),
      ),
    );
    expect((await post(s.accessToken, body)).status).toBe(201);
    const over = await post(s.accessToken, body);
    expect(over.status).toBe(409);
    expect(over.body.field).toBe("rules");
  });

  it("another account's rule is not found", async () => {
    const s = await owner();
    const other = await owner();
    const id = (await post(s.accessToken, errorsRule(s.agent.id))).body.rule.id;
    expect((await call(`/api/alerts/rules/${id}`, { method: "PUT", token: other.accessToken, json: errorsRule(other.agent.id) })).status).toBe(404);
    expect((await call(`/api/alerts/rules/${id}`, { method: "DELETE", token: other.accessToken })).status).toBe(404);
    expect((await call("/api/alerts/rules", { token: s.accessToken })).body.rules).toHaveLength(1);
  });
});

describe("Test", () => {
  it("replays the rule over the last 7 days: a burst of errors fires once, resolves when it leaves the window", async () => {
    const s = await owner();
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    // Two bursts of three errors, two days apart; two lone errors that never reach three.
    for (const ago of [3000, 3001, 3002, 100, 101, 102, 5000, 6000]) {
      await (await shardOf(s.userId))
        .insert(callLogs)
        .values({ userId: s.userId, callId: `c-${crypto.randomUUID()}`, assistantId: s.agent.vapiAssistantId, direction: "inbound", status: "ended", endedReason: "pipeline-error-x", startTime: at(ago) });
    }
    const res = await call("/api/alerts/test", { method: "POST", token: s.accessToken, json: errorsRule(s.agent.id, { cooldownMinutes: 5 }) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ replayed: true, grain: "minute", fired: 2 });
    expect(res.body.firings.every((f: Json) => f.value === 3 && f.resolvedAt)).toBe(true);
    // A threshold of 4 would never have fired.
    expect((await call("/api/alerts/test", { method: "POST", token: s.accessToken, json: errorsRule(s.agent.id, { threshold: 4 }) })).body.fired).toBe(0);
  });

  it("checks the body and the account as a save does", async () => {
    const s = await owner();
    expect((await call("/api/alerts/test", { method: "POST", token: s.accessToken, json: errorsRule(s.agent.id, { threshold: -1 }) })).body.field).toBe("threshold");
    const store = errorsRule(0, { metric: "leads_drop", scopeKind: "store", scopeId: "MIAMI", threshold: 30, windowMinutes: 0 });
    expect((await call("/api/alerts/test", { method: "POST", token: s.accessToken, json: store })).status).toBe(403);
  });
});

describe("history and bell", () => {
  it("lists the account's alerts, acknowledges one with who did it, and reads the bell", async () => {
    const s = await owner();
    const other = await owner();
    await post(s.accessToken, errorsRule(s.agent.id, { threshold: 1 }));
    await (await shardOf(s.userId))
      .insert(callLogs)
      .values({ userId: s.userId, callId: `c-${crypto.randomUUID()}`, assistantId: s.agent.vapiAssistantId, direction: "inbound", status: "ended", endedReason: "pipeline-error-x", startTime: new Date().toISOString() });
    await evaluateAlerts({ db: db(), shard: await shardOfAccount(s.userId), mail: new LocalMail(db()), webhook: async () => undefined }, new Date(), { userId: s.userId });

    const bell = await call("/api/alerts/bell", { token: s.accessToken });
    expect(bell.body.unread).toBe(1);
    expect(bell.body.notifications[0]).toMatchObject({ kind: "triggered", severity: "critical", readAt: null });
    const mail = await call(`/api/local/mailbox?email=${encodeURIComponent(s.email)}`);
    expect(mail.body.messages.map((m: Json) => m.subject)).toContain("[Critical] Alert triggered: Calls ending in an error");

    const history = await call("/api/alerts/history", { token: s.accessToken });
    expect(history.body.alerts).toMatchObject([{ value: 1, threshold: 1, windowMinutes: 15, resolvedAt: null, acknowledgedBy: null, scopeLabel: "Front desk", scopeAssistantId: s.agent.vapiAssistantId }]);
    const id = history.body.alerts[0].id;
    expect((await call(`/api/alerts/history/${id}/acknowledge`, { method: "POST", token: other.accessToken })).status).toBe(404);
    const acked = await call(`/api/alerts/history/${id}/acknowledge`, { method: "POST", token: s.accessToken });
    expect(acked.body.alert.acknowledgedBy).toBe(s.email);
    // The scope's assistant, for the history's link to the calls behind the alert.
    expect(acked.body.alert.scopeAssistantId).toBe(s.agent.vapiAssistantId);
    expect((await call("/api/alerts/history", { token: other.accessToken })).body.alerts).toEqual([]);

    expect((await call("/api/alerts/bell/read", { method: "POST", token: other.accessToken, json: {} })).body.unread).toBe(0);
    expect((await call("/api/alerts/bell", { token: s.accessToken })).body.unread).toBe(1);
    expect((await call("/api/alerts/bell/read", { method: "POST", token: s.accessToken, json: {} })).body.unread).toBe(0);
    expect((await call("/api/alerts/bell/read", { method: "POST", token: s.accessToken, json: { ids: ["x"] } })).body.field).toBe("ids.0");
  });
});

describe("alert mail consent and plan limits (decision 073)", () => {
  const mailbox = async (email: string) => (await call(`/api/local/mailbox?email=${encodeURIComponent(email)}`)).body.messages as Json[];
  const address = () => `ops-${crypto.randomUUID().slice(0, 8)}@example.net`;
  const recipients = async (token: string) => (await call("/api/alerts/rules", { token })).body.recipients as Json[];

  it("a plan-less account mails its own address only: extra addresses 403 naming extraEmails, at most 10 rules; the list says what the plan allows", async () => {
    const s = await owner({}, null);
    const refused = await post(s.accessToken, errorsRule(s.agent.id, { extraEmails: [address()] }));
    expect(refused.status).toBe(403);
    expect(refused.body.field).toBe("extraEmails");
    const listed = await call("/api/alerts/rules", { token: s.accessToken });
    expect(listed.body).toMatchObject({ limit: 10, plan: { rules: 10, extraEmails: 0 }, recipients: [] });
    for (let i = 0; i < 10; i++) expect((await post(s.accessToken, errorsRule(s.agent.id))).status).toBe(201);
    const over = await post(s.accessToken, errorsRule(s.agent.id));
    expect(over.status).toBe(409);
    expect(over.body.field).toBe("rules");

    const basic = await owner({}, "basic");
    expect((await post(basic.accessToken, errorsRule(basic.agent.id, { extraEmails: [address(), address(), address()] }))).body.field).toBe("extraEmails");
    expect((await post(basic.accessToken, errorsRule(basic.agent.id, { extraEmails: [address(), address()] }))).status).toBe(201);
    expect((await call("/api/alerts/rules", { token: basic.accessToken })).body.plan).toEqual({ rules: 25, extraEmails: 2 });
  });

  it("refuses a cooldown under 5 minutes, naming cooldownMinutes", async () => {
    const s = await owner();
    const res = await post(s.accessToken, errorsRule(s.agent.id, { cooldownMinutes: 4 }));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("cooldownMinutes");
  });

  it("an extra address is pending until its owner presses the mailed link's button: GET only shows the button, POST confirms", async () => {
    const s = await owner();
    const ops = address();
    expect((await post(s.accessToken, errorsRule(s.agent.id, { extraEmails: [ops.toUpperCase()] }))).status).toBe(201);
    expect(await recipients(s.accessToken)).toEqual([{ email: ops, status: "pending" }]);
    const [mail] = await mailbox(ops);
    expect(mail.subject).toBe(ALERT_MAIL_TEXT.confirmSubject);
    expect(mail.text).not.toContain("front desk");
    const path = new URL(mail.link as string).pathname + new URL(mail.link as string).search;
    expect(path).toMatch(/^\/api\/alerts\/recipients\/confirm\?token=[A-Za-z0-9_-]{43}$/);

    const page = await call(path);
    expect(page.status).toBe(200);
    expect(page.body.text).toContain(ALERT_MAIL_TEXT.confirmButton);
    expect(page.body.text).toContain('method="post"');
    expect(await recipients(s.accessToken)).toEqual([{ email: ops, status: "pending" }]);
    expect((await call(path, { method: "POST" })).body.text).toContain(`<p role="status">${ALERT_MAIL_TEXT.confirmed.slice(0, 10)}`);
    expect(await recipients(s.accessToken)).toEqual([{ email: ops, status: "confirmed" }]);
    // The token is spent; a made-up one is not found.
    expect((await call(path, { method: "POST" })).status).toBe(404);
    expect((await call(`/api/alerts/recipients/confirm?token=${"a".repeat(43)}`)).status).toBe(404);
  });

  it("an alert mail to a confirmed address unsubscribes it in one click (RFC 8058 POST), for every rule of the account", async () => {
    const s = await owner();
    const ops = address();
    await post(s.accessToken, errorsRule(s.agent.id, { threshold: 1, extraEmails: [ops] }));
    await post(s.accessToken, errorsRule(s.agent.id, { threshold: 2, extraEmails: [ops] }));
    const [confirmation] = await mailbox(ops);
    await call(new URL(confirmation.link as string).pathname + new URL(confirmation.link as string).search, { method: "POST" });
    await (await shardOf(s.userId))
      .insert(callLogs)
      .values([1, 2].map(() => ({ userId: s.userId, callId: `c-${crypto.randomUUID()}`, assistantId: s.agent.vapiAssistantId, direction: "inbound" as const, status: "ended", endedReason: "pipeline-error-x", startTime: new Date().toISOString() })));
    await evaluateAlerts({ db: db(), shard: await shardOfAccount(s.userId), mail: new LocalMail(db()), webhook: async () => undefined, publicUrl: "http://localhost" }, new Date(), { userId: s.userId });
    const alerts = (await mailbox(ops)).filter((m) => m.kind === "alert");
    expect(alerts).toHaveLength(2);
    const headers = alerts[0].headers as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const url = /^<(.+)>$/.exec(headers["List-Unsubscribe"])![1];
    expect(alerts[0].text).toContain(url);
    const unsubscribe = new URL(url).pathname + new URL(url).search;
    expect((await call(unsubscribe)).body.text).toContain(ALERT_MAIL_TEXT.unsubscribeButton);
    expect(await recipients(s.accessToken)).toEqual([{ email: ops, status: "confirmed" }]);
    const oneClick = await call(unsubscribe, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    expect(oneClick.status).toBe(200);
    expect(await recipients(s.accessToken)).toEqual([{ email: ops, status: "unsubscribed" }]);
    // Unsubscribed is final for this account: no confirmation can be asked of the address again.
    const before = (await mailbox(ops)).length;
    const again = await call("/api/alerts/recipients/resend", { method: "POST", token: s.accessToken, json: { email: ops } });
    expect(again.status).toBe(409);
    expect(again.body.field).toBe("email");
    await post(s.accessToken, errorsRule(s.agent.id, { threshold: 3, extraEmails: [ops] }));
    expect(await mailbox(ops)).toHaveLength(before);
  });

  it("Resend confirmation: a new link within the day's caps (429 naming email past them), 404 for an address no rule names, 409 once confirmed", async () => {
    const s = await owner();
    const ops = address();
    await post(s.accessToken, errorsRule(s.agent.id, { extraEmails: [ops] }));
    const resend = (email: string) => call("/api/alerts/recipients/resend", { method: "POST", token: s.accessToken, json: { email } });
    expect((await resend(ops)).body).toEqual({ recipient: { email: ops, status: "pending" } });
    expect((await resend(ops)).status).toBe(200);
    const capped = await resend(ops);
    expect(capped.status).toBe(429);
    expect(capped.body.field).toBe("email");
    const mails = await mailbox(ops);
    expect(mails).toHaveLength(3);
    expect((await resend(address())).body.field).toBe("email");
    expect((await resend("not an address")).body.field).toBe("email");
    // Only the newest link works.
    const links = mails.map((m) => new URL(m.link as string)).map((u) => u.pathname + u.search);
    expect((await call(links[2], { method: "POST" })).status).toBe(404);
    expect((await call(links[0], { method: "POST" })).status).toBe(200);
    const confirmed = await resend(ops);
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.field).toBe("email");
  });

  it("Resend for an address a rule named but names no more (the rules are on the shard, the address in the directory): 404, its claim given back", async () => {
    const s = await owner();
    const ops = address();
    const id = (await post(s.accessToken, errorsRule(s.agent.id, { extraEmails: [ops] }))).body.rule.id;
    expect((await call(`/api/alerts/rules/${id}`, { method: "PUT", token: s.accessToken, json: errorsRule(s.agent.id) })).status).toBe(200);
    const claims = async () =>
      Number((await db().$client.prepare("SELECT count(*) AS n FROM alert_mail_log WHERE email = ? AND kind = 'confirm'").bind(ops).first<{ n: number }>())!.n);
    expect(await claims()).toBe(1);
    const res = await call("/api/alerts/recipients/resend", { method: "POST", token: s.accessToken, json: { email: ops } });
    expect(res.status).toBe(404);
    expect(res.body.field).toBe("email");
    expect(await claims()).toBe(1);
    expect(await mailbox(ops)).toHaveLength(1);
  });
});
